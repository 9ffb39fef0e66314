package org.ketama;

/**
 * XXH3 64-bit with seed 0 and the default secret (memcached's proxy hashes keys and ring
 * points with it): the short paths (0..16, 17..128, 129..240 bytes) and the striped long path.
 */
final class Xxh3 {
    private Xxh3() {}

    /** The 192-byte default secret of the XXH3 specification. */
    private static final byte[] SECRET = bytes(
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
        0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
        0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
        0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
        0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e);

    private static final long P32_1 = 0x9E3779B1L;
    private static final long P32_2 = 0x85EBCA77L;
    private static final long P32_3 = 0xC2B2AE3DL;
    private static final long P64_1 = 0x9E3779B185EBCA87L;
    private static final long P64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P64_3 = 0x165667B19E3779F9L;
    private static final long P64_4 = 0x85EBCA77C2B2AE63L;
    private static final long P64_5 = 0x27D4EB2F165667C5L;

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    private static long r32(byte[] b, int at) {
        return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    private static long r64(byte[] b, int at) {
        return r32(b, at) | r32(b, at + 4) << 32;
    }

    /** The low and high halves of the unsigned 128-bit product, xored. */
    private static long fold(long a, long b) {
        long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return (a * b) ^ hi;
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= 0x165667919E3779F9L;
        return h ^ (h >>> 32);
    }

    private static long xxh64Avalanche(long h) {
        h ^= h >>> 33;
        h *= P64_2;
        h ^= h >>> 29;
        h *= P64_3;
        return h ^ (h >>> 32);
    }

    private static long mix16(byte[] b, int at, int s) {
        return fold(r64(b, at) ^ r64(SECRET, s), r64(b, at + 8) ^ r64(SECRET, s + 8));
    }

    /** XXH3 64-bit (seed 0) of {@code n} bytes at {@code o}. */
    static long hash64(byte[] b, int o, int n) {
        if (n <= 16) {
            return small(b, o, n);
        }
        if (n <= 128) {
            long acc = n * P64_1;
            if (n > 32) {
                if (n > 64) {
                    if (n > 96) {
                        acc += mix16(b, o + 48, 96) + mix16(b, o + n - 64, 112);
                    }
                    acc += mix16(b, o + 32, 64) + mix16(b, o + n - 48, 80);
                }
                acc += mix16(b, o + 16, 32) + mix16(b, o + n - 32, 48);
            }
            acc += mix16(b, o + 0, 0) + mix16(b, o + n - 16, 16);
            return avalanche(acc);
        }
        if (n <= 240) {
            long acc = n * P64_1;
            for (int i = 0; i < 8; i++) {
                acc += mix16(b, o + 16 * i, 16 * i);
            }
            acc = avalanche(acc);
            for (int i = 8; i < n / 16; i++) {
                acc += mix16(b, o + 16 * i, 16 * (i - 8) + 3);
            }
            acc += mix16(b, o + n - 16, 136 - 17);
            return avalanche(acc);
        }
        return striped(b, o, n);
    }

    private static long small(byte[] b, int o, int n) {
        if (n > 8) {
            long lo = r64(b, o) ^ (r64(SECRET, 24) ^ r64(SECRET, 32));
            long hi = r64(b, o + n - 8) ^ (r64(SECRET, 40) ^ r64(SECRET, 48));
            return avalanche(n + Long.reverseBytes(lo) + hi + fold(lo, hi));
        }
        if (n >= 4) {
            long x = (r32(b, o + n - 4) + (r32(b, o) << 32)) ^ (r64(SECRET, 8) ^ r64(SECRET, 16));
            long v = x ^ Long.rotateLeft(x, 49) ^ Long.rotateLeft(x, 24);
            v *= 0x9FB21C651E98DF25L;
            v ^= (v >>> 35) + n;
            v *= 0x9FB21C651E98DF25L;
            return v ^ (v >>> 28);
        }
        if (n > 0) {
            long combo = ((b[o] & 0xffL) << 16) | ((b[o + (n >> 1)] & 0xffL) << 24) | (b[o + n - 1] & 0xffL) | ((long) n << 8);
            return xxh64Avalanche(combo ^ (r32(SECRET, 0) ^ r32(SECRET, 4)));
        }
        return xxh64Avalanche(r64(SECRET, 56) ^ r64(SECRET, 64));
    }

    /** One 64-byte stripe at {@code at} into the 8 lanes, the secret read from {@code s}. */
    private static void stripe(long[] acc, byte[] b, int at, int s) {
        for (int i = 0; i < 8; i++) {
            long v = r64(b, at + 8 * i);
            long k = v ^ r64(SECRET, s + 8 * i);
            acc[i ^ 1] += v;
            acc[i] += (k & 0xFFFFFFFFL) * (k >>> 32);
        }
    }

    private static long striped(byte[] b, int o, int n) {
        long[] acc = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
        int perBlock = (SECRET.length - 64) / 8;
        int blockLen = 64 * perBlock;
        int blocks = (n - 1) / blockLen;
        for (int k = 0; k < blocks; k++) {
            for (int s = 0; s < perBlock; s++) {
                stripe(acc, b, o + k * blockLen + 64 * s, 8 * s);
            }
            for (int i = 0; i < 8; i++) {
                long v = acc[i] ^ (acc[i] >>> 47) ^ r64(SECRET, SECRET.length - 64 + 8 * i);
                acc[i] = v * P32_1;
            }
        }
        int last = (n - 1 - blockLen * blocks) / 64;
        for (int s = 0; s < last; s++) {
            stripe(acc, b, o + blocks * blockLen + 64 * s, 8 * s);
        }
        stripe(acc, b, o + n - 64, SECRET.length - 64 - 7);
        long r = n * P64_1;
        for (int i = 0; i < 4; i++) {
            r += fold(acc[2 * i] ^ r64(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ r64(SECRET, 11 + 16 * i + 8));
        }
        return avalanche(r);
    }
}
