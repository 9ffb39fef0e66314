package org.ketama;

import java.util.Arrays;

/**
 * MD5 of up to {@link #LANES} one-block messages at once, for the batch lookups: the state and
 * message words are held across the messages (column {@code j} is message {@code j}), and
 * each step is one loop over the messages, which the JIT compiles to SIMD instructions where
 * the CPU has them (AVX2: 8 messages per instruction). Each message's first digest word
 * equals {@link Md5#word0}'s. Not thread-safe: one per batch call.
 */
final class Md5Lanes {
    /** Messages per run. */
    static final int LANES = 128;

    private final int[] a = new int[LANES];
    private final int[] b = new int[LANES];
    private final int[] c = new int[LANES];
    private final int[] d = new int[LANES];
    /** {@code x[w][j]}: word {@code w} of message {@code j}'s padded block. */
    private final int[][] x = new int[16][LANES];

    /** Message {@code j}: {@code len} (at most {@link Md5#ONE_BLOCK}) bytes at {@code off}. */
    void set(int j, byte[] m, int off, int len) {
        int full = len >>> 2;
        for (int w = 0; w < full; w++) {
            x[w][j] = Md5.le32(m, off + 4 * w);
        }
        // the 0..3 bytes left, then the 0x80 byte
        int rest = len & 3;
        int v = 0x80 << (rest << 3);
        for (int i = 0; i < rest; i++) {
            v |= (m[off + 4 * full + i] & 0xff) << (i << 3);
        }
        x[full][j] = v;
        for (int w = full + 1; w < 14; w++) {
            x[w][j] = 0;
        }
        x[14][j] = len << 3;
        x[15][j] = 0;
    }

    /** Hashes messages {@code 0..n}. */
    void run(int n) {
        int[] K = Md5.K;
        Arrays.fill(a, 0, n, Md5.A0);
        Arrays.fill(b, 0, n, Md5.B0);
        Arrays.fill(c, 0, n, Md5.C0);
        Arrays.fill(d, 0, n, Md5.D0);
        f(a, b, c, d, x[0], K[0], 7, n); f(d, a, b, c, x[1], K[1], 12, n);
        f(c, d, a, b, x[2], K[2], 17, n); f(b, c, d, a, x[3], K[3], 22, n);
        f(a, b, c, d, x[4], K[4], 7, n); f(d, a, b, c, x[5], K[5], 12, n);
        f(c, d, a, b, x[6], K[6], 17, n); f(b, c, d, a, x[7], K[7], 22, n);
        f(a, b, c, d, x[8], K[8], 7, n); f(d, a, b, c, x[9], K[9], 12, n);
        f(c, d, a, b, x[10], K[10], 17, n); f(b, c, d, a, x[11], K[11], 22, n);
        f(a, b, c, d, x[12], K[12], 7, n); f(d, a, b, c, x[13], K[13], 12, n);
        f(c, d, a, b, x[14], K[14], 17, n); f(b, c, d, a, x[15], K[15], 22, n);
        g(a, b, c, d, x[1], K[16], 5, n); g(d, a, b, c, x[6], K[17], 9, n);
        g(c, d, a, b, x[11], K[18], 14, n); g(b, c, d, a, x[0], K[19], 20, n);
        g(a, b, c, d, x[5], K[20], 5, n); g(d, a, b, c, x[10], K[21], 9, n);
        g(c, d, a, b, x[15], K[22], 14, n); g(b, c, d, a, x[4], K[23], 20, n);
        g(a, b, c, d, x[9], K[24], 5, n); g(d, a, b, c, x[14], K[25], 9, n);
        g(c, d, a, b, x[3], K[26], 14, n); g(b, c, d, a, x[8], K[27], 20, n);
        g(a, b, c, d, x[13], K[28], 5, n); g(d, a, b, c, x[2], K[29], 9, n);
        g(c, d, a, b, x[7], K[30], 14, n); g(b, c, d, a, x[12], K[31], 20, n);
        h(a, b, c, d, x[5], K[32], 4, n); h(d, a, b, c, x[8], K[33], 11, n);
        h(c, d, a, b, x[11], K[34], 16, n); h(b, c, d, a, x[14], K[35], 23, n);
        h(a, b, c, d, x[1], K[36], 4, n); h(d, a, b, c, x[4], K[37], 11, n);
        h(c, d, a, b, x[7], K[38], 16, n); h(b, c, d, a, x[10], K[39], 23, n);
        h(a, b, c, d, x[13], K[40], 4, n); h(d, a, b, c, x[0], K[41], 11, n);
        h(c, d, a, b, x[3], K[42], 16, n); h(b, c, d, a, x[6], K[43], 23, n);
        h(a, b, c, d, x[9], K[44], 4, n); h(d, a, b, c, x[12], K[45], 11, n);
        h(c, d, a, b, x[15], K[46], 16, n); h(b, c, d, a, x[2], K[47], 23, n);
        i(a, b, c, d, x[0], K[48], 6, n); i(d, a, b, c, x[7], K[49], 10, n);
        i(c, d, a, b, x[14], K[50], 15, n); i(b, c, d, a, x[5], K[51], 21, n);
        i(a, b, c, d, x[12], K[52], 6, n); i(d, a, b, c, x[3], K[53], 10, n);
        i(c, d, a, b, x[10], K[54], 15, n); i(b, c, d, a, x[1], K[55], 21, n);
        i(a, b, c, d, x[8], K[56], 6, n); i(d, a, b, c, x[15], K[57], 10, n);
        i(c, d, a, b, x[6], K[58], 15, n); i(b, c, d, a, x[13], K[59], 21, n);
        i(a, b, c, d, x[4], K[60], 6, n); i(d, a, b, c, x[11], K[61], 10, n);
        i(c, d, a, b, x[2], K[62], 15, n); i(b, c, d, a, x[9], K[63], 21, n);
    }

    /** The first digest word of message {@code j} (after {@link #run}). */
    int word0(int j) {
        return a[j] + Md5.A0;
    }

    private static void f(int[] a, int[] b, int[] c, int[] d, int[] x, int k, int s, int n) {
        for (int j = 0; j < n; j++) {
            int bj = b[j];
            int dj = d[j];
            int v = a[j] + x[j] + k + (dj ^ (bj & (c[j] ^ dj)));
            a[j] = ((v << s) | (v >>> (32 - s))) + bj;
        }
    }

    private static void g(int[] a, int[] b, int[] c, int[] d, int[] x, int k, int s, int n) {
        for (int j = 0; j < n; j++) {
            int bj = b[j];
            int cj = c[j];
            int v = a[j] + x[j] + k + (cj ^ (d[j] & (bj ^ cj)));
            a[j] = ((v << s) | (v >>> (32 - s))) + bj;
        }
    }

    private static void h(int[] a, int[] b, int[] c, int[] d, int[] x, int k, int s, int n) {
        for (int j = 0; j < n; j++) {
            int bj = b[j];
            int v = a[j] + x[j] + k + (bj ^ c[j] ^ d[j]);
            a[j] = ((v << s) | (v >>> (32 - s))) + bj;
        }
    }

    private static void i(int[] a, int[] b, int[] c, int[] d, int[] x, int k, int s, int n) {
        for (int j = 0; j < n; j++) {
            int bj = b[j];
            int v = a[j] + x[j] + k + (c[j] ^ (bj | ~d[j]));
            a[j] = ((v << s) | (v >>> (32 - s))) + bj;
        }
    }
}
