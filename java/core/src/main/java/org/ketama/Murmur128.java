package org.ketama;

/** MurmurHash3_x64_128 (seed 0), emcache's 32-bit value of it, and pymemcache's murmur3_32 input. */
final class Murmur128 {
    private Murmur128() {}

    private static final long C1 = 0x87C37B91114253D5L;
    private static final long C2 = 0x4CF5AD432745937FL;

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xFF51AFD7ED558CCDL;
        k ^= k >>> 33;
        k *= 0xC4CEB9FE1A85EC53L;
        return k ^ (k >>> 33);
    }

    /** Little-endian word of {@code b[at..end)} (at most 8 bytes). */
    private static long word(byte[] b, int at, int end) {
        long w = 0;
        for (int i = end - 1; i >= at; i--) {
            w = (w << 8) | (b[i] & 0xffL);
        }
        return w;
    }

    /** MurmurHash3_x64_128 of {@code len} bytes at {@code off}, seed 0: {h1, h2}. */
    static long[] hash128(byte[] b, int off, int len) {
        long h1 = 0;
        long h2 = 0;
        int blocks = len - len % 16;
        for (int i = off; i < off + blocks; i += 16) {
            long k1 = Long.rotateLeft(word(b, i, i + 8) * C1, 31) * C2;
            h1 = (Long.rotateLeft(h1 ^ k1, 27) + h2) * 5 + 0x52DCE729L;
            long k2 = Long.rotateLeft(word(b, i + 8, i + 16) * C2, 33) * C1;
            h2 = (Long.rotateLeft(h2 ^ k2, 31) + h1) * 5 + 0x38495AB5L;
        }
        int t = off + blocks;
        int tail = len - blocks;
        if (tail > 8) {
            h2 ^= Long.rotateLeft(word(b, t + 8, off + len) * C2, 33) * C1;
        }
        if (tail > 0) {
            h1 ^= Long.rotateLeft(word(b, t, t + Math.min(tail, 8)) * C1, 31) * C2;
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    /**
     * emcache's {@code _hash}: output bytes 0..3 of MurmurHash3_x64_128 read as signed chars,
     * byte i masked with {@code 0xFFFFFFFF << 8i} (C's {@code <<} binds tighter than {@code &}),
     * or-ed: a byte >= 0x80 sets every bit from its position up, a byte < 0x80 at positions
     * 1..3 adds nothing.
     */
    static int emcache(byte[] b, int off, int len) {
        long h1 = hash128(b, off, len)[0];
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int sx = (byte) (h1 >>> (8 * i));
            v |= sx & (0xFFFFFFFF << (8 * i));
        }
        return v;
    }

    /**
     * pymemcache {@code murmur3_32}: MurmurHash3_x86_32, seed 0, over the key read as UTF-8
     * characters, each as {@code ord(c) & 0xFF}; a byte that starts no valid sequence stands for
     * itself (Python's surrogateescape).
     */
    static int pymemcache(byte[] b, int off, int len) {
        byte[] low = new byte[len];
        int n = 0;
        int end = off + len;
        for (int at = off; at < end; ) {
            int c = Keys.charLength(b, at, end);
            low[n++] = c == 1 ? b[at] : (byte) ((b[at + c - 1] & 0x3f) | ((b[at + c - 2] & 0x03) << 6));
            at += c;
        }
        return Bits.murmur3(low, 0, n, 0);
    }
}
