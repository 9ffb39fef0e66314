package org.ketama;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A client's placement options: they change which bytes of a key are hashed, never the
 * servers' points. A hash tag's delimiters (twemproxy's {@code hash_tag}, Jedis's key tag
 * pattern {@code o(.+?)c}: the twemproxy and Jedis profiles; the Redis clients whose tag rule is
 * always on, Predis, phpredis, redis-rb, go-redis and redis-shard, hash {@code {tag}} without
 * it and refuse it; docs/compat.md lists each profile's rule) and php-memcached's
 * {@code OPT_PREFIX_KEY}, which moves keys only with {@code OPT_HASH_WITH_PREFIX_KEY}
 * (libmemcached profiles). Values are checked by the client's rules when set
 * ({@link BadOptionException}); {@link Ring#withOptions} checks that the profile's client has
 * them. Immutable.
 *
 * <pre>{@code
 * Ring tw = Ring.create("twemproxy", null, servers).withOptions(Options.none().withHashTag("{}"));
 * tw.get("{user:42}:cart").equals(tw.get("{user:42}:profile")); // only "user:42" is hashed
 * }</pre>
 */
public final class Options {
    private static final Options NONE = new Options(null, new byte[0], false);

    private final byte[] hashTag;
    private final byte[] prefixKey;
    private final boolean hashWithPrefix;

    private Options(byte[] hashTag, byte[] prefixKey, boolean hashWithPrefix) {
        this.hashTag = hashTag;
        this.prefixKey = prefixKey;
        this.hashWithPrefix = hashWithPrefix;
    }

    /** No options: keys are hashed as the profile says. */
    public static Options none() {
        return NONE;
    }

    /** {@link #withHashTag(byte[])} of the tag's UTF-8 bytes ({@code null}: none). */
    public Options withHashTag(String tag) {
        return withHashTag(tag == null ? null : Utf16.utf8(tag, "hash_tag"));
    }

    /**
     * A hash tag's delimiters ({@code hash_tag}): exactly 2 bytes, the opening and the closing
     * one (twemproxy counts bytes: {@code "é"} is a tag, {@code "«»"} is not); {@code null}:
     * none. The tag is found by the client's own rule (twemproxy: the non-empty bytes between
     * the first opening byte and the next closing byte; Jedis: its pattern {@code o(.+?)c}
     * with {@code find()}, {@code "{}"} being its default); a key without one is hashed whole.
     *
     * @throws BadOptionException not 2 bytes
     */
    public Options withHashTag(byte[] tag) {
        if (tag != null && tag.length != Spec.get().hashTagBytes) {
            throw new BadOptionException("hash_tag: " + tag.length + " bytes, not " + Spec.get().hashTagBytes);
        }
        return new Options(tag == null ? null : tag.clone(), prefixKey, hashWithPrefix);
    }

    /** {@link #withPrefixKey(byte[])} of the prefix's UTF-8 bytes. */
    public Options withPrefixKey(String prefix) {
        return withPrefixKey(prefix == null ? null : Utf16.utf8(prefix, "prefix_key"));
    }

    /**
     * php-memcached's {@code OPT_PREFIX_KEY}: at most 127 bytes without NUL; empty or
     * {@code null}: none (as the client's empty string clears it). It moves keys only with
     * {@link #withHashWithPrefix}.
     *
     * @throws BadOptionException over 127 bytes, or a NUL byte
     */
    public Options withPrefixKey(byte[] prefix) {
        byte[] p = prefix == null ? new byte[0] : prefix.clone();
        if (p.length > Spec.get().prefixKeyMaxBytes) {
            throw new BadOptionException("prefix_key: " + p.length + " bytes, over " + Spec.get().prefixKeyMaxBytes);
        }
        for (byte b : p) {
            if (b == 0) {
                throw new BadOptionException("prefix_key holds a NUL byte");
            }
        }
        return new Options(hashTag, p, hashWithPrefix);
    }

    /**
     * {@code OPT_HASH_WITH_PREFIX_KEY}: the prefix + key is hashed (as libmemcached copies it:
     * the key's bytes after a NUL are NUL); over 250 bytes it is not hashed and gets hash 0.
     */
    public Options withHashWithPrefix(boolean on) {
        return new Options(hashTag, prefixKey, on);
    }

    /** The hash tag's bytes, or {@code null}. */
    public byte[] hashTag() {
        return hashTag == null ? null : hashTag.clone();
    }

    /** The key prefix's bytes (empty: none). */
    public byte[] prefixKey() {
        return prefixKey.clone();
    }

    /** Whether the prefix + key is hashed. */
    public boolean hashWithPrefix() {
        return hashWithPrefix;
    }

    /** {@link BadOptionException} unless {@code p}'s client has every option set here. */
    void check(Profile p) {
        if (hashTag != null && !p.optHashTag) {
            throw new BadOptionException(p.name + " has no hash_tag");
        }
        if ((prefixKey.length > 0 || hashWithPrefix) && !p.optPrefixKey) {
            throw new BadOptionException(p.name + " has no prefix_key");
        }
    }

    /** Whether a hash tag is set. */
    boolean hasHashTag() {
        return hashTag != null;
    }

    /** The hash tag's opening byte (only with {@link #hasHashTag}). */
    byte tagOpen() {
        return hashTag[0];
    }

    /** The hash tag's closing byte (only with {@link #hasHashTag}). */
    byte tagClose() {
        return hashTag[1];
    }

    /**
     * The prefix + key libmemcached hashes with {@code OPT_HASH_WITH_PREFIX_KEY}, copied as
     * {@code strncpy} copies it (the key's bytes after a NUL are NUL); {@link Keys#UNHASHED}
     * over 250 bytes.
     */
    byte[] withPrefix(byte[] key) {
        int len = prefixKey.length + key.length;
        if (len > Spec.get().prefixedKeyMaxBytes) {
            return Keys.UNHASHED;
        }
        byte[] out = Arrays.copyOf(prefixKey, len);
        for (int i = 0; i < key.length && key[i] != 0; i++) {
            out[prefixKey.length + i] = key[i]; // strncpy: the bytes after a NUL stay NUL
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Options)) {
            return false;
        }
        Options x = (Options) o;
        return Arrays.equals(hashTag, x.hashTag) && Arrays.equals(prefixKey, x.prefixKey) && hashWithPrefix == x.hashWithPrefix;
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(hashTag) * 31 + Arrays.hashCode(prefixKey)) * 31 + (hashWithPrefix ? 1 : 0);
    }

    @Override
    public String toString() {
        return "Options{hash_tag=" + (hashTag == null ? "none" : new String(hashTag, StandardCharsets.UTF_8))
                + ", prefix_key=" + new String(prefixKey, StandardCharsets.UTF_8) + ", hash_with_prefix=" + hashWithPrefix + "}";
    }
}
