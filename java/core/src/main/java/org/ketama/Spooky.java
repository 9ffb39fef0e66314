package org.ketama;

/** SpookyHash V2 (Bob Jenkins), as folly computes it: 128-bit, with 64- and 32-bit cuts. */
final class Spooky {
    private Spooky() {}

    private static final long SC_CONST = 0xdeadbeefdeadbeefL;
    private static final int NUM_VARS = 12;
    private static final int BLOCK_SIZE = NUM_VARS * 8;
    private static final int BUF_SIZE = 2 * BLOCK_SIZE;

    private static long word(byte[] b, int q) {
        long w = 0;
        for (int i = 7; i >= 0; i--) {
            w = (w << 8) | (b[q + i] & 0xff);
        }
        return w;
    }

    /** Little-endian value of the {@code n} (0..8) bytes at {@code q}. */
    private static long part(byte[] b, int q, int n) {
        long w = 0;
        for (int i = n - 1; i >= 0; i--) {
            w = (w << 8) | (b[q + i] & 0xff);
        }
        return w;
    }

    private static final int[][] SHORT_MIX = {
        {2, 3, 0, 50}, {3, 0, 1, 52}, {0, 1, 2, 30}, {1, 2, 3, 41}, {2, 3, 0, 54}, {3, 0, 1, 48},
        {0, 1, 2, 38}, {1, 2, 3, 37}, {2, 3, 0, 62}, {3, 0, 1, 34}, {0, 1, 2, 5}, {1, 2, 3, 36},
    };
    private static final int[][] SHORT_END = {
        {3, 2, 15}, {0, 3, 52}, {1, 0, 26}, {2, 1, 51}, {3, 2, 28}, {0, 3, 9}, {1, 0, 47},
        {2, 1, 54}, {3, 2, 32}, {0, 3, 25}, {1, 0, 63},
    };
    private static final int[] MIX_ROT = {11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46};
    private static final int[] END_ROT = {44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54};

    private static void shortMix(long[] h) {
        for (int[] r : SHORT_MIX) {
            h[r[0]] = Long.rotateLeft(h[r[0]], r[3]);
            h[r[0]] += h[r[1]];
            h[r[2]] ^= h[r[0]];
        }
    }

    private static void shortEnd(long[] h) {
        for (int[] r : SHORT_END) {
            h[r[0]] ^= h[r[1]];
            h[r[1]] = Long.rotateLeft(h[r[1]], r[2]);
            h[r[0]] += h[r[1]];
        }
    }

    private static long shortHash(byte[] m, int off, int len, long seed1, long seed2) {
        long[] h = {seed1, seed2, SC_CONST, SC_CONST};
        int q = off;
        int rest = len;
        if (len > 15) {
            while (rest >= 32) {
                h[2] += word(m, q);
                h[3] += word(m, q + 8);
                shortMix(h);
                h[0] += word(m, q + 16);
                h[1] += word(m, q + 24);
                q += 32;
                rest -= 32;
            }
            if (rest >= 16) {
                h[2] += word(m, q);
                h[3] += word(m, q + 8);
                shortMix(h);
                q += 16;
                rest -= 16;
            }
        }
        h[3] += (long) len << 56;
        if (rest >= 8) {
            h[3] += part(m, q + 8, rest - 8);
            h[2] += word(m, q);
        } else if (rest > 0) {
            h[2] += part(m, q, rest);
        } else {
            h[2] += SC_CONST;
            h[3] += SC_CONST;
        }
        shortEnd(h);
        return h[0];
    }

    private static void mix(byte[] data, int q, long[] s) {
        for (int i = 0; i < NUM_VARS; i++) {
            s[i] += word(data, q + 8 * i);
            s[(i + 2) % NUM_VARS] ^= s[(i + 10) % NUM_VARS];
            s[(i + 11) % NUM_VARS] ^= s[i];
            s[i] = Long.rotateLeft(s[i], MIX_ROT[i]);
            s[(i + 11) % NUM_VARS] += s[(i + 1) % NUM_VARS];
        }
    }

    private static void endPartial(long[] h) {
        for (int i = 0; i < NUM_VARS; i++) {
            int a = (i + 11) % NUM_VARS, b = (i + 1) % NUM_VARS, c = (i + 2) % NUM_VARS;
            h[a] += h[b];
            h[c] ^= h[a];
            h[b] = Long.rotateLeft(h[b], END_ROT[i]);
        }
    }

    /** The first word of the 128-bit hash with seeds {@code seed1, seed2}. */
    static long hash128First(byte[] m, int off, int len, long seed1, long seed2) {
        if (len < BUF_SIZE) {
            return shortHash(m, off, len, seed1, seed2);
        }
        long[] h = new long[NUM_VARS];
        for (int i = 0; i < NUM_VARS; i++) {
            h[i] = i % 3 == 0 ? seed1 : i % 3 == 1 ? seed2 : SC_CONST;
        }
        int q = off;
        int rest = len;
        while (rest >= BLOCK_SIZE) {
            mix(m, q, h);
            q += BLOCK_SIZE;
            rest -= BLOCK_SIZE;
        }
        byte[] last = new byte[BLOCK_SIZE];
        System.arraycopy(m, q, last, 0, rest);
        last[BLOCK_SIZE - 1] = (byte) rest;
        for (int i = 0; i < NUM_VARS; i++) {
            h[i] += word(last, 8 * i);
        }
        endPartial(h);
        endPartial(h);
        endPartial(h);
        return h[0];
    }

    /** {@code Hash32(message, seed)}: the low 32 bits of the 128-bit hash, both seeds {@code seed}. */
    static int hash32(byte[] m, int off, int len, int seed) {
        long s = seed & 0xFFFFFFFFL;
        return (int) hash128First(m, off, len, s, s);
    }
}
