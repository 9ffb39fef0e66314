package org.ketama;

import java.math.BigInteger;

/** How many point strings each server gets: the profile's count rule and weight formula. */
final class Counts {
    private Counts() {}

    /** The most points one continuum may hold: 2^23. */
    static final long MAX_POINTS = 1L << 23;
    private static final long U32_MAX = 0xFFFFFFFFL;

    /** The weight as the profile counts it (weight 0 as 1 where the client does so). */
    static long effectiveWeight(Profile p, long w) {
        return w == 0 && p.zeroWeight == Profile.ZeroWeight.AS_ONE ? 1 : w;
    }

    /** Positions one point string yields (md5 words per digest; else one). */
    static long perString(Profile p) {
        return p.points == Profile.Points.MD5_WORDS ? p.per : 1;
    }

    /** Strings per server (by index); throws {@link TooManyPointsException} past the limit. */
    static long[] targets(Profile p, long[] weights) {
        int n = weights.length;
        long[] out = new long[n];
        if (!p.isRing) {
            return out;
        }
        long total = 0;
        for (long w : weights) {
            total += effectiveWeight(p, w);
        }
        long points = 0;
        for (int i = 0; i < n; i++) {
            long w = effectiveWeight(p, weights[i]);
            long t;
            switch (p.countKind) {
                case FIXED:
                    t = p.countStrings;
                    break;
                case PER_WEIGHT:
                    t = w != 0 && p.countStrings > U32_MAX / w ? U32_MAX : Math.min(p.countStrings * w, U32_MAX);
                    break;
                default:
                    t = w == 0 ? 0 : digests(p.formula, w, total, n);
                    break;
            }
            out[i] = t;
            points += t * perString(p);
            if (points > MAX_POINTS) {
                throw new TooManyPointsException();
            }
        }
        return out;
    }

    private static long clamp(double x) {
        if (!Double.isNaN(x) && !Double.isInfinite(x) && x > 0.0) {
            return (long) Math.min(x, (double) U32_MAX);
        }
        return 0;
    }

    /** Digests (strings) for a server of weight {@code w} among {@code n} totalling {@code total}. */
    static long digests(Profile.Formula f, long w, long total, int n) {
        if (total == 0) {
            return 0;
        }
        switch (f) {
            case LIBKETAMA: {
                float p = (float) w / (float) total;
                double x = (double) p * 40.0 * (double) (float) n;
                return clamp(Math.floor((float) x));
            }
            case LIBMEMCACHED: {
                float p = (float) w / (float) total;
                float a = p * 160.0f;
                float b = a / 4.0f;
                float c = b * (float) n;
                return clamp(Math.floor(c + 0.0000000001f));
            }
            case NODE_HASHRING:
                return clamp(Math.floor((double) w / (double) total * 40.0 * (double) n));
            case INTEGER_DIV: {
                BigInteger d = BigInteger.valueOf(40L * n).multiply(BigInteger.valueOf(w)).divide(BigInteger.valueOf(total));
                return d.min(BigInteger.valueOf(U32_MAX)).longValue();
            }
            case WHALIN: {
                int prod = (int) w * (int) (40L * n);
                int t = (int) total;
                if (t == 0) {
                    return 0;
                }
                return clamp(Math.floor((double) prod / (double) t));
            }
            case DALLI: {
                double prod = BigInteger.valueOf(160L * n).multiply(BigInteger.valueOf(w)).doubleValue();
                return clamp(Math.floor(prod / (double) total));
            }
            default:
                throw new IllegalStateException(f.toString());
        }
    }
}
