package org.ketama;

import java.math.BigInteger;

/** How many point strings each server gets: the profile's count rule and weight formula. */
final class Counts {
    private Counts() {}

    /** The most points one continuum may hold: 2^23. */
    static final long MAX_POINTS = 1L << 23;
    private static final long U32_MAX = 0xFFFFFFFFL;

    /** The weight as the profile counts it (weight 0 as 1 or as 100 where the client does so). */
    static long effectiveWeight(Profile p, long w) {
        if (w != 0) {
            return w;
        }
        switch (p.zeroWeight) {
            case AS_ONE:
                return 1;
            case AS_HUNDRED:
                return 100;
            default:
                return 0;
        }
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
                case PER_WEIGHT_INT: {
                    // k * w as a Java int: wrapping, and a negative product gives none
                    int product = (int) p.countStrings * (int) w;
                    t = Math.max(product, 0);
                    break;
                }
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
            case PREDIS:
                return clamp(phpRound((double) w / (double) total * (double) n * 128.0));
            case PREDIS_KETAMA:
                return clamp(Math.floor((double) w / (double) total * (double) n * 40.0));
            case FINAGLE: {
                // Java ints: the weight and the total as int (the total wrapping)
                int t = (int) total;
                if (t == 0) {
                    return 0;
                }
                return clamp((double) (int) w / (double) t * (double) n * 40.0 + 1e-10);
            }
            default:
                throw new IllegalStateException(f.toString());
        }
    }

    /**
     * PHP's {@code round($x)} as PHP 8.0 to 8.3 compute it for a non-negative finite
     * {@code x}: when {@code x} has a place to spare below 10^15 it is first rounded to 15
     * significant digits ({@code x * 10^p} rounded half up, divided back), then rounded half
     * up to an integer.
     */
    static double phpRound(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x) || x <= 0.0) {
            return 0.0;
        }
        int places = 14 - phpIntLog10(x);
        double pre;
        if (places > 0 && places < 15) {
            double f = pow10(places);
            pre = Math.floor(x * f + 0.5) / f;
        } else if (x >= 1e15) {
            return x;
        } else {
            pre = x;
        }
        return Math.floor(pre + 0.5);
    }

    /** {@code floor(log10(x))} as PHP finds it: by comparing with powers of ten from 10^-8 to 10^23. */
    private static int phpIntLog10(double x) {
        int e = -8;
        while (e < 23 && pow10(e + 1) <= x) {
            e++;
        }
        return e;
    }

    /** 10^e as the nearest double (exact for 0 <= e <= 22). */
    private static double pow10(int e) {
        double p = 1.0;
        for (int i = 0; i < Math.abs(e); i++) {
            p *= 10.0;
        }
        return e < 0 ? 1.0 / p : p;
    }
}
