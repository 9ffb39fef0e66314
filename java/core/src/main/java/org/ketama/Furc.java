package org.ketama;

import java.util.Arrays;

/** mcrouter's CH3 ({@code furc_hash}) and WeightedCh3. */
final class Furc {
    private Furc() {}

    /** MurmurHash64A seed furc uses. */
    static final int SEED = (int) 4193360111L;
    /** Bits between the tree levels of one try; pools hold at most 2^SHIFT servers. */
    static final int SHIFT = 23;
    static final int MAX_TRIES = 32;
    /** The largest pool mcrouter accepts: 2^23. */
    static final int MAX_POOL = 1 << SHIFT;
    private static final int CACHE_WORDS = 384;
    /** Seed of WeightedCh3's SpookyHash draw. */
    static final int WCH3_SEED = 0xface2014;
    static final int WCH3_TRIES = 32;

    /** MurmurHash64A ({@link Hash64#murmur64a}) with a 32-bit seed widened. */
    static long murmur64a(byte[] key, int off, int len, int seed) {
        return Hash64.murmur64a(key, off, len, seed & 0xFFFFFFFFL);
    }

    private static long murmurOfWord(long w) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (w >>> (8 * i));
        }
        return murmur64a(b, 0, 8, SEED);
    }

    /** {@code furc_hash(key, m)}: a server index in {@code 0..m} (0 when {@code m <= 1}). */
    static int furcHash(byte[] key, int off, int len, int m) {
        if (m <= 1) {
            return 0;
        }
        long[] words = new long[CACHE_WORDS];
        int[] filled = {0};
        int d = 32 - Integer.numberOfLeadingZeros(m - 1);
        int a = d;
        for (int t = 0; t < MAX_TRIES; t++) {
            while (!bit(key, off, len, words, filled, a)) {
                d--;
                if (d == 0) {
                    return 0;
                }
                a = d;
            }
            a += SHIFT;
            long num = 1;
            for (int i = 0; i < d - 1; i++) {
                num = (num << 1) | (bit(key, off, len, words, filled, a) ? 1 : 0);
                a += SHIFT;
            }
            if (num < (m & 0xFFFFFFFFL)) {
                return (int) num;
            }
        }
        return 0;
    }

    private static boolean bit(byte[] key, int off, int len, long[] words, int[] filled, int idx) {
        int ord = Math.min(idx >>> 6, CACHE_WORDS - 1);
        while (filled[0] <= ord) {
            int f = filled[0];
            words[f] = f == 0 ? murmur64a(key, off, len, SEED) : murmurOfWord(words[f - 1]);
            filled[0] = f + 1;
        }
        return ((words[ord] >>> (idx & 63)) & 1) == 1;
    }

    /**
     * WeightedCh3: the chosen index, or -1 when {@code weights} is empty, too long, or holds a
     * weight outside [0, 1].
     */
    static int weightedCh3(byte[] key, int off, int len, double[] weights) {
        int n = weights.length;
        if (n == 0 || n > MAX_POOL) {
            return -1;
        }
        for (double w : weights) {
            if (!(w >= 0.0 && w <= 1.0)) {
                return -1;
            }
        }
        byte[] buf = Arrays.copyOf(Arrays.copyOfRange(key, off, off + len), len + 20);
        int used = len;
        int index = 0;
        for (int salt = 0; salt < WCH3_TRIES; salt++) {
            index = furcHash(buf, 0, used, n);
            long p = Spooky.hash32(buf, 0, used, WCH3_SEED) & 0xFFFFFFFFL;
            long w = (long) (weights[index] * 4294967295.0);
            if (p < w) {
                return index;
            }
            used = len;
            int s = salt;
            do {
                buf[used++] = (byte) ('0' + s % 10);
                s /= 10;
            } while (s != 0);
        }
        return index;
    }
}
