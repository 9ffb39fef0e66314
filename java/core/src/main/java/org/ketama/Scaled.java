package org.ketama;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Cache::Memcached::Fast's Cache::Memcached-compatible continuum ({@code ketama_points => 0}):
 * one point per server, each server's share of {@code [0, 2^32 - 1]} proportional to its
 * weight, and a key's 15-bit hash scaled onto it (with the client's double rounding).
 */
final class Scaled {
    private Scaled() {}

    /** The continuum's top, where each new server's point goes. */
    private static final long MAX_POINT = 0xFFFFFFFFL;

    /**
     * The points of {@code entries}, added in the client's order: the total grows by the new
     * weight {@code w}, every earlier point {@code p} becomes {@code (u32)(p - (double)p * (w / total))},
     * and the new server's point is {@code 2^32 - 1}.
     */
    static void build(Layout l, Entry[] entries) {
        int n = entries.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt(i -> entries[i].rank));
        long[] points = new long[n];
        int[] owners = new int[n];
        double total = 0.0;
        for (int k = 0; k < n; k++) {
            double w = (double) entries[order[k]].weight;
            total += w;
            double scale = w / total;
            for (int j = 0; j < k; j++) {
                double x = (double) points[j];
                points[j] = cToU32(x - x * scale);
            }
            points[k] = MAX_POINT;
            owners[k] = order[k];
        }
        l.scaledPoints = new int[n];
        for (int k = 0; k < n; k++) {
            l.scaledPoints[k] = (int) points[k];
        }
        l.scaledOwners = owners;
        l.scaledTotal = total;
    }

    /**
     * The entry index for a key's hash {@code h}: {@code b = h % (u32)(total + 0.5)}, its point
     * {@code (u32)((double)b / total * 4294967295.0 + 0.5) + 1} (wrapping), and the first server
     * point {@code >=} it, wrapping to the first.
     */
    static int locate(Layout l, int h) {
        long buckets = cToU32(l.scaledTotal + 0.5);
        int[] points = l.scaledPoints;
        if (buckets == 0 || points.length == 0) {
            throw new NoServerException();
        }
        long b = (h & 0xFFFFFFFFL) % buckets;
        int point = (int) (cToU32((double) b / l.scaledTotal * (double) MAX_POINT + 0.5) + 1);
        int lo = 0, hi = points.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Integer.compareUnsigned(points[mid], point) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return l.scaledOwners[lo == points.length ? 0 : lo];
    }

    /**
     * A non-negative double converted to {@code unsigned int} as x86-64 C compilers do it
     * (through a 64-bit integer, keeping its low 32 bits); NaN and negatives give 0.
     */
    static long cToU32(double x) {
        if (Double.isNaN(x) || x <= 0.0) {
            return 0;
        }
        return (long) x & 0xFFFFFFFFL;
    }
}
