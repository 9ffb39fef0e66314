package org.ketama;

import java.util.Arrays;

/** The bytes a client hashes for a key: its refusals, then its rewriting. */
final class Keys {
    private Keys() {}

    /** Whether the client refuses {@code key} (before any rewriting). */
    static boolean refused(Profile p, HashFn hash, byte[] key) {
        return refused(p, hash, key, key.length);
    }

    /** Whether the client refuses the key {@code key[0..len)} (before any rewriting). */
    static boolean refused(Profile p, HashFn hash, byte[] key, int len) {
        if (len == 0 && (p.emptyRefused || p.emptyKeyRejected.contains(hash))) {
            return true;
        }
        if (p.maxLen >= 0 && len > p.maxLen) {
            return true;
        }
        return p.chars != Profile.Chars.ANY && !charsAllow(p.chars, key, len);
    }

    private static boolean ctl(int c) {
        return c <= 0x20 || c == 0x7f;
    }

    /** Whether a key passes the profile's {@code key_limits.chars} rule. */
    static boolean charsAllow(Profile.Chars chars, byte[] key) {
        return charsAllow(chars, key, key.length);
    }

    /** Whether the key {@code key[0..len)} passes the profile's {@code key_limits.chars} rule. */
    static boolean charsAllow(Profile.Chars chars, byte[] key, int len) {
        switch (chars) {
            case ANY:
                return true;
            case CONTROLS:
                for (int i = 0; i < len; i++) {
                    if ((key[i] & 0xff) <= 0x20) {
                        return false;
                    }
                }
                return true;
            case CONTROLS_DEL:
                for (int i = 0; i < len; i++) {
                    if (ctl(key[i] & 0xff)) {
                        return false;
                    }
                }
                return true;
            case PY_WHITESPACE:
            case PY_WHITESPACE_ASCII: {
                // no NUL; whitespace only where the key is all whitespace (`key.split()` empty)
                int ws = 0;
                for (int i = 0; i < len; i++) {
                    int c = key[i] & 0xff;
                    if (c == 0 || (c >= 0x80 && chars == Profile.Chars.PY_WHITESPACE_ASCII)) {
                        return false;
                    }
                    if (c == ' ' || (c >= 0x09 && c <= 0x0d)) {
                        ws++;
                    }
                }
                return ws == 0 || ws == len;
            }
            case PYTHON_MEMCACHED: {
                // `[\x21-\x7e\x80-\xff]+$`: `$` also matches before one final newline
                int end = len > 0 && key[len - 1] == '\n' ? len - 1 : len;
                if (end == 0) {
                    return false;
                }
                for (int i = 0; i < end; i++) {
                    if (ctl(key[i] & 0xff)) {
                        return false;
                    }
                }
                return true;
            }
            case SPACE_NEWLINE_NUL:
                for (int i = 0; i < len; i++) {
                    byte b = key[i];
                    if (b == ' ' || b == '\n' || b == '\r' || b == 0) {
                        return false;
                    }
                }
                return true;
            default:
                throw new IllegalStateException(chars.toString());
        }
    }

    /**
     * Whether the key a client hashes is always the key as given (after its refusals): no
     * hash tag, no prefix, no rewrite.
     */
    static boolean plain(Profile p, Options options) {
        boolean tags = p.keyTag == Profile.KeyTag.BRACES || (p.keyTag == Profile.KeyTag.CONFIGURED && options.hasHashTag());
        return !tags && !options.hashWithPrefix() && p.rewrite == Profile.Rewrite.NONE;
    }

    /**
     * What a prepared key is when the client hashes nothing and uses hash 0 (libmemcached's
     * hashed prefix + key over 250 bytes); compared by identity, never a caller's array.
     */
    static final byte[] UNHASHED = new byte[0];
    /** The length a batch records for {@link #UNHASHED} (never a key's length). */
    static final int UNHASHED_LENGTH = -2;

    /** The 32-bit hash of a prepared key: 0 for {@link #UNHASHED}. */
    static int hash(HashFn hash, byte[] k) {
        return k == UNHASHED ? 0 : hash.apply(k, 0, k.length);
    }

    /** The delimiters of the clients whose hash tags are always braces. */
    private static final byte OPEN_BRACE = '{';
    private static final byte CLOSE_BRACE = '}';

    /**
     * The key the client hashes, or throws {@link KeyRejectedException}: the refusals on the
     * key as given, then the hash tag (the client's braces, or the ring's {@code hash_tag}
     * option where the client takes one), then libmemcached's hashed prefix when the ring has
     * it (only profiles whose key is not rewritten take it), else the profile's rewrite.
     */
    static byte[] prepare(Profile p, HashFn hash, Options options, byte[] key) {
        if (refused(p, hash, key)) {
            throw new KeyRejectedException();
        }
        if (p.keyTag == Profile.KeyTag.BRACES) {
            key = Tags.tag(p.tagRule, key, OPEN_BRACE, CLOSE_BRACE);
        } else if (p.keyTag == Profile.KeyTag.CONFIGURED && options.hasHashTag()) {
            key = Tags.tag(p.tagRule, key, options.tagOpen(), options.tagClose());
        }
        if (options.hashWithPrefix()) {
            return options.withPrefix(key);
        }
        return rewrite(p, key);
    }

    /** The profile's rewrite of a key (after its tag). */
    private static byte[] rewrite(Profile p, byte[] key) {
        switch (p.rewrite) {
            case NONE:
                return key;
            case TRUNCATE:
                return key.length <= p.truncateBytes ? key : Arrays.copyOf(key, p.truncateBytes);
            case PECL_SANITIZE: {
                byte[] out = Arrays.copyOf(key, Math.min(key.length, 250));
                for (int i = 0; i < out.length; i++) {
                    if ((out[i] & 0xff) <= 0x20) {
                        out[i] = '_';
                    }
                }
                return out;
            }
            case DALLI_DIGEST:
                return dalliDigest(key);
            case URL_ENCODE:
                return urlEncode(key);
            case PY_BYTES_REPR:
                return pyBytesRepr(key);
            case PREFIX: {
                byte[] out = Arrays.copyOf(p.keyPrefix, p.keyPrefix.length + key.length);
                System.arraycopy(key, 0, out, p.keyPrefix.length, key.length);
                return out;
            }
            case LATIN1: {
                byte[] out = latin1(key);
                if (out == null) {
                    throw new KeyRejectedException("not UTF-8 of characters up to U+00FF");
                }
                return out;
            }
            default:
                throw new IllegalStateException(p.rewrite.toString());
        }
    }

    /**
     * The characters of UTF-8 {@code text} as one latin-1 byte each ({@code
     * str.encode('iso-8859-1')}); null when {@code text} is not UTF-8 or holds a character
     * above U+00FF.
     */
    static byte[] latin1(byte[] text) {
        byte[] out = new byte[text.length];
        int n = 0;
        for (int i = 0; i < text.length; ) {
            int b = text[i] & 0xff;
            if (b < 0x80) {
                out[n++] = (byte) b;
                i++;
            } else if ((b == 0xC2 || b == 0xC3) && i + 1 < text.length && (text[i + 1] & 0xC0) == 0x80) {
                out[n++] = (byte) ((b & 0x1F) << 6 | (text[i + 1] & 0x3F));
                i += 2;
            } else {
                return null;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    private static final byte[] UPPER_HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] LOWER_HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** {@code URLEncoder.encode(key, "UTF-8")} over the bytes: a-zA-Z0-9 . - * _ kept, space to +, else %XX. */
    static byte[] urlEncode(byte[] key) {
        byte[] out = new byte[key.length * 3];
        int n = 0;
        for (byte b : key) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '*' || c == '_') {
                out[n++] = b;
            } else if (c == ' ') {
                out[n++] = '+';
            } else {
                out[n++] = '%';
                out[n++] = UPPER_HEX[c >>> 4];
                out[n++] = UPPER_HEX[c & 15];
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * Python's {@code repr()} of a {@code bytes} key: {@code b} and a quote ({@code "} when the
     * key holds {@code '} and no {@code "}), backslash, the quote, tab, newline and carriage
     * return escaped, other bytes outside 0x20..0x7e as {@code \xhh}, the quote.
     */
    static byte[] pyBytesRepr(byte[] key) {
        boolean single = false;
        boolean dbl = false;
        for (byte b : key) {
            single |= b == '\'';
            dbl |= b == '"';
        }
        byte quote = single && !dbl ? (byte) '"' : (byte) '\'';
        byte[] out = new byte[key.length * 4 + 3];
        int n = 0;
        out[n++] = 'b';
        out[n++] = quote;
        for (byte b : key) {
            int c = b & 0xff;
            if (c == '\\' || b == quote) {
                out[n++] = '\\';
                out[n++] = b;
            } else if (c == '\t' || c == '\n' || c == '\r') {
                out[n++] = '\\';
                out[n++] = (byte) (c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
            } else if (c >= 0x20 && c <= 0x7e) {
                out[n++] = b;
            } else {
                out[n++] = '\\';
                out[n++] = 'x';
                out[n++] = LOWER_HEX[c >>> 4];
                out[n++] = LOWER_HEX[c & 15];
            }
        }
        out[n++] = quote;
        return Arrays.copyOf(out, n);
    }

    /** dalli's longest key in characters before it is shortened, and the characters it keeps. */
    private static final int DALLI_MAX_CHARS = 250;
    private static final int DALLI_KEEP_CHARS = 212;

    /**
     * dalli: a key longer than 250 characters (UTF-8 sequences; a byte outside one counts as
     * one) becomes its first 212 characters + {@code :md5:} + the lowercase hex MD5 of the key.
     */
    static byte[] dalliDigest(byte[] key) {
        int at = 0;
        int chars = 0;
        int keep = 0;
        while (at < key.length) {
            at += charLength(key, at, key.length);
            chars++;
            if (chars == DALLI_KEEP_CHARS) {
                keep = at;
            }
            if (chars > DALLI_MAX_CHARS) {
                break;
            }
        }
        if (chars <= DALLI_MAX_CHARS) {
            return key;
        }
        byte[] d = Md5.digest(key, 0, key.length);
        byte[] out = Arrays.copyOf(key, keep + 37);
        byte[] tag = {':', 'm', 'd', '5', ':'};
        System.arraycopy(tag, 0, out, keep, 5);
        for (int i = 0; i < 16; i++) {
            out[keep + 5 + 2 * i] = LOWER_HEX[(d[i] & 0xff) >>> 4];
            out[keep + 6 + 2 * i] = LOWER_HEX[d[i] & 15];
        }
        return out;
    }

    /**
     * Length of the character at {@code at} of {@code k[..end)}: a well-formed UTF-8 sequence,
     * else one byte.
     */
    static int charLength(byte[] k, int at, int end) {
        int b = k[at] & 0xff;
        int want = b <= 0x7f ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 1;
        if (want == 1 || at + want > end) {
            return 1;
        }
        int lo = 0x80, hi = 0xbf;
        if (b == 0xe0) {
            lo = 0xa0;
        } else if (b == 0xed) {
            hi = 0x9f;
        } else if (b == 0xf0) {
            lo = 0x90;
        } else if (b == 0xf4) {
            hi = 0x8f;
        }
        int c1 = k[at + 1] & 0xff;
        if (c1 < lo || c1 > hi) {
            return 1;
        }
        for (int i = 2; i < want; i++) {
            int c = k[at + i] & 0xff;
            if (c < 0x80 || c > 0xbf) {
                return 1;
            }
        }
        return want;
    }
}
