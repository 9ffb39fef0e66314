package org.ketama;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;

/**
 * Every key hash, by its canonical name in the spec's hash table ({@code hashes[].name}).
 * Which names and client names select which function is the spec's; this enum only holds the
 * functions. {@link #apply} never fails.
 */
enum HashFn {
    ONE_AT_A_TIME("one_at_a_time") {
        @Override int apply(byte[] b, int off, int len) { return Bits.oneAtATime(b, off, len, true); }
    },
    ONE_AT_A_TIME_UNSIGNED("one_at_a_time_unsigned") {
        @Override int apply(byte[] b, int off, int len) { return Bits.oneAtATime(b, off, len, false); }
    },
    MD5("md5") {
        @Override int apply(byte[] b, int off, int len) { return Md5.word0(b, off, len); }
    },
    ELECTION("election") {
        @Override int apply(byte[] b, int off, int len) { return Md5.word0(b, off, len); }
    },
    CRC("crc") {
        @Override int apply(byte[] b, int off, int len) { return Crc.crc15(b, off, len); }
    },
    CRC32A("crc32a") {
        @Override int apply(byte[] b, int off, int len) { return Crc.crc32a(b, off, len); }
    },
    CRC16("crc16") {
        @Override int apply(byte[] b, int off, int len) { return Crc.crc16(b, off, len); }
    },
    FNV1_64("fnv1_64") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, true, false, true); }
    },
    FNV1A_64("fnv1a_64") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, true, true, true); }
    },
    FNV1_32("fnv1_32") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, true, false, false); }
    },
    FNV1A_32("fnv1a_32") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, true, true, false); }
    },
    FNV1_64_UNSIGNED("fnv1_64_unsigned") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, false, false, true); }
    },
    FNV1A_64_UNSIGNED("fnv1a_64_unsigned") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, false, true, true); }
    },
    FNV1_32_UNSIGNED("fnv1_32_unsigned") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, false, false, false); }
    },
    FNV1A_32_UNSIGNED("fnv1a_32_unsigned") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnv(b, off, len, false, true, false); }
    },
    JAVA_FNV1_64("java_fnv1_64") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.fnv(Utf16.decode(b, off, len), false, true); }
    },
    JAVA_FNV1A_64("java_fnv1a_64") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.fnv(Utf16.decode(b, off, len), true, true); }
    },
    JAVA_FNV1_32("java_fnv1_32") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.fnv(Utf16.decode(b, off, len), false, false); }
    },
    JAVA_FNV1A_32("java_fnv1a_32") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.fnv(Utf16.decode(b, off, len), true, false); }
    },
    HSIEH("hsieh") {
        @Override int apply(byte[] b, int off, int len) { return Bits.hsieh(b, off, len, true); }
    },
    HSIEH_UNSIGNED("hsieh_unsigned") {
        @Override int apply(byte[] b, int off, int len) { return Bits.hsieh(b, off, len, false); }
    },
    MURMUR("murmur") {
        @Override int apply(byte[] b, int off, int len) { return Bits.murmur2(b, off, len); }
    },
    MURMUR3("murmur3") {
        @Override int apply(byte[] b, int off, int len) { return Bits.murmur3(b, off, len, 0xDEADBEEF * len); }
    },
    JENKINS("jenkins") {
        @Override int apply(byte[] b, int off, int len) { return Bits.jenkins(b, off, len); }
    },
    NATIVE("native") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.decode(b, off, len).hashCode(); }
    },
    MYSQL("mysql") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.mysql(Utf16.decode(b, off, len)); }
    },
    ELF("elf") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.elf(Utf16.decode(b, off, len)); }
    },
    RS("rs") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.rs(Utf16.decode(b, off, len)); }
    },
    LUA("lua") {
        @Override int apply(byte[] b, int off, int len) { return Utf16.lua(Utf16.decode(b, off, len)); }
    },
    MD5_BE("md5_be") {
        @Override int apply(byte[] b, int off, int len) { return Integer.reverseBytes(Md5.word0(b, off, len)); }
    },
    SHA1("sha1") {
        @Override int apply(byte[] b, int off, int len) { return sha1FirstWord(b, off, len); }
    },
    MURMUR3_32("murmur3_32") {
        @Override int apply(byte[] b, int off, int len) { return Bits.murmur3(b, off, len, 0); }
    },
    SPOOKY32("spooky32") {
        @Override int apply(byte[] b, int off, int len) { return Spooky.hash32(b, off, len, 0); }
    },
    PYMEMCACHE_MURMUR3("pymemcache_murmur3") {
        @Override int apply(byte[] b, int off, int len) { return Murmur128.pymemcache(b, off, len); }
    },
    EMCACHE_MURMUR3("emcache_murmur3") {
        @Override int apply(byte[] b, int off, int len) { return Murmur128.emcache(b, off, len); }
    },
    XXH3("xxh3") {
        @Override int apply(byte[] b, int off, int len) { return (int) Xxh3.hash64(b, off, len); }
    },
    SEED_TOHASH("seed_tohash") {
        @Override int apply(byte[] b, int off, int len) { return seedToHash(Md5.word0(b, off, len)); }
    },
    CRC32_RAW("crc32_raw") {
        @Override int apply(byte[] b, int off, int len) { return ~Crc.crc32a(b, off, len); }
    },
    MURMUR64A("murmur64a") {
        @Override int apply(byte[] b, int off, int len) { return (int) (apply64(b, off, len) >>> 32); }
        @Override long apply64(byte[] b, int off, int len) { return Hash64.murmur64a(b, off, len, Hash64.JEDIS_SEED); }
    },
    XXH64("xxh64") {
        @Override int apply(byte[] b, int off, int len) { return (int) (apply64(b, off, len) >>> 32); }
        @Override long apply64(byte[] b, int off, int len) { return Hash64.xxh64(b, off, len, 0); }
    },
    FNV1A_32_ZERO("fnv1a_32_zero") {
        @Override int apply(byte[] b, int off, int len) { return Bits.fnvFrom(0, b, off, len); }
    };

    /** The canonical name (the spec's {@code hashes[].name}). */
    final String canonical;

    HashFn(String canonical) {
        this.canonical = canonical;
    }

    /** The unsigned 32-bit hash of {@code len} bytes at {@code off}, as an int's bits. */
    abstract int apply(byte[] b, int off, int len);

    /**
     * The 64-bit hash: all 64 bits of the 64-bit functions ({@code murmur64a}, {@code xxh64}),
     * the unsigned 32-bit hash of every other one.
     */
    long apply64(byte[] b, int off, int len) {
        return apply(b, off, len) & 0xFFFFFFFFL;
    }

    /** Whether this hash is a function of the MD5 digest's first little-endian word alone. */
    boolean fromMd5Word0() {
        return this == MD5 || this == ELECTION || this == MD5_BE || this == SEED_TOHASH;
    }

    /** This hash of a key whose MD5 digest's first little-endian word is {@code w} (only where {@link #fromMd5Word0}). */
    int ofMd5Word0(int w) {
        switch (this) {
            case MD5_BE:
                return Integer.reverseBytes(w);
            case SEED_TOHASH:
                return seedToHash(w);
            default:
                return w;
        }
    }

    /** Whether this function reads UTF-16 code units (the Java clients' flavour). */
    boolean utf16() {
        switch (this) {
            case JAVA_FNV1_64: case JAVA_FNV1A_64: case JAVA_FNV1_32: case JAVA_FNV1A_32:
            case NATIVE: case MYSQL: case ELF: case RS: case LUA:
                return true;
            default:
                return false;
        }
    }

    /** Whether this function widens bytes as a C signed {@code char} ({@code signed_bytes}). */
    boolean signedBytes() {
        switch (this) {
            case ONE_AT_A_TIME: case FNV1_64: case FNV1A_64: case FNV1_32: case FNV1A_32: case HSIEH:
                return true;
            default:
                return false;
        }
    }

    /** Whether this function reads bytes as {@code unsigned char} ({@code unsigned_bytes}). */
    boolean unsignedBytes() {
        switch (this) {
            case ONE_AT_A_TIME_UNSIGNED: case FNV1_64_UNSIGNED: case FNV1A_64_UNSIGNED:
            case FNV1_32_UNSIGNED: case FNV1A_32_UNSIGNED: case HSIEH_UNSIGNED: case FNV1A_32_ZERO:
                return true;
            default:
                return false;
        }
    }

    /** The spec's {@code input} word for this function. */
    String input() {
        return utf16() ? "utf16_units" : signedBytes() ? "signed_bytes" : unsignedBytes() ? "unsigned_bytes" : "bytes";
    }

    private static final Map<String, HashFn> BY_CANONICAL = new HashMap<>();

    static {
        for (HashFn h : values()) {
            BY_CANONICAL.put(h.canonical, h);
        }
    }

    /** The function with this canonical name, or null. */
    static HashFn byCanonical(String name) {
        return BY_CANONICAL.get(name);
    }

    /**
     * toHash of the user's PHP FlexiHash class (profile flexihash-seed): hex digits 0, 2, 4, 6
     * of the MD5 folded with * 31.
     */
    static int seedToHash(int word0) {
        final String hex = "0123456789abcdef";
        int h = 0;
        for (int i = 0; i < 4; i++) {
            int b = (word0 >>> (8 * i)) & 0xff;
            h = h * 31 + hex.charAt(b >>> 4);
        }
        return h & 0x7FFFFFFF;
    }

    /** SHA-1's first digest word, big-endian (Ruby Dalli's ring points). */
    static int sha1FirstWord(byte[] b, int off, int len) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-1 (MessageDigest's documented guarantee).
            throw new IllegalStateException(e);
        }
        md.update(b, off, len);
        byte[] d = md.digest();
        return (d[0] & 0xff) << 24 | (d[1] & 0xff) << 16 | (d[2] & 0xff) << 8 | (d[3] & 0xff);
    }
}
