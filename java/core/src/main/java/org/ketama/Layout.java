package org.ketama;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The data a ring's lookups read, built once from the profile and the servers: sorted points
 * and owners (with tie runs, 128-bit positions or pecl's bucket table where the client has
 * them), modulo slots, furc weights or a Maglev table.
 */
final class Layout {
    static final int MIN = Integer.MIN_VALUE;
    /** pecl memcache's bucket spacing ({@code 0xFFFFFFFF / 1024}) and count. */
    static final int PECL_STEP = (int) (0xFFFFFFFFL / 1024);
    static final int PECL_BUCKETS = 1024;

    /**
     * Continuum positions as core stores them ({@code p ^ 2^31} on signed-order rings), each
     * xor 2^31 so that Java's signed comparison is the unsigned order; ascending, the tie
     * rule's winner first among equal positions.
     */
    int[] biased = new int[0];
    /** Server index owning each position. */
    int[] owners = new int[0];
    /** The searches of {@link #biased}. */
    SearchIndex index = new SearchIndex(biased);
    /** 128-bit positions (uhashring), high and low halves; null elsewhere. */
    long[] wideHi;
    long[] wideLo;
    /** xmemcached tie runs: first index of each run of equal positions, and its owner. */
    int[] runStart;
    int[] runOwner;
    /** pecl memcache's table: owner per bucket. */
    int[] buckets;
    /** Modulo slots: server indexes in the client's order, cumulative weights when weighted. */
    int[] ordered;
    long[] cumulative;
    /** WeightedCh3: each weight divided by the largest; null for CH3. */
    double[] furcWeights;
    /** Maglev lookup table. */
    int[] maglev;
    /** Scored rendezvous: the key hash of each node string alone (emcache ties). */
    int[] nodeHashes;
    /** Mixed rendezvous (go-redis): the ring hash's 64 bits of each node string. */
    long[] nodeHashes64;
    /** Cache::Memcached::Fast's compatible continuum: one point per server, ascending, and its owners. */
    int[] scaledPoints;
    int[] scaledOwners;
    /** The sum of the weights, as that client keeps it (a double). */
    double scaledTotal;

    /** One point before sorting. */
    private static final class Point {
        final int value;
        final long hi;
        final long lo;
        final int owner;

        Point(int value, long hi, long lo, int owner) {
            this.value = value;
            this.hi = hi;
            this.lo = lo;
            this.owner = owner;
        }
    }

    /** Collects generated points: sort keys for 32-bit rings, objects for 128-bit ones. */
    private static final class Sink {
        final boolean wide;
        final Profile.Ties ties;
        final int[] rank;
        long[] keys;
        int n;
        final List<Point> points = new ArrayList<>();

        Sink(boolean wide, Profile.Ties ties, int[] rank, long capacity) {
            this.wide = wide;
            this.ties = ties;
            this.rank = rank;
            this.keys = new long[wide ? 0 : (int) Math.min(capacity, Integer.MAX_VALUE - 8)];
        }

        int tie(int owner) {
            int r = rank[owner];
            return ties == Profile.Ties.LATER_WINS ? -1 - r : r;
        }

        void push(int value, int owner) {
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, Math.max(16, keys.length * 2));
            }
            keys[n++] = ((long) (value ^ MIN) << 32) | (tie(owner) & 0xFFFFFFFFL);
        }

        void pushWide(long hi, long lo, int owner) {
            points.add(new Point((int) (hi >>> 32), hi, lo, owner));
        }
    }

    static Layout build(Profile p, HashFn hash, Entry[] entries) {
        Layout l = new Layout();
        int n = entries.length;
        switch (p.shape) {
            case SLOTS: {
                Integer[] idx = new Integer[n];
                for (int i = 0; i < n; i++) {
                    idx[i] = i;
                }
                Arrays.sort(idx, Comparator.comparingInt(i -> entries[i].rank));
                l.ordered = new int[n];
                long sum = 0;
                l.cumulative = p.weighted ? new long[n] : null;
                for (int i = 0; i < n; i++) {
                    l.ordered[i] = idx[i];
                    if (p.weighted) {
                        sum += entries[idx[i]].weight;
                        l.cumulative[i] = sum;
                    }
                }
                return l;
            }
            case FURC: {
                if (p.weighted) {
                    long max = 0;
                    for (Entry e : entries) {
                        max = Math.max(max, e.weight);
                    }
                    l.furcWeights = new double[n];
                    for (int i = 0; i < n; i++) {
                        l.furcWeights[i] = max == 0 ? 0.0 : (double) entries[i].weight / (double) max;
                    }
                }
                return l;
            }
            case JUMP:
            case JUMP_XXH3:
            case RENDEZVOUS:
                return l;
            case MIXED: {
                l.nodeHashes64 = new long[n];
                for (int i = 0; i < n; i++) {
                    l.nodeHashes64[i] = hash.apply64(entries[i].nodeBytes, 0, entries[i].nodeBytes.length);
                }
                return l;
            }
            case SCALED:
                Scaled.build(l, entries);
                return l;
            case SCORED: {
                // emcache settles equal scores by the hash of each node string alone
                l.nodeHashes = new int[n];
                for (int i = 0; i < n; i++) {
                    l.nodeHashes[i] = hash.apply(entries[i].nodeBytes, 0, entries[i].nodeBytes.length);
                }
                return l;
            }
            case MAGLEV: {
                long[] nodeHashes = new long[n];
                for (int i = 0; i < n; i++) {
                    nodeHashes[i] = entries[i].seed;
                }
                l.maglev = Alt.maglev(nodeHashes);
                return l;
            }
            default:
                break;
        }
        long[] weights = new long[n];
        for (int i = 0; i < n; i++) {
            weights[i] = entries[i].weight;
        }
        long[] counts = Counts.targets(p, weights);
        long total = 0;
        for (long c : counts) {
            total += c * Counts.perString(p);
        }
        int[] rank = new int[n];
        for (int i = 0; i < n; i++) {
            rank[i] = entries[i].rank;
        }
        boolean wide = p.shape == Profile.Shape.WIDE || p.shape == Profile.Shape.WIDE64;
        Sink sink = new Sink(wide, p.ties, rank, total + 8);
        for (int i = 0; i < n; i++) {
            generate(p, hash, entries[i], i, counts[i], sink);
        }
        if (wide) {
            List<Point> pts = sink.points;
            pts.sort((a, b) -> {
                int c = Long.compareUnsigned(a.hi, b.hi);
                if (c == 0) {
                    c = Long.compareUnsigned(a.lo, b.lo);
                }
                if (c == 0) {
                    c = Integer.compareUnsigned(sink.tie(a.owner), sink.tie(b.owner));
                }
                return c;
            });
            int m = pts.size();
            l.biased = new int[m];
            l.owners = new int[m];
            l.wideHi = new long[m];
            l.wideLo = new long[m];
            for (int i = 0; i < m; i++) {
                Point q = pts.get(i);
                l.biased[i] = q.value ^ MIN;
                l.owners[i] = q.owner;
                l.wideHi[i] = q.hi;
                l.wideLo[i] = q.lo;
            }
        } else {
            long[] keys = Arrays.copyOf(sink.keys, sink.n);
            Arrays.sort(keys);
            int[] byRank = new int[n];
            for (int i = 0; i < n; i++) {
                byRank[rank[i]] = i;
            }
            int m = keys.length;
            l.biased = new int[m];
            l.owners = new int[m];
            for (int i = 0; i < m; i++) {
                l.biased[i] = (int) (keys[i] >>> 32);
                int tie = (int) keys[i];
                int r = p.ties == Profile.Ties.LATER_WINS ? -1 - tie : tie;
                l.owners[i] = byRank[r];
            }
        }
        l.index = new SearchIndex(l.biased);
        if (p.shape == Profile.Shape.BUCKETS) {
            l.buckets = peclTable(l, p.bound);
        } else if (p.shape == Profile.Shape.TIE_RUNS) {
            tieRuns(l, entries);
        }
        return l;
    }

    /** pecl's table: bucket b is the owner of the position {@code b * PECL_STEP} lands on by {@code bound}. */
    private static int[] peclTable(Layout l, Profile.Bound bound) {
        int len = l.biased.length;
        if (len == 0) {
            return new int[0];
        }
        int[] t = new int[PECL_BUCKETS];
        for (int b = 0; b < PECL_BUCKETS; b++) {
            t[b] = l.owners[l.bucketStart(bound, b)];
        }
        return t;
    }

    /** The continuum index bucket {@code b}'s position lands on by {@code bound} (wrapping). */
    int bucketStart(Profile.Bound bound, int b) {
        int kb = (b * PECL_STEP) ^ MIN;
        switch (bound) {
            case LOWER_BOUND:
                return index.lowerBound(kb) % biased.length;
            case UPPER_BOUND:
                return index.upperBound(kb) % biased.length;
            default:
                throw new IllegalStateException("a bucket table is filled by a lower or upper bound, not " + bound);
        }
    }

    /** xmemcached: a run's owner is {@code list[position % len]} of its servers sorted by node string. */
    private static void tieRuns(Layout l, Entry[] entries) {
        int[] v = l.biased;
        List<int[]> runs = new ArrayList<>();
        int i = 0;
        while (i < v.length) {
            int j = i + 1;
            while (j < v.length && v[j] == v[i]) {
                j++;
            }
            if (j - i > 1) {
                Integer[] members = new Integer[j - i];
                for (int k = i; k < j; k++) {
                    members[k - i] = l.owners[k];
                }
                Arrays.sort(members, (a, b) -> entries[a].node.compareTo(entries[b].node));
                long pos = (v[i] ^ MIN) & 0xFFFFFFFFL;
                runs.add(new int[] {i, members[(int) (pos % members.length)]});
            }
            i = j;
        }
        l.runStart = new int[runs.size()];
        l.runOwner = new int[runs.size()];
        for (int k = 0; k < runs.size(); k++) {
            l.runStart[k] = runs.get(k)[0];
            l.runOwner[k] = runs.get(k)[1];
        }
    }

    /** The owner of position {@code p}, which may start a run of equal positions. */
    int ownerAt(int p) {
        if (runStart != null && p + 1 < biased.length && biased[p + 1] == biased[p]) {
            int r = Arrays.binarySearch(runStart, p);
            if (r >= 0) {
                return runOwner[r];
            }
        }
        return owners[p];
    }

    // ----- point generation -----

    /** The bytes of point string {@code i} of {@code node}. */
    static byte[] spell(Profile.Strings form, byte[] node, long i) {
        byte[] digits = Long.toString(i).getBytes(StandardCharsets.US_ASCII);
        switch (form) {
            case BARE:
                return node;
            case PREFIX: {
                byte[] s = Arrays.copyOf(digits, digits.length + node.length);
                System.arraycopy(node, 0, s, digits.length, node.length);
                return s;
            }
            case DASH_NODE:
                return join(node, NODE_INFIX, digits);
            case STAR:
                return join(node, STAR_INFIX, digits);
            case CONCAT: {
                byte[] s = Arrays.copyOf(node, node.length + digits.length);
                System.arraycopy(digits, 0, s, node.length, digits.length);
                return s;
            }
            default: {
                byte[] s = Arrays.copyOf(node, node.length + 1 + digits.length);
                s[node.length] = (byte) (form == Profile.Strings.COLON ? ':' : '-');
                System.arraycopy(digits, 0, s, node.length + 1, digits.length);
                return s;
            }
        }
    }

    private static final byte[] NODE_INFIX = "-NODE-".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] STAR_INFIX = {'*'};

    private static byte[] join(byte[] a, byte[] b, byte[] c) {
        byte[] s = Arrays.copyOf(a, a.length + b.length + c.length);
        System.arraycopy(b, 0, s, a.length, b.length);
        System.arraycopy(c, 0, s, a.length + b.length, c.length);
        return s;
    }

    /** The sign flip of 64-bit positions on signed-order rings (Jedis's {@code TreeMap<Long>}). */
    static long flip64(Profile.Bound bound) {
        return bound == Profile.Bound.LOWER_BOUND_SIGNED ? Long.MIN_VALUE : 0;
    }

    /** The position of point string {@code i}, {@code s}, on the rings whose strings hash to one each. */
    private static int pointOf(Profile.Points points, HashFn hash, byte[] s, long i) {
        switch (points) {
            case SHA1_WORD:
                return HashFn.sha1FirstWord(s, 0, s.length);
            case XXH3_WORD:
                return (int) Xxh3.hash64(s, 0, s.length);
            case MD5_WORD_BE:
                return Integer.reverseBytes(Md5.word0(s, 0, s.length));
            case FNV1A_FIRST_ZERO:
                // Enyim's one hasher: string 0 from the state 0, every later one from the basis
                return i == 0 ? HashFn.FNV1A_32_ZERO.apply(s, 0, s.length) : HashFn.FNV1A_32_UNSIGNED.apply(s, 0, s.length);
            default:
                return hash.apply(s, 0, s.length);
        }
    }

    private static void generate(Profile p, HashFn hash, Entry e, int owner, long count, Sink out) {
        byte[] node = e.nodeBytes;
        switch (p.points) {
            case CRC32_CHAIN: {
                int prev = 0;
                for (long i = 0; i < count; i++) {
                    prev = Crc.crc32aWithLe32(node, 0, node.length, prev);
                    out.push(prev, owner);
                }
                return;
            }
            case KEY_HASH64: {
                // 64-bit positions in the order the bound compares, in the top half of a wide one
                long flip = flip64(p.bound);
                for (long i = 0; i < count; i++) {
                    byte[] s = spell(p.strings, node, i);
                    out.pushWide(hash.apply64(s, 0, s.length) ^ flip, 0, owner);
                }
                return;
            }
            case MURMUR3_CHAIN: {
                int flip = p.bound == Profile.Bound.LOWER_BOUND_SIGNED ? MIN : 0;
                int v = Bits.murmur3(node, 0, node.length, 0);
                byte[] le = new byte[4];
                for (long i = 0; i < count; i++) {
                    if (i > 0) {
                        for (int k = 0; k < 4; k++) {
                            le[k] = (byte) (v >>> (8 * k));
                        }
                        v = Bits.murmur3(le, 0, 4, 0);
                    }
                    out.push(v ^ flip, owner);
                }
                return;
            }
            default:
                break;
        }
        int[] w = new int[4];
        if (p.points == Profile.Points.MD5_WORDS || (p.points == Profile.Points.JAVA_KETAMA && hash == HashFn.MD5)) {
            int per = p.points == Profile.Points.MD5_WORDS ? p.per : 4;
            long strings = p.points == Profile.Points.MD5_WORDS ? count : (count + 3) / 4;
            for (long i = 0; i < strings; i++) {
                byte[] s = spell(p.strings, node, i);
                Md5.words(s, 0, s.length, w);
                for (int g = 0; g < per; g++) {
                    out.push(w[g], owner);
                }
            }
            return;
        }
        if (p.points == Profile.Points.MD5_WIDE) {
            for (long i = 0; i < count; i++) {
                byte[] s = spell(p.strings, node, i);
                Md5.words(s, 0, s.length, w);
                long hi = (Integer.reverseBytes(w[0]) & 0xFFFFFFFFL) << 32 | (Integer.reverseBytes(w[1]) & 0xFFFFFFFFL);
                long lo = (Integer.reverseBytes(w[2]) & 0xFFFFFFFFL) << 32 | (Integer.reverseBytes(w[3]) & 0xFFFFFFFFL);
                if (out.wide) {
                    out.pushWide(hi, lo, owner);
                } else {
                    out.push((int) (hi >>> 32), owner);
                }
            }
            return;
        }
        for (long i = 0; i < count; i++) {
            byte[] s = spell(p.strings, node, i);
            out.push(pointOf(p.points, hash, s, i), owner);
        }
    }
}
