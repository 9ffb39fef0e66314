package org.ketama;

/** Placements beyond the ring: jump consistent hash, rendezvous scores, the Maglev table. */
final class Alt {
    private Alt() {}

    /** Lamping and Veach jump consistent hash: a bucket in {@code 0..buckets} (0 when none). */
    static int jump(long key, int buckets) {
        long b = -1;
        long j = 0;
        while (j < buckets) {
            b = j;
            key = key * 2862933555777941757L + 1;
            double r = (double) ((key >>> 33) + 1);
            j = (long) ((b + 1) * ((double) (1L << 31) / r));
        }
        return (int) Math.max(b, 0);
    }

    /** SplitMix64's finaliser. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static final double LN_2 = 0.6931471805599453;

    /**
     * Natural logarithm for x in (0, 1] by a fixed series (x = m 2^e, ln m = 2 atanh((m-1)/(m+1)),
     * 20 terms), the same operations core performs, so scores agree to the bit.
     */
    static double ln(double x) {
        long bits = Double.doubleToRawLongBits(x);
        long e = ((bits >>> 52) & 0x7ff) - 1023;
        double m = Double.longBitsToDouble((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L);
        double t = (m - 1.0) / (m + 1.0);
        double t2 = t * t;
        double term = t;
        double sum = 0.0;
        double k = 1.0;
        for (int i = 0; i < 20; i++) {
            sum += term / k;
            term *= t2;
            k += 2.0;
        }
        return 2.0 * sum + (double) e * LN_2;
    }

    /** A server's rendezvous score (its node hash and weight) for a key hash; the highest wins. */
    static double score(long nodeHash, long weight, int keyHash) {
        if (weight == 0) {
            return Double.NEGATIVE_INFINITY;
        }
        long h = mix64(nodeHash ^ mix64(keyHash & 0xFFFFFFFFL));
        double u = ((double) (h >>> 11) + 0.5) / (double) (1L << 53);
        return -(double) weight / ln(u);
    }

    /** The Maglev table size, a prime. */
    static final int MAGLEV_SIZE = 65537;

    /** The Maglev lookup table from each server's 64-bit node hash (entry = server index). */
    static int[] maglev(long[] nodeHashes) {
        if (nodeHashes.length == 0) {
            return new int[0];
        }
        long m = MAGLEV_SIZE;
        int n = nodeHashes.length;
        long[] offset = new long[n];
        long[] skip = new long[n];
        for (int i = 0; i < n; i++) {
            offset[i] = (nodeHashes[i] >>> 32) % m;
            skip[i] = (nodeHashes[i] & 0xFFFFFFFFL) % (m - 1) + 1;
        }
        long[] next = new long[n];
        int[] entry = new int[MAGLEV_SIZE];
        java.util.Arrays.fill(entry, -1);
        int filled = 0;
        while (filled < MAGLEV_SIZE) {
            for (int i = 0; i < n; i++) {
                long c = (offset[i] + next[i] * skip[i]) % m;
                while (entry[(int) c] != -1) {
                    next[i]++;
                    c = (offset[i] + next[i] * skip[i]) % m;
                }
                entry[(int) c] = i;
                next[i]++;
                filled++;
                if (filled == MAGLEV_SIZE) {
                    break;
                }
            }
        }
        return entry;
    }
}
