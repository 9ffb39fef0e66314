package org.ketama;

/**
 * MD5 (RFC 1321) over a byte range, giving the four state words: word {@code g} of the state
 * is the little-endian word {@code g} of the digest ({@code md5le(s, g)} in the client notes).
 * Allocates nothing.
 */
final class Md5 {
    private Md5() {}

    /** The first digest word, little-endian: ketama's key hash ({@code KETAMA_HASH}). */
    static int word0(byte[] b, int off, int len) {
        int[] none = null;
        return run(b, off, len, none);
    }

    /** All four digest words, little-endian, into {@code out[0..4]}. */
    static void words(byte[] b, int off, int len, int[] out) {
        run(b, off, len, out);
    }

    /** The 16 digest bytes. */
    static byte[] digest(byte[] b, int off, int len) {
        int[] w = new int[4];
        run(b, off, len, w);
        byte[] d = new byte[16];
        for (int i = 0; i < 16; i++) {
            d[i] = (byte) (w[i >> 2] >>> (8 * (i & 3)));
        }
        return d;
    }

    /** Reads the little-endian word at padded-message position {@code p}. */
    private static int load(byte[] b, int off, int len, long bits, int padded, int p) {
        if (p + 4 <= len) {
            int q = off + p;
            return (b[q] & 0xff) | (b[q + 1] & 0xff) << 8 | (b[q + 2] & 0xff) << 16 | (b[q + 3] & 0xff) << 24;
        }
        int w = 0;
        for (int i = 0; i < 4; i++) {
            int q = p + i;
            int v;
            if (q < len) {
                v = b[off + q] & 0xff;
            } else if (q == len) {
                v = 0x80;
            } else if (q >= padded - 8) {
                v = (int) (bits >>> (8 * (q - (padded - 8)))) & 0xff;
            } else {
                v = 0;
            }
            w |= v << (8 * i);
        }
        return w;
    }

    private static int run(byte[] m, int off, int len, int[] out) {
        int blocks = (len + 8) / 64 + 1;
        int padded = blocks * 64;
        long bits = (long) len << 3;
        int a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
        for (int k = 0; k < blocks; k++) {
            int p = k * 64;
            int x0 = load(m, off, len, bits, padded, p), x1 = load(m, off, len, bits, padded, p + 4);
            int x2 = load(m, off, len, bits, padded, p + 8), x3 = load(m, off, len, bits, padded, p + 12);
            int x4 = load(m, off, len, bits, padded, p + 16), x5 = load(m, off, len, bits, padded, p + 20);
            int x6 = load(m, off, len, bits, padded, p + 24), x7 = load(m, off, len, bits, padded, p + 28);
            int x8 = load(m, off, len, bits, padded, p + 32), x9 = load(m, off, len, bits, padded, p + 36);
            int x10 = load(m, off, len, bits, padded, p + 40), x11 = load(m, off, len, bits, padded, p + 44);
            int x12 = load(m, off, len, bits, padded, p + 48), x13 = load(m, off, len, bits, padded, p + 52);
            int x14 = load(m, off, len, bits, padded, p + 56), x15 = load(m, off, len, bits, padded, p + 60);
            int a = a0, b = b0, c = c0, d = d0;
            a = f(a, b, c, d, x0, 7, 0xd76aa478); d = f(d, a, b, c, x1, 12, 0xe8c7b756);
            c = f(c, d, a, b, x2, 17, 0x242070db); b = f(b, c, d, a, x3, 22, 0xc1bdceee);
            a = f(a, b, c, d, x4, 7, 0xf57c0faf); d = f(d, a, b, c, x5, 12, 0x4787c62a);
            c = f(c, d, a, b, x6, 17, 0xa8304613); b = f(b, c, d, a, x7, 22, 0xfd469501);
            a = f(a, b, c, d, x8, 7, 0x698098d8); d = f(d, a, b, c, x9, 12, 0x8b44f7af);
            c = f(c, d, a, b, x10, 17, 0xffff5bb1); b = f(b, c, d, a, x11, 22, 0x895cd7be);
            a = f(a, b, c, d, x12, 7, 0x6b901122); d = f(d, a, b, c, x13, 12, 0xfd987193);
            c = f(c, d, a, b, x14, 17, 0xa679438e); b = f(b, c, d, a, x15, 22, 0x49b40821);

            a = g(a, b, c, d, x1, 5, 0xf61e2562); d = g(d, a, b, c, x6, 9, 0xc040b340);
            c = g(c, d, a, b, x11, 14, 0x265e5a51); b = g(b, c, d, a, x0, 20, 0xe9b6c7aa);
            a = g(a, b, c, d, x5, 5, 0xd62f105d); d = g(d, a, b, c, x10, 9, 0x02441453);
            c = g(c, d, a, b, x15, 14, 0xd8a1e681); b = g(b, c, d, a, x4, 20, 0xe7d3fbc8);
            a = g(a, b, c, d, x9, 5, 0x21e1cde6); d = g(d, a, b, c, x14, 9, 0xc33707d6);
            c = g(c, d, a, b, x3, 14, 0xf4d50d87); b = g(b, c, d, a, x8, 20, 0x455a14ed);
            a = g(a, b, c, d, x13, 5, 0xa9e3e905); d = g(d, a, b, c, x2, 9, 0xfcefa3f8);
            c = g(c, d, a, b, x7, 14, 0x676f02d9); b = g(b, c, d, a, x12, 20, 0x8d2a4c8a);

            a = h(a, b, c, d, x5, 4, 0xfffa3942); d = h(d, a, b, c, x8, 11, 0x8771f681);
            c = h(c, d, a, b, x11, 16, 0x6d9d6122); b = h(b, c, d, a, x14, 23, 0xfde5380c);
            a = h(a, b, c, d, x1, 4, 0xa4beea44); d = h(d, a, b, c, x4, 11, 0x4bdecfa9);
            c = h(c, d, a, b, x7, 16, 0xf6bb4b60); b = h(b, c, d, a, x10, 23, 0xbebfbc70);
            a = h(a, b, c, d, x13, 4, 0x289b7ec6); d = h(d, a, b, c, x0, 11, 0xeaa127fa);
            c = h(c, d, a, b, x3, 16, 0xd4ef3085); b = h(b, c, d, a, x6, 23, 0x04881d05);
            a = h(a, b, c, d, x9, 4, 0xd9d4d039); d = h(d, a, b, c, x12, 11, 0xe6db99e5);
            c = h(c, d, a, b, x15, 16, 0x1fa27cf8); b = h(b, c, d, a, x2, 23, 0xc4ac5665);

            a = i(a, b, c, d, x0, 6, 0xf4292244); d = i(d, a, b, c, x7, 10, 0x432aff97);
            c = i(c, d, a, b, x14, 15, 0xab9423a7); b = i(b, c, d, a, x5, 21, 0xfc93a039);
            a = i(a, b, c, d, x12, 6, 0x655b59c3); d = i(d, a, b, c, x3, 10, 0x8f0ccc92);
            c = i(c, d, a, b, x10, 15, 0xffeff47d); b = i(b, c, d, a, x1, 21, 0x85845dd1);
            a = i(a, b, c, d, x8, 6, 0x6fa87e4f); d = i(d, a, b, c, x15, 10, 0xfe2ce6e0);
            c = i(c, d, a, b, x6, 15, 0xa3014314); b = i(b, c, d, a, x13, 21, 0x4e0811a1);
            a = i(a, b, c, d, x4, 6, 0xf7537e82); d = i(d, a, b, c, x11, 10, 0xbd3af235);
            c = i(c, d, a, b, x2, 15, 0x2ad7d2bb); b = i(b, c, d, a, x9, 21, 0xeb86d391);
            a0 += a; b0 += b; c0 += c; d0 += d;
        }
        if (out != null) {
            out[0] = a0; out[1] = b0; out[2] = c0; out[3] = d0;
        }
        return a0;
    }

    private static int f(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + ((b & c) | (~b & d)) + x + t, s) + b;
    }

    private static int g(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + ((b & d) | (c & ~d)) + x + t, s) + b;
    }

    private static int h(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + (b ^ c ^ d) + x + t, s) + b;
    }

    private static int i(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + (c ^ (b | ~d)) + x + t, s) + b;
    }
}
