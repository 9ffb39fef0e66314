package org.ketama;

import java.nio.charset.StandardCharsets;

/** The Java clients' hashes: they read the key's UTF-16 code units, not its bytes. */
final class Utf16 {
    private Utf16() {}

    /**
     * Refuses a string that is not Unicode: one holding an unpaired surrogate has no UTF-8
     * ({@code String.getBytes} would write {@code ?} for it), so every ketama binding refuses
     * it with {@link InvalidUtf8Exception} instead of hashing a replacement; {@code what}
     * names the argument. Null passes (the caller's own null check says what is missing).
     */
    static void requireUnicode(String s, String what) {
        if (s == null) {
            return;
        }
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidUtf8Exception(what + " holds an unpaired surrogate at index " + i);
            }
        }
    }

    /** The UTF-8 of a string that is Unicode (see {@link #requireUnicode}). */
    static byte[] utf8(String s, String what) {
        requireUnicode(s, what);
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The key's bytes decoded as UTF-8 into UTF-16 code units by the spec's rule: each maximal
     * invalid subsequence (the longest prefix of a well-formed sequence that cannot be
     * completed, or one stray byte) becomes one U+FFFD. Characters outside the BMP become a
     * surrogate pair.
     */
    static String decode(byte[] b, int off, int len) {
        int end = off + len;
        boolean ascii = true;
        for (int i = off; i < end; i++) {
            if (b[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(b, off, len, StandardCharsets.ISO_8859_1);
        }
        StringBuilder out = new StringBuilder(len);
        int i = off;
        while (i < end) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                out.append((char) c);
                i++;
                continue;
            }
            int need;
            int lo = 0x80, hi = 0xbf;
            if (c >= 0xc2 && c <= 0xdf) {
                need = 1;
            } else if (c >= 0xe0 && c <= 0xef) {
                need = 2;
                if (c == 0xe0) {
                    lo = 0xa0;
                } else if (c == 0xed) {
                    hi = 0x9f;
                }
            } else if (c >= 0xf0 && c <= 0xf4) {
                need = 3;
                if (c == 0xf0) {
                    lo = 0x90;
                } else if (c == 0xf4) {
                    hi = 0x8f;
                }
            } else {
                out.append('\uFFFD');
                i++;
                continue;
            }
            int cp = c & (0x3f >> need);
            int j = i + 1;
            int got = 0;
            while (got < need && j < end) {
                int d = b[j] & 0xff;
                int l = got == 0 ? lo : 0x80, h = got == 0 ? hi : 0xbf;
                if (d < l || d > h) {
                    break;
                }
                cp = (cp << 6) | (d & 0x3f);
                j++;
                got++;
            }
            if (got == need) {
                out.appendCodePoint(cp);
            } else {
                out.append('\uFFFD');
            }
            i = j;
        }
        return out.toString();
    }

    /** FNV over UTF-16 units (spymemcached / xmemcached {@code FNV1*_HASH}). */
    static int fnv(String s, boolean a, boolean wide) {
        int h = wide ? Bits.FNV64_BASIS_LOW : Bits.FNV32_BASIS;
        int p = wide ? Bits.FNV64_PRIME_LOW : Bits.FNV32_PRIME;
        for (int i = 0, n = s.length(); i < n; i++) {
            int x = s.charAt(i);
            h = a ? (h ^ x) * p : (h * p) ^ x;
        }
        return h;
    }

    /** xmemcached {@code MYSQL_HASH}. */
    static int mysql(String s) {
        int h = 0;
        int k = 4;
        for (int i = 0, n = s.length(); i < n; i++) {
            int u = s.charAt(i);
            h = h ^ (((h & 63) + k) * u + (h << 8));
            k += 3;
        }
        return h;
    }

    /** xmemcached {@code ELF_HASH}. */
    static int elf(String s) {
        int h = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            h = (h << 4) + s.charAt(i);
            int g = h & 0xF0000000;
            if (g != 0) {
                h ^= g >>> 24;
            }
            h &= ~g;
        }
        return h & 0x7FFFFFFF;
    }

    /** xmemcached {@code RS_HASH}. */
    static int rs(String s) {
        int a = 63689;
        int h = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            h = h * a + s.charAt(i);
            a *= 378551;
        }
        return h & 0x7FFFFFFF;
    }

    /** xmemcached {@code LUA_HASH}: Lua's string hash in 64-bit arithmetic, every step-th unit from the end. */
    static int lua(String s) {
        int n = s.length();
        long h = n;
        int step = (n >> 5) + 1;
        for (int i = n; i >= step; i -= step) {
            h ^= (h << 5) + (h >> 2) + s.charAt(i - 1);
        }
        return (int) h;
    }

    /** whalin {@code OLD_COMPAT_HASH}: {@code h = 33 h + unit} in a 64-bit long. */
    static long oldCompat(String s) {
        long h = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            h = h * 33 + s.charAt(i);
        }
        return h;
    }
}
