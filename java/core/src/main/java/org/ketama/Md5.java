package org.ketama;

/**
 * MD5 (RFC 1321) over a byte range, giving the four state words: word {@code g} of the state
 * is the little-endian word {@code g} of the digest ({@code md5le(s, g)} in the client notes).
 * Allocates nothing. Each step adds the message word and constant to {@code a} before the
 * round function of the fresh {@code b}, so that one step waits on the previous one for three
 * operations only; {@link #word0Pair} runs two one-block messages side by side for the batch
 * lookups.
 */
final class Md5 {
    private Md5() {}

    /** The longest message that fits one block with its padding. */
    static final int ONE_BLOCK = 55;

    /** The first digest word, little-endian: ketama's key hash ({@code KETAMA_HASH}). */
    static int word0(byte[] b, int off, int len) {
        return run(b, off, len, null);
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

    private static int le32(byte[] b, int q) {
        return (b[q] & 0xff) | (b[q + 1] & 0xff) << 8 | (b[q + 2] & 0xff) << 16 | (b[q + 3] & 0xff) << 24;
    }

    /**
     * The little-endian word at position {@code p} of the padded message: message bytes, the
     * 0x80 byte, zeros, and the bit length in the last 8 bytes of the last block ({@code padded}
     * bytes in all).
     */
    private static int load(byte[] m, int off, int len, int p, int padded) {
        int n = len - p;
        if (n >= 4) {
            return le32(m, off + p);
        }
        if (p >= padded - 8) {
            return (int) (((long) len << 3) >>> (8 * (p - (padded - 8))));
        }
        if (n < 0) {
            return 0;
        }
        int v = 0x80 << (n << 3);
        for (int i = 0; i < n; i++) {
            v |= (m[off + p + i] & 0xff) << (i << 3);
        }
        return v;
    }

    private static int run(byte[] m, int off, int len, int[] out) {
        int blocks = (len + 8) / 64 + 1;
        int padded = blocks * 64;
        int a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
        for (int p = 0; p < padded; p += 64) {
            int x0 = load(m, off, len, p, padded), x1 = load(m, off, len, p + 4, padded);
            int x2 = load(m, off, len, p + 8, padded), x3 = load(m, off, len, p + 12, padded);
            int x4 = load(m, off, len, p + 16, padded), x5 = load(m, off, len, p + 20, padded);
            int x6 = load(m, off, len, p + 24, padded), x7 = load(m, off, len, p + 28, padded);
            int x8 = load(m, off, len, p + 32, padded), x9 = load(m, off, len, p + 36, padded);
            int x10 = load(m, off, len, p + 40, padded), x11 = load(m, off, len, p + 44, padded);
            int x12 = load(m, off, len, p + 48, padded), x13 = load(m, off, len, p + 52, padded);
            int x14 = load(m, off, len, p + 56, padded), x15 = load(m, off, len, p + 60, padded);
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

    /**
     * The first digest words of two messages of at most {@link #ONE_BLOCK} bytes each, hashed
     * side by side: the first message's in the low half, the second's in the high half.
     */
    static long word0Pair(byte[] m, int off, int len, byte[] n, int noff, int nlen) {
        int x0 = load(m, off, len, 0, 64), x1 = load(m, off, len, 4, 64), x2 = load(m, off, len, 8, 64);
        int x3 = load(m, off, len, 12, 64), x4 = load(m, off, len, 16, 64), x5 = load(m, off, len, 20, 64);
        int x6 = load(m, off, len, 24, 64), x7 = load(m, off, len, 28, 64), x8 = load(m, off, len, 32, 64);
        int x9 = load(m, off, len, 36, 64), x10 = load(m, off, len, 40, 64), x11 = load(m, off, len, 44, 64);
        int x12 = load(m, off, len, 48, 64), x13 = load(m, off, len, 52, 64), x14 = len << 3, x15 = 0;
        int y0 = load(n, noff, nlen, 0, 64), y1 = load(n, noff, nlen, 4, 64), y2 = load(n, noff, nlen, 8, 64);
        int y3 = load(n, noff, nlen, 12, 64), y4 = load(n, noff, nlen, 16, 64), y5 = load(n, noff, nlen, 20, 64);
        int y6 = load(n, noff, nlen, 24, 64), y7 = load(n, noff, nlen, 28, 64), y8 = load(n, noff, nlen, 32, 64);
        int y9 = load(n, noff, nlen, 36, 64), y10 = load(n, noff, nlen, 40, 64), y11 = load(n, noff, nlen, 44, 64);
        int y12 = load(n, noff, nlen, 48, 64), y13 = load(n, noff, nlen, 52, 64), y14 = nlen << 3, y15 = 0;
        int a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
        int a2 = a, b2 = b, c2 = c, d2 = d;
        a = f(a, b, c, d, x0, 7, 0xd76aa478); a2 = f(a2, b2, c2, d2, y0, 7, 0xd76aa478);
        d = f(d, a, b, c, x1, 12, 0xe8c7b756); d2 = f(d2, a2, b2, c2, y1, 12, 0xe8c7b756);
        c = f(c, d, a, b, x2, 17, 0x242070db); c2 = f(c2, d2, a2, b2, y2, 17, 0x242070db);
        b = f(b, c, d, a, x3, 22, 0xc1bdceee); b2 = f(b2, c2, d2, a2, y3, 22, 0xc1bdceee);
        a = f(a, b, c, d, x4, 7, 0xf57c0faf); a2 = f(a2, b2, c2, d2, y4, 7, 0xf57c0faf);
        d = f(d, a, b, c, x5, 12, 0x4787c62a); d2 = f(d2, a2, b2, c2, y5, 12, 0x4787c62a);
        c = f(c, d, a, b, x6, 17, 0xa8304613); c2 = f(c2, d2, a2, b2, y6, 17, 0xa8304613);
        b = f(b, c, d, a, x7, 22, 0xfd469501); b2 = f(b2, c2, d2, a2, y7, 22, 0xfd469501);
        a = f(a, b, c, d, x8, 7, 0x698098d8); a2 = f(a2, b2, c2, d2, y8, 7, 0x698098d8);
        d = f(d, a, b, c, x9, 12, 0x8b44f7af); d2 = f(d2, a2, b2, c2, y9, 12, 0x8b44f7af);
        c = f(c, d, a, b, x10, 17, 0xffff5bb1); c2 = f(c2, d2, a2, b2, y10, 17, 0xffff5bb1);
        b = f(b, c, d, a, x11, 22, 0x895cd7be); b2 = f(b2, c2, d2, a2, y11, 22, 0x895cd7be);
        a = f(a, b, c, d, x12, 7, 0x6b901122); a2 = f(a2, b2, c2, d2, y12, 7, 0x6b901122);
        d = f(d, a, b, c, x13, 12, 0xfd987193); d2 = f(d2, a2, b2, c2, y13, 12, 0xfd987193);
        c = f(c, d, a, b, x14, 17, 0xa679438e); c2 = f(c2, d2, a2, b2, y14, 17, 0xa679438e);
        b = f(b, c, d, a, x15, 22, 0x49b40821); b2 = f(b2, c2, d2, a2, y15, 22, 0x49b40821);
        a = g(a, b, c, d, x1, 5, 0xf61e2562); a2 = g(a2, b2, c2, d2, y1, 5, 0xf61e2562);
        d = g(d, a, b, c, x6, 9, 0xc040b340); d2 = g(d2, a2, b2, c2, y6, 9, 0xc040b340);
        c = g(c, d, a, b, x11, 14, 0x265e5a51); c2 = g(c2, d2, a2, b2, y11, 14, 0x265e5a51);
        b = g(b, c, d, a, x0, 20, 0xe9b6c7aa); b2 = g(b2, c2, d2, a2, y0, 20, 0xe9b6c7aa);
        a = g(a, b, c, d, x5, 5, 0xd62f105d); a2 = g(a2, b2, c2, d2, y5, 5, 0xd62f105d);
        d = g(d, a, b, c, x10, 9, 0x02441453); d2 = g(d2, a2, b2, c2, y10, 9, 0x02441453);
        c = g(c, d, a, b, x15, 14, 0xd8a1e681); c2 = g(c2, d2, a2, b2, y15, 14, 0xd8a1e681);
        b = g(b, c, d, a, x4, 20, 0xe7d3fbc8); b2 = g(b2, c2, d2, a2, y4, 20, 0xe7d3fbc8);
        a = g(a, b, c, d, x9, 5, 0x21e1cde6); a2 = g(a2, b2, c2, d2, y9, 5, 0x21e1cde6);
        d = g(d, a, b, c, x14, 9, 0xc33707d6); d2 = g(d2, a2, b2, c2, y14, 9, 0xc33707d6);
        c = g(c, d, a, b, x3, 14, 0xf4d50d87); c2 = g(c2, d2, a2, b2, y3, 14, 0xf4d50d87);
        b = g(b, c, d, a, x8, 20, 0x455a14ed); b2 = g(b2, c2, d2, a2, y8, 20, 0x455a14ed);
        a = g(a, b, c, d, x13, 5, 0xa9e3e905); a2 = g(a2, b2, c2, d2, y13, 5, 0xa9e3e905);
        d = g(d, a, b, c, x2, 9, 0xfcefa3f8); d2 = g(d2, a2, b2, c2, y2, 9, 0xfcefa3f8);
        c = g(c, d, a, b, x7, 14, 0x676f02d9); c2 = g(c2, d2, a2, b2, y7, 14, 0x676f02d9);
        b = g(b, c, d, a, x12, 20, 0x8d2a4c8a); b2 = g(b2, c2, d2, a2, y12, 20, 0x8d2a4c8a);
        a = h(a, b, c, d, x5, 4, 0xfffa3942); a2 = h(a2, b2, c2, d2, y5, 4, 0xfffa3942);
        d = h(d, a, b, c, x8, 11, 0x8771f681); d2 = h(d2, a2, b2, c2, y8, 11, 0x8771f681);
        c = h(c, d, a, b, x11, 16, 0x6d9d6122); c2 = h(c2, d2, a2, b2, y11, 16, 0x6d9d6122);
        b = h(b, c, d, a, x14, 23, 0xfde5380c); b2 = h(b2, c2, d2, a2, y14, 23, 0xfde5380c);
        a = h(a, b, c, d, x1, 4, 0xa4beea44); a2 = h(a2, b2, c2, d2, y1, 4, 0xa4beea44);
        d = h(d, a, b, c, x4, 11, 0x4bdecfa9); d2 = h(d2, a2, b2, c2, y4, 11, 0x4bdecfa9);
        c = h(c, d, a, b, x7, 16, 0xf6bb4b60); c2 = h(c2, d2, a2, b2, y7, 16, 0xf6bb4b60);
        b = h(b, c, d, a, x10, 23, 0xbebfbc70); b2 = h(b2, c2, d2, a2, y10, 23, 0xbebfbc70);
        a = h(a, b, c, d, x13, 4, 0x289b7ec6); a2 = h(a2, b2, c2, d2, y13, 4, 0x289b7ec6);
        d = h(d, a, b, c, x0, 11, 0xeaa127fa); d2 = h(d2, a2, b2, c2, y0, 11, 0xeaa127fa);
        c = h(c, d, a, b, x3, 16, 0xd4ef3085); c2 = h(c2, d2, a2, b2, y3, 16, 0xd4ef3085);
        b = h(b, c, d, a, x6, 23, 0x04881d05); b2 = h(b2, c2, d2, a2, y6, 23, 0x04881d05);
        a = h(a, b, c, d, x9, 4, 0xd9d4d039); a2 = h(a2, b2, c2, d2, y9, 4, 0xd9d4d039);
        d = h(d, a, b, c, x12, 11, 0xe6db99e5); d2 = h(d2, a2, b2, c2, y12, 11, 0xe6db99e5);
        c = h(c, d, a, b, x15, 16, 0x1fa27cf8); c2 = h(c2, d2, a2, b2, y15, 16, 0x1fa27cf8);
        b = h(b, c, d, a, x2, 23, 0xc4ac5665); b2 = h(b2, c2, d2, a2, y2, 23, 0xc4ac5665);
        a = i(a, b, c, d, x0, 6, 0xf4292244); a2 = i(a2, b2, c2, d2, y0, 6, 0xf4292244);
        d = i(d, a, b, c, x7, 10, 0x432aff97); d2 = i(d2, a2, b2, c2, y7, 10, 0x432aff97);
        c = i(c, d, a, b, x14, 15, 0xab9423a7); c2 = i(c2, d2, a2, b2, y14, 15, 0xab9423a7);
        b = i(b, c, d, a, x5, 21, 0xfc93a039); b2 = i(b2, c2, d2, a2, y5, 21, 0xfc93a039);
        a = i(a, b, c, d, x12, 6, 0x655b59c3); a2 = i(a2, b2, c2, d2, y12, 6, 0x655b59c3);
        d = i(d, a, b, c, x3, 10, 0x8f0ccc92); d2 = i(d2, a2, b2, c2, y3, 10, 0x8f0ccc92);
        c = i(c, d, a, b, x10, 15, 0xffeff47d); c2 = i(c2, d2, a2, b2, y10, 15, 0xffeff47d);
        b = i(b, c, d, a, x1, 21, 0x85845dd1); b2 = i(b2, c2, d2, a2, y1, 21, 0x85845dd1);
        a = i(a, b, c, d, x8, 6, 0x6fa87e4f); a2 = i(a2, b2, c2, d2, y8, 6, 0x6fa87e4f);
        d = i(d, a, b, c, x15, 10, 0xfe2ce6e0); d2 = i(d2, a2, b2, c2, y15, 10, 0xfe2ce6e0);
        c = i(c, d, a, b, x6, 15, 0xa3014314); c2 = i(c2, d2, a2, b2, y6, 15, 0xa3014314);
        b = i(b, c, d, a, x13, 21, 0x4e0811a1); b2 = i(b2, c2, d2, a2, y13, 21, 0x4e0811a1);
        a = i(a, b, c, d, x4, 6, 0xf7537e82); a2 = i(a2, b2, c2, d2, y4, 6, 0xf7537e82);
        d = i(d, a, b, c, x11, 10, 0xbd3af235); d2 = i(d2, a2, b2, c2, y11, 10, 0xbd3af235);
        c = i(c, d, a, b, x2, 15, 0x2ad7d2bb); c2 = i(c2, d2, a2, b2, y2, 15, 0x2ad7d2bb);
        b = i(b, c, d, a, x9, 21, 0xeb86d391); b2 = i(b2, c2, d2, a2, y9, 21, 0xeb86d391);
        return (a + 0x67452301 & 0xFFFFFFFFL) | (long) (a2 + 0x67452301) << 32;
    }

    private static int f(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + (x + t) + (d ^ (b & (c ^ d))), s) + b;
    }

    private static int g(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + (x + t) + (c ^ (d & (b ^ c))), s) + b;
    }

    private static int h(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + (x + t) + (b ^ (c ^ d)), s) + b;
    }

    private static int i(int a, int b, int c, int d, int x, int s, int t) {
        return Integer.rotateLeft(a + (x + t) + (c ^ (b | ~d)), s) + b;
    }
}
