package org.ketama;

/**
 * The 64-bit key hashes: MurmurHash64A (Jedis) and XXH64 (go-redis). As 32-bit hashes they
 * give their high 32 bits; the profiles that use them read all 64.
 */
final class Hash64 {
    private Hash64() {}

    /** Jedis's MurmurHash64A seed ({@code Hashing.MURMUR_HASH}). */
    static final long JEDIS_SEED = 0x1234ABCDL;
    private static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    /** The little-endian word of the {@code n} (0..8) bytes at {@code q}, zero-padded. */
    private static long le(byte[] b, int q, int n) {
        long w = 0;
        for (int i = n - 1; i >= 0; i--) {
            w = (w << 8) | (b[q + i] & 0xffL);
        }
        return w;
    }

    private static long le64(byte[] b, int q) {
        return (b[q] & 0xffL) | (b[q + 1] & 0xffL) << 8 | (b[q + 2] & 0xffL) << 16 | (b[q + 3] & 0xffL) << 24
            | (b[q + 4] & 0xffL) << 32 | (b[q + 5] & 0xffL) << 40 | (b[q + 6] & 0xffL) << 48 | (b[q + 7] & 0xffL) << 56;
    }

    /**
     * MurmurHash64A: {@code h = seed ^ (len * m)}, 8-byte little-endian blocks, the 1..7 tail
     * bytes as one zero-padded little-endian word, then the final mix.
     */
    static long murmur64a(byte[] b, int off, int len, long seed) {
        long h = seed ^ ((long) len * M);
        int q = off;
        for (int n = len >>> 3; n > 0; n--, q += 8) {
            long k = le64(b, q) * M;
            k ^= k >>> R;
            k *= M;
            h ^= k;
            h *= M;
        }
        if ((len & 7) != 0) {
            h ^= le(b, q, len & 7);
            h *= M;
        }
        h ^= h >>> R;
        h *= M;
        return h ^ (h >>> R);
    }

    private static long round(long acc, long input) {
        acc += input * P2;
        return Long.rotateLeft(acc, 31) * P1;
    }

    private static long merge(long acc, long v) {
        acc ^= round(0, v);
        return acc * P1 + P4;
    }

    /** XXH64 with {@code seed}. */
    static long xxh64(byte[] b, int off, int len, long seed) {
        int q = off;
        int end = off + len;
        long h;
        if (len >= 32) {
            long v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
            for (; end - q >= 32; q += 32) {
                v1 = round(v1, le64(b, q));
                v2 = round(v2, le64(b, q + 8));
                v3 = round(v3, le64(b, q + 16));
                v4 = round(v4, le64(b, q + 24));
            }
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(merge(merge(merge(h, v1), v2), v3), v4);
        } else {
            h = seed + P5;
        }
        h += len;
        for (; end - q >= 8; q += 8) {
            h ^= round(0, le64(b, q));
            h = Long.rotateLeft(h, 27) * P1 + P4;
        }
        if (end - q >= 4) {
            h ^= le(b, q, 4) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            q += 4;
        }
        for (; q < end; q++) {
            h ^= (b[q] & 0xffL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        return h ^ (h >>> 32);
    }
}
