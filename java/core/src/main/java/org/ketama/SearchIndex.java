package org.ketama;

/**
 * The searches of a sorted continuum, through a prefix index: {@code starts[b]} is the first
 * point whose position's top bits are at least {@code b}, so a search reads one bucket of
 * about one or two points instead of halving the whole array (between a half and one bucket
 * per point: 2 to 4 bytes per point beside the 8 of position and owner).
 */
final class SearchIndex {
    private static final int MIN = Integer.MIN_VALUE;
    /** The most buckets: 2^22 (16 MiB of index at most). */
    private static final int MAX_BITS = 22;

    /** The positions as {@link Layout#biased} holds them (xor 2^31: signed order is unsigned order). */
    private final int[] v;
    private final int[] starts;
    /** {@code 32 - bits}: a position's bucket is its unsigned value {@code >>> shift}. */
    private final int shift;

    SearchIndex(int[] biased) {
        v = biased;
        int m = biased.length;
        int bits = Math.max(1, Math.min(MAX_BITS, 31 - Integer.numberOfLeadingZeros(Math.max(m, 1))));
        shift = 32 - bits;
        int buckets = 1 << bits;
        starts = new int[buckets + 1];
        int i = 0;
        for (int b = 0; b < buckets; b++) {
            while (i < m && ((v[i] ^ MIN) >>> shift) < b) {
                i++;
            }
            starts[b] = i;
        }
        starts[buckets] = m;
    }

    /** The first index whose position is {@code >=} the biased value {@code kb} (may be the length). */
    int lowerBound(int kb) {
        int b = (kb ^ MIN) >>> shift;
        int i = starts[b];
        int end = starts[b + 1];
        while (i < end && v[i] < kb) {
            i++;
        }
        return i;
    }

    /** The first index whose position is {@code >} the biased value {@code kb} (may be the length). */
    int upperBound(int kb) {
        int b = (kb ^ MIN) >>> shift;
        int i = starts[b];
        int end = starts[b + 1];
        while (i < end && v[i] <= kb) {
            i++;
        }
        return i;
    }
}
