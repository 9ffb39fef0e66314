package org.ketama;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The placement of one prepared key on a built {@link Layout}: the continuum searched by the
 * profile's bound (tie runs, the 128-bit ring, PHP's floor), the modulo slots, jump, furc,
 * rendezvous and Maglev. Immutable; one per ring.
 */
final class Lookup {
    private static final int MIN = Integer.MIN_VALUE;

    private final Profile profile;
    private final HashFn hash;
    private final Entry[] entries;
    private final Layout layout;

    Lookup(Profile profile, HashFn hash, Entry[] entries, Layout layout) {
        this.profile = profile;
        this.hash = hash;
        this.entries = entries;
        this.layout = layout;
    }

    /** The server index of a key already prepared by the profile's key rules. */
    int locatePrepared(byte[] k) {
        switch (profile.shape) {
            case FURC:
                return furc(k);
            case WIDE: {
                int[] w = new int[4];
                Md5.words(k, 0, k.length, w);
                return layout.ownerAt(wideUpper(w));
            }
            case WIDE64:
                return layout.owners[wide64Position(k)];
            case MIXED:
                return mixedBest(hash.apply64(k, 0, k.length), Collections.emptyList());
            case SCALED:
                return Scaled.locate(layout, Keys.hash(hash, k));
            case SORTED:
            case TIE_RUNS:
                return layout.ownerAt(position(Keys.hash(hash, k)));
            case BUCKETS:
                if (layout.buckets.length == 0) {
                    throw new NoServerException();
                }
                return layout.buckets[Keys.hash(hash, k) & (Layout.PECL_BUCKETS - 1)];
            case SLOTS:
                return slot(k);
            case JUMP:
                return Alt.jump(Keys.hash(hash, k) & 0xFFFFFFFFL, entries.length);
            case RENDEZVOUS:
                return rendezvous(Keys.hash(hash, k), Collections.emptyList());
            case MAGLEV:
                return layout.maglev[(int) ((Keys.hash(hash, k) & 0xFFFFFFFFL) % Alt.MAGLEV_SIZE)];
            case JUMP_XXH3:
                return Alt.jump(Xxh3.hash64(k, 0, k.length), entries.length);
            case SCORED:
                return scoredBest(k, Collections.emptyList());
            default:
                throw new IllegalStateException("layout " + profile.shape);
        }
    }

    /** The server a key hash {@code h} is placed on, as the key's own hash is (rehash failover). */
    int locateHash(int h) {
        switch (profile.shape) {
            case SORTED:
            case TIE_RUNS:
                return layout.ownerAt(position(h));
            case BUCKETS:
                if (layout.buckets.length == 0) {
                    throw new NoServerException();
                }
                return layout.buckets[h & (Layout.PECL_BUCKETS - 1)];
            case SLOTS:
                if (!profile.oldCompat) {
                    return slotOfHash(h);
                }
                break;
            case JUMP:
                return Alt.jump(h & 0xFFFFFFFFL, entries.length);
            case RENDEZVOUS:
                return rendezvous(h, Collections.emptyList());
            case MAGLEV:
                return layout.maglev[(int) ((h & 0xFFFFFFFFL) % Alt.MAGLEV_SIZE)];
            case SCALED:
                return Scaled.locate(layout, h);
            default:
                break;
        }
        throw new NeedsKeyException(String.valueOf(profile.placement));
    }

    /**
     * pymemcache / emcache rendezvous: the server (not in {@code skip}) whose node string
     * joined with the prepared key hashes highest; equal scores go to the greater node string
     * ({@code greater_node}) or the greater hash of the node string, then the earlier server.
     */
    int scoredBest(byte[] k, List<Integer> skip) {
        int best = -1;
        long bestScore = 0;
        for (int i = 0; i < entries.length; i++) {
            if (skip.contains(i)) {
                continue;
            }
            byte[] node = entries[i].nodeBytes;
            byte[] j;
            if (profile.join == Profile.Join.NODE_DASH_KEY) {
                j = Arrays.copyOf(node, node.length + 1 + k.length);
                j[node.length] = '-';
                System.arraycopy(k, 0, j, node.length + 1, k.length);
            } else {
                j = Arrays.copyOf(k, k.length + node.length);
                System.arraycopy(node, 0, j, k.length, node.length);
            }
            long s = hash.apply(j, 0, j.length) & 0xFFFFFFFFL;
            boolean take;
            if (best < 0 || s != bestScore) {
                take = best < 0 || s > bestScore;
            } else if (profile.scoreTies == Profile.ScoreTies.GREATER_NODE) {
                take = Arrays.compareUnsigned(node, entries[best].nodeBytes) > 0;
            } else {
                take = Integer.compareUnsigned(layout.nodeHashes[i], layout.nodeHashes[best]) > 0;
            }
            if (take) {
                best = i;
                bestScore = s;
            }
        }
        if (best < 0) {
            throw new NoServerException();
        }
        return best;
    }

    private int furc(byte[] k) {
        int n = entries.length;
        if (n > Furc.MAX_POOL) {
            throw new TooManyServersException(n + " servers");
        }
        if (layout.furcWeights == null) {
            return Furc.furcHash(k, 0, k.length, n);
        }
        int i = Furc.weightedCh3(k, 0, k.length, layout.furcWeights);
        if (i < 0) {
            throw new NoServerException();
        }
        return i;
    }

    /**
     * go-redis: the server (not in {@code skip}) with the greatest unsigned
     * {@code mix(keyHash ^ nodeHash)}; an equal score keeps the earlier server.
     */
    int mixedBest(long keyHash, List<Integer> skip) {
        long[] nodes = layout.nodeHashes64;
        int best = -1;
        long bestScore = 0;
        for (int i = 0; i < nodes.length; i++) {
            if (skip.contains(i)) {
                continue;
            }
            long s = mix(keyHash ^ nodes[i]);
            if (best < 0 || Long.compareUnsigned(s, bestScore) > 0) {
                best = i;
                bestScore = s;
            }
        }
        if (best < 0) {
            throw new NoServerException();
        }
        return best;
    }

    /** go-rendezvous's {@code xorshiftMult64}. */
    static long mix(long x) {
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        return x * 2685821657736338717L;
    }

    private int slot(byte[] k) {
        if (profile.oldCompat) {
            long h = Utf16.oldCompat(Utf16.decode(k, 0, k.length));
            return slotOf(h < 0 ? -h : h); // |Long.MIN_VALUE| is 2^63 read unsigned
        }
        return slotOfHash(Keys.hash(hash, k));
    }

    /** The modulo slot of a 32-bit key hash (phpredis: its proportional range). */
    private int slotOfHash(int h32) {
        if (profile.placement == Profile.Placement.PROPORTIONAL) {
            // (h * n) / (2^32 - 1): 2^32 - 1 lands past the last server, which the client
            // reads out of bounds
            int[] ordered = layout.ordered;
            long at = (h32 & 0xFFFFFFFFL) * ordered.length / 0xFFFFFFFFL;
            if (at >= ordered.length) {
                throw new NoServerException();
            }
            return ordered[(int) at];
        }
        long v;
        if (profile.placement == Profile.Placement.JAVA_ABS_MODULO) {
            long h = h32;
            v = h < 0 ? -h : h;
        } else {
            v = h32 & 0xFFFFFFFFL;
        }
        return slotOf(v);
    }

    private int slotOf(long v) {
        if (profile.high15) {
            v = (v >>> 16) & 0x7fff;
            if (v == 0) {
                v = 1;
            }
        }
        int at;
        if (profile.weighted) {
            long[] cum = layout.cumulative;
            long total = cum.length == 0 ? 0 : cum[cum.length - 1];
            if (total == 0) {
                throw new NoServerException();
            }
            long s = Long.remainderUnsigned(v, total);
            int lo = 0, hi = cum.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cum[mid] <= s) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            at = lo;
        } else {
            at = (int) Long.remainderUnsigned(v, layout.ordered.length);
        }
        if (at >= layout.ordered.length) {
            throw new NoServerException();
        }
        return layout.ordered[at];
    }

    /** The continuum position a 32-bit key hash lands on, by the profile's bound. */
    private int position(int h) {
        int[] v = layout.biased;
        int len = v.length;
        if (len == 0) {
            throw new NoServerException();
        }
        switch (profile.bound) {
            case LOWER_BOUND_SIGNED:
                return wrap(layout.index.lowerBound(h), len);
            case UPPER_BOUND:
                return wrap(layout.index.upperBound(h ^ MIN), len);
            case LOWER_BOUND_ZERO_LAST:
                return h == 0 ? firstOfRun(len - 1) : wrap(layout.index.lowerBound(h ^ MIN), len);
            case FLOOR: {
                int p = layout.index.upperBound(h ^ MIN);
                if (p != 0) {
                    return firstOfRun(p - 1);
                }
                // PHP reads $serverList[count - 1]: a server only if some point equals it.
                int probe = distinctPositions() - 1;
                int q = layout.index.lowerBound(probe ^ MIN);
                if (q < len && v[q] == (probe ^ MIN)) {
                    return q;
                }
                throw new NoServerException();
            }
            case FLOOR_WRAP: {
                int p = layout.index.upperBound(h ^ MIN);
                return firstOfRun(p == 0 ? len - 1 : p - 1);
            }
            case UPPER_BOUND_CLAMP: {
                int p = layout.index.upperBound(h ^ MIN);
                return p == len ? firstOfRun(len - 1) : p;
            }
            case LOWER_BOUND_BELOW_LAST: {
                int p = layout.index.lowerBound(h ^ MIN);
                return p == 0 && v[0] != (h ^ MIN) ? firstOfRun(len - 1) : wrap(p, len);
            }
            default:
                return wrap(layout.index.lowerBound(h ^ MIN), len);
        }
    }

    private static int wrap(int p, int len) {
        return p == len ? 0 : p;
    }

    /** The first position of the run of equal positions that holds position {@code p}. */
    int firstOfRun(int p) {
        int[] v = layout.biased;
        while (p > 0 && v[p - 1] == v[p]) {
            p--;
        }
        return p;
    }

    private int distinctPositions() {
        int[] v = layout.biased;
        int d = v.length == 0 ? 0 : 1;
        for (int i = 1; i < v.length; i++) {
            if (v[i] != v[i - 1]) {
                d++;
            }
        }
        return d;
    }

    /** uhashring: the first 128-bit position greater than the key's digest, wrapping. */
    private int wideUpper(int[] w) {
        long hi = (Integer.reverseBytes(w[0]) & 0xFFFFFFFFL) << 32 | (Integer.reverseBytes(w[1]) & 0xFFFFFFFFL);
        long lo = (Integer.reverseBytes(w[2]) & 0xFFFFFFFFL) << 32 | (Integer.reverseBytes(w[3]) & 0xFFFFFFFFL);
        long[] H = layout.wideHi, L = layout.wideLo;
        int a = 0, b = H.length;
        while (a < b) {
            int mid = (a + b) >>> 1;
            int c = Long.compareUnsigned(H[mid], hi);
            if (c == 0) {
                c = Long.compareUnsigned(L[mid], lo);
            }
            if (c <= 0) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        if (H.length == 0) {
            throw new NoServerException();
        }
        return wrap(a, H.length);
    }

    /**
     * Jedis: the first 64-bit position {@code >=} the key's 64-bit hash in the bound's order,
     * wrapping; a 32-bit hash alone cannot place a key there.
     */
    private int wide64Position(byte[] k) {
        long[] H = layout.wideHi;
        if (H.length == 0) {
            throw new NoServerException();
        }
        long key = hash.apply64(k, 0, k.length) ^ Layout.flip64(profile.bound);
        int a = 0, b = H.length;
        while (a < b) {
            int mid = (a + b) >>> 1;
            if (Long.compareUnsigned(H[mid], key) < 0) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        return wrap(a, H.length);
    }

    /** Weighted rendezvous: the server (not in {@code skip}) scoring highest for key hash {@code h}. */
    int rendezvous(int h, List<Integer> skip) {
        double best = Double.NEGATIVE_INFINITY;
        int at = -1;
        for (int i = 0; i < entries.length; i++) {
            if (skip.contains(i)) {
                continue;
            }
            double s = Alt.score(entries[i].seed, entries[i].weight, h);
            if (s > Double.NEGATIVE_INFINITY && (at < 0 || s > best)) {
                best = s;
                at = i;
            }
        }
        if (at < 0) {
            throw new NoServerException();
        }
        return at;
    }

    /** The start of a walk for the key (already prepared) on a continuum. */
    int walkStart(byte[] k) {
        if (profile.shape == Profile.Shape.BUCKETS) {
            return layout.bucketStart(profile.bound, Keys.hash(hash, k) & (Layout.PECL_BUCKETS - 1));
        }
        if (profile.shape == Profile.Shape.WIDE64) {
            return wide64Position(k);
        }
        if (layout.wideHi != null) {
            int[] w = new int[4];
            Md5.words(k, 0, k.length, w);
            return wideUpper(w);
        }
        return position(Keys.hash(hash, k));
    }
}
