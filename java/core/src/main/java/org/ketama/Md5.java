package org.ketama;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MD5 (RFC 1321) over a byte range, giving the four state words: word {@code g} of the state
 * is the little-endian word {@code g} of the digest ({@code md5le(s, g)} in the client notes).
 * Allocates nothing. Each step adds the message word and constant to {@code a} before the
 * round function of the fresh {@code b}, so that one step waits on the previous one for three
 * operations only ({@link Md5Lanes} hashes many messages at once for the batch lookups).
 */
final class Md5 {
    private Md5() {}

    /**
     * The steps' constants. Read from a table, not written as literals: the JIT moves a literal
     * to the end of a sum, which would put its addition after the round function, on the
     * chain each step waits for.
     */
    static final int[] K = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391
    };

    /** The initial state words. */
    static final int A0 = 0x67452301;
    static final int B0 = 0xefcdab89;
    static final int C0 = 0x98badcfe;
    static final int D0 = 0x10325476;

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

    /** Little-endian 32-bit reads of a byte array: one load each, not four. */
    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    static int le32(byte[] b, int q) {
        return (int) LE32.get(b, q);
    }

    /**
     * The little-endian word at position {@code p} of the padded message: message bytes, the
     * 0x80 byte, zeros, and the bit length in the last 8 bytes of the last block ({@code padded}
     * bytes in all).
     */
    static int load(byte[] m, int off, int len, int p, int padded) {
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
        int a0 = A0, b0 = B0, c0 = C0, d0 = D0;
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
            a = f(a, b, c, d, x0, 7, K[0]); d = f(d, a, b, c, x1, 12, K[1]);
            c = f(c, d, a, b, x2, 17, K[2]); b = f(b, c, d, a, x3, 22, K[3]);
            a = f(a, b, c, d, x4, 7, K[4]); d = f(d, a, b, c, x5, 12, K[5]);
            c = f(c, d, a, b, x6, 17, K[6]); b = f(b, c, d, a, x7, 22, K[7]);
            a = f(a, b, c, d, x8, 7, K[8]); d = f(d, a, b, c, x9, 12, K[9]);
            c = f(c, d, a, b, x10, 17, K[10]); b = f(b, c, d, a, x11, 22, K[11]);
            a = f(a, b, c, d, x12, 7, K[12]); d = f(d, a, b, c, x13, 12, K[13]);
            c = f(c, d, a, b, x14, 17, K[14]); b = f(b, c, d, a, x15, 22, K[15]);
            a = g(a, b, c, d, x1, 5, K[16]); d = g(d, a, b, c, x6, 9, K[17]);
            c = g(c, d, a, b, x11, 14, K[18]); b = g(b, c, d, a, x0, 20, K[19]);
            a = g(a, b, c, d, x5, 5, K[20]); d = g(d, a, b, c, x10, 9, K[21]);
            c = g(c, d, a, b, x15, 14, K[22]); b = g(b, c, d, a, x4, 20, K[23]);
            a = g(a, b, c, d, x9, 5, K[24]); d = g(d, a, b, c, x14, 9, K[25]);
            c = g(c, d, a, b, x3, 14, K[26]); b = g(b, c, d, a, x8, 20, K[27]);
            a = g(a, b, c, d, x13, 5, K[28]); d = g(d, a, b, c, x2, 9, K[29]);
            c = g(c, d, a, b, x7, 14, K[30]); b = g(b, c, d, a, x12, 20, K[31]);
            a = h(a, b, c, d, x5, 4, K[32]); d = h(d, a, b, c, x8, 11, K[33]);
            c = h(c, d, a, b, x11, 16, K[34]); b = h(b, c, d, a, x14, 23, K[35]);
            a = h(a, b, c, d, x1, 4, K[36]); d = h(d, a, b, c, x4, 11, K[37]);
            c = h(c, d, a, b, x7, 16, K[38]); b = h(b, c, d, a, x10, 23, K[39]);
            a = h(a, b, c, d, x13, 4, K[40]); d = h(d, a, b, c, x0, 11, K[41]);
            c = h(c, d, a, b, x3, 16, K[42]); b = h(b, c, d, a, x6, 23, K[43]);
            a = h(a, b, c, d, x9, 4, K[44]); d = h(d, a, b, c, x12, 11, K[45]);
            c = h(c, d, a, b, x15, 16, K[46]); b = h(b, c, d, a, x2, 23, K[47]);
            a = i(a, b, c, d, x0, 6, K[48]); d = i(d, a, b, c, x7, 10, K[49]);
            c = i(c, d, a, b, x14, 15, K[50]); b = i(b, c, d, a, x5, 21, K[51]);
            a = i(a, b, c, d, x12, 6, K[52]); d = i(d, a, b, c, x3, 10, K[53]);
            c = i(c, d, a, b, x10, 15, K[54]); b = i(b, c, d, a, x1, 21, K[55]);
            a = i(a, b, c, d, x8, 6, K[56]); d = i(d, a, b, c, x15, 10, K[57]);
            c = i(c, d, a, b, x6, 15, K[58]); b = i(b, c, d, a, x13, 21, K[59]);
            a = i(a, b, c, d, x4, 6, K[60]); d = i(d, a, b, c, x11, 10, K[61]);
            c = i(c, d, a, b, x2, 15, K[62]); b = i(b, c, d, a, x9, 21, K[63]);
            a0 += a; b0 += b; c0 += c; d0 += d;
        }
        if (out != null) {
            out[0] = a0; out[1] = b0; out[2] = c0; out[3] = d0;
        }
        return a0;
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
