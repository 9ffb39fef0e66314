package org.ketama;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A consistent-hashing ring (or a modulo, jump, furc, rendezvous or Maglev table) that places
 * keys exactly as one client does: a profile of the embedded spec, a key hash, and servers.
 *
 * <p>Rings are immutable and safe to share between threads without locking. Lookups on the
 * {@code byte[]} overloads allocate nothing on 32-bit rings whose hash reads bytes and whose
 * client does not rewrite keys (the ketama profiles); the Java clients' UTF-16 hashes decode
 * the key first.
 *
 * <pre>{@code
 * Ring ring = Ring.create("libmemcached-weighted", null,
 *     List.of(new Server("10.0.0.1:11211", 1), new Server("10.0.0.2:11211", 1)));
 * String server = ring.get("user:42");
 * }</pre>
 */
public final class Ring {
    private static final int MIN = Integer.MIN_VALUE;

    private final Profile profile;
    private final HashFn hash;
    private final Entry[] entries;
    private final String[] labels;
    private final List<Server> servers;
    private final Layout layout;

    private Ring(Profile profile, HashFn hash, Entry[] entries, Layout layout) {
        this.profile = profile;
        this.hash = hash;
        this.entries = entries;
        this.layout = layout;
        this.labels = new String[entries.length];
        List<Server> s = new ArrayList<>(entries.length);
        for (int i = 0; i < entries.length; i++) {
            labels[i] = entries[i].server.label();
            s.add(entries[i].server);
        }
        this.servers = Collections.unmodifiableList(s);
    }

    /**
     * Builds the ring of {@code profile} (a name or alias of the spec) over {@code servers} in
     * their order, hashing keys with {@code hash} (a spec hash name or a client's own name;
     * {@code null}: the profile's default).
     *
     * @throws UnknownProfileException no profile has this name
     * @throws UnknownHashException no hash has this name
     * @throws AmbiguousHashException {@code crc32} for a profile that does not resolve it
     * @throws BadLabelException a label that does not parse
     * @throws BadWeightException a weight outside 0..2^32-1, or 0 where the client refuses it
     * @throws DuplicateServerException two servers naming one endpoint
     * @throws UnsupportedException a server the profile cannot place (e.g. a host name for xmemcached-nginx)
     * @throws TooManyPointsException more than 2^23 points
     */
    public static Ring create(String profile, String hash, List<Server> servers) {
        Spec spec = Spec.get();
        Profile p = spec.profile(profile);
        HashFn h = hash == null ? p.defaultHash : p.hashFromName(spec, hash);
        Entry[] entries = new Entry[servers.size()];
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.length; i++) {
            Server s = servers.get(i);
            if (s == null) {
                throw new NullPointerException("server " + i);
            }
            Address a = Address.parse(s.label());
            long w = s.weight();
            if (w < 0 || w > 0xFFFFFFFFL || (w == 0 && p.zeroWeight == Profile.ZeroWeight.REJECT)) {
                throw KetamaException.of("BadWeight", s.label() + " weight " + w);
            }
            if (!seen.add(a.endpointKey())) {
                throw KetamaException.of("DuplicateServer", s.label());
            }
            entries[i] = new Entry(p, s, a);
        }
        rank(p, entries);
        return new Ring(p, h, entries, Layout.build(p, h, entries));
    }

    private static void rank(Profile p, Entry[] entries) {
        Integer[] idx = new Integer[entries.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        if (p.order == Profile.Order.NODE_LENGTH_THEN_BYTES) {
            Arrays.sort(idx, (a, b) -> {
                byte[] x = entries[a].nodeBytes, y = entries[b].nodeBytes;
                int c = Integer.compare(x.length, y.length);
                if (c == 0) {
                    c = Arrays.compareUnsigned(x, y);
                }
                return c != 0 ? c : Integer.compare(a, b);
            });
        }
        for (int r = 0; r < idx.length; r++) {
            entries[idx[r]].rank = r;
        }
    }

    /** Every profile name of the embedded spec, in its order. */
    public static List<String> profiles() {
        return Spec.get().profileNames();
    }

    /** The profile's name. */
    public String profile() {
        return profile.name;
    }

    /** The canonical name of the key hash in use. */
    public String hash() {
        return hash.canonical;
    }

    /**
     * The spec's failover kind of the profile: {@code "rehash"} (spymemcached, xmemcached:
     * {@link #failover} rehashes the key and may repeat servers; {@code "walk"} on placements
     * without a continuum), {@code "walk"} (the next distinct servers), {@code "rehash_key"}
     * (dalli), {@code "rehash_hash"} (python-memcached) or {@code "stay"} (emcache).
     */
    public String failoverKind() {
        if (profile.failover == Profile.Failover.REHASH) {
            return profile.isRing() ? "rehash" : "walk";
        }
        return profile.failover.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The servers, in the order given. */
    public List<Server> servers() {
        return servers;
    }

    /** Number of servers. */
    public int size() {
        return entries.length;
    }

    /** The node string the client hashes for server {@code index}. */
    public String nodeString(int index) {
        return entries[index].node;
    }

    // ----- lookups -----

    /** The label of the server {@code key} (its UTF-8 bytes) goes to. */
    public String get(String key) {
        return labels[index(utf8(key))];
    }

    /** The label of the server {@code key} goes to. */
    public String get(byte[] key) {
        return labels[index(key)];
    }

    /** The index (in server order) of the server {@code key} goes to. */
    public int index(String key) {
        return index(utf8(key));
    }

    /**
     * The index (in server order) of the server {@code key} goes to.
     *
     * @throws EmptyRingException the ring has no servers
     * @throws KeyRejectedException the client refuses this key
     * @throws NoServerException no server owns the key (every server got no points, ...)
     */
    public int index(byte[] key) {
        if (entries.length == 0) {
            throw KetamaException.of("EmptyRing");
        }
        byte[] k = Keys.prepare(profile, hash, key);
        if (profile.singleShortcut && entries.length == 1) {
            return 0;
        }
        return locatePrepared(k);
    }

    /**
     * The key hash as this ring's client computes it (after its key rewriting), unsigned.
     *
     * @throws KeyRejectedException the client refuses this key
     */
    public long keyHash(byte[] key) {
        byte[] k = Keys.prepare(profile, hash, key);
        return hash.apply(k, 0, k.length) & 0xFFFFFFFFL;
    }

    private static byte[] utf8(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private int locatePrepared(byte[] k) {
        switch (profile.placement) {
            case FURC:
                return furc(k);
            case RING:
                if (layout.wideHi != null) {
                    int[] w = new int[4];
                    Md5.words(k, 0, k.length, w);
                    return layout.ownerAt(wideUpper(w));
                }
                return layout.ownerAt(position(hash.apply(k, 0, k.length)));
            case PECL_BUCKETS:
                if (layout.buckets.length == 0) {
                    throw KetamaException.of("NoServer");
                }
                return layout.buckets[hash.apply(k, 0, k.length) & (Layout.PECL_BUCKETS - 1)];
            case MODULA:
            case JAVA_ABS_MODULO:
                return slot(k);
            case JUMP:
                return Alt.jump(hash.apply(k, 0, k.length) & 0xFFFFFFFFL, entries.length);
            case RENDEZVOUS:
                return rendezvous(hash.apply(k, 0, k.length), Collections.emptyList());
            case MAGLEV:
                return layout.maglev[(int) ((hash.apply(k, 0, k.length) & 0xFFFFFFFFL) % Alt.MAGLEV_SIZE)];
            case JUMP_XXH3:
                return Alt.jump(Xxh3.hash64(k, 0, k.length), entries.length);
            case HASH_RENDEZVOUS:
                return scoredBest(k, Collections.emptyList());
            default:
                throw new IllegalStateException(profile.placement.toString());
        }
    }

    /** The server a key hash {@code h} is placed on, as the key's own hash is (rehash failover). */
    private int locateHash(int h) {
        switch (profile.placement) {
            case RING:
                if (layout.wideHi == null) {
                    return layout.ownerAt(position(h));
                }
                break;
            case PECL_BUCKETS:
                if (layout.buckets.length == 0) {
                    throw KetamaException.of("NoServer");
                }
                return layout.buckets[h & (Layout.PECL_BUCKETS - 1)];
            case MODULA:
            case JAVA_ABS_MODULO:
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
            default:
                break;
        }
        throw KetamaException.of("NeedsKey", String.valueOf(profile.placement));
    }

    /**
     * pymemcache / emcache rendezvous: the server (not in {@code skip}) whose node string
     * joined with the prepared key hashes highest; equal scores go to the greater node string
     * ({@code greater_node}) or the greater hash of the node string, then the earlier server.
     */
    private int scoredBest(byte[] k, List<Integer> skip) {
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
            throw KetamaException.of("NoServer");
        }
        return best;
    }

    private int furc(byte[] k) {
        int n = entries.length;
        if (n > Furc.MAX_POOL) {
            throw KetamaException.of("TooManyServers", n + " servers");
        }
        if (layout.furcWeights == null) {
            return Furc.furcHash(k, 0, k.length, n);
        }
        int i = Furc.weightedCh3(k, 0, k.length, layout.furcWeights);
        if (i < 0) {
            throw KetamaException.of("NoServer");
        }
        return i;
    }

    private int slot(byte[] k) {
        if (profile.oldCompat) {
            long h = Utf16.oldCompat(Utf16.decode(k, 0, k.length));
            return slotOf(h < 0 ? -h : h); // |Long.MIN_VALUE| is 2^63 read unsigned
        }
        return slotOfHash(hash.apply(k, 0, k.length));
    }

    /** The modulo slot of a 32-bit key hash. */
    private int slotOfHash(int h32) {
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
                throw KetamaException.of("NoServer");
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
            throw KetamaException.of("NoServer");
        }
        return layout.ordered[at];
    }

    /** The continuum position a 32-bit key hash lands on, by the profile's bound. */
    private int position(int h) {
        int[] v = layout.biased;
        int len = v.length;
        if (len == 0) {
            throw KetamaException.of("NoServer");
        }
        switch (profile.bound) {
            case LOWER_BOUND_SIGNED:
                return wrap(Layout.lowerBound(v, h), len);
            case UPPER_BOUND:
                return wrap(Layout.upperBound(v, h ^ MIN), len);
            case LOWER_BOUND_ZERO_LAST:
                return h == 0 ? firstOfRun(len - 1) : wrap(Layout.lowerBound(v, h ^ MIN), len);
            case FLOOR: {
                int p = Layout.upperBound(v, h ^ MIN);
                if (p != 0) {
                    return firstOfRun(p - 1);
                }
                // PHP reads $serverList[count - 1]: a server only if some point equals it.
                int probe = distinctPositions() - 1;
                int q = Layout.lowerBound(v, probe ^ MIN);
                if (q < len && v[q] == (probe ^ MIN)) {
                    return q;
                }
                throw KetamaException.of("NoServer");
            }
            case FLOOR_WRAP: {
                int p = Layout.upperBound(v, h ^ MIN);
                return firstOfRun(p == 0 ? len - 1 : p - 1);
            }
            default:
                return wrap(Layout.lowerBound(v, h ^ MIN), len);
        }
    }

    private static int wrap(int p, int len) {
        return p == len ? 0 : p;
    }

    private int firstOfRun(int p) {
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
            throw KetamaException.of("NoServer");
        }
        return wrap(a, H.length);
    }

    private int rendezvous(int h, List<Integer> skip) {
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
            throw KetamaException.of("NoServer");
        }
        return at;
    }

    /** The start of a walk for the key (already prepared) on a continuum. */
    private int walkStart(byte[] k) {
        if (profile.placement == Profile.Placement.PECL_BUCKETS) {
            int b = hash.apply(k, 0, k.length) & (Layout.PECL_BUCKETS - 1);
            return Layout.lowerBound(layout.biased, (b * Layout.PECL_STEP) ^ MIN) % layout.biased.length;
        }
        if (layout.wideHi != null) {
            int[] w = new int[4];
            Md5.words(k, 0, k.length, w);
            return wideUpper(w);
        }
        return position(hash.apply(k, 0, k.length));
    }

    /**
     * Up to {@code n} distinct servers for {@code key}, primary first, in the order the
     * client's structure yields them (ring order for continua, the following servers for
     * modulo, descending score for rendezvous); fewer when the ring has fewer servers.
     */
    public List<String> getN(String key, int n) {
        return getN(utf8(key), n);
    }

    /** {@link #getN(String, int)} for a key given as bytes. */
    public List<String> getN(byte[] key, int n) {
        return labelsOf(indexesN(key, n));
    }

    private List<Integer> indexesN(byte[] key, int n) {
        List<Integer> out = new ArrayList<>();
        int first = index(key);
        int want = Math.min(Math.max(n, 0), entries.length);
        if (want == 0) {
            return out;
        }
        out.add(first);
        byte[] k = Keys.prepare(profile, hash, key);
        if (profile.isRing() && layout.biased.length > 0) {
            int start = walkStart(k);
            int len = layout.biased.length;
            boolean backwards = profile.bound == Profile.Bound.FLOOR || profile.bound == Profile.Bound.FLOOR_WRAP;
            for (int step = 0; step < len && out.size() < want; step++) {
                int p = backwards ? (int) (((long) start + len - step % len) % len) : (int) (((long) start + step) % len);
                int owner = layout.owners[p];
                if (!out.contains(owner)) {
                    out.add(owner);
                }
            }
        } else if (profile.placement == Profile.Placement.HASH_RENDEZVOUS) {
            while (out.size() < want) {
                out.add(scoredBest(k, out));
            }
        } else if (profile.placement == Profile.Placement.RENDEZVOUS) {
            int h = hash.apply(k, 0, k.length);
            while (out.size() < want) {
                try {
                    out.add(rendezvous(h, out));
                } catch (NoServerException e) {
                    break;
                }
            }
        } else if (!profile.isRing()) {
            for (int step = 1; step < entries.length && out.size() < want; step++) {
                int i = (first + step) % entries.length;
                if (!out.contains(i)) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    /**
     * The client's own failover sequence for {@code key}, primary first: spymemcached's and
     * xmemcached's rehash walks ({@code hv += H(str(t) + key)}, servers may repeat;
     * xmemcached stops after as many rehashes as servers), for every other client the next
     * distinct servers as {@link #getN}.
     */
    public List<String> failover(String key, int n) {
        return failover(utf8(key), n);
    }

    /** {@link #failover(String, int)} for a key given as bytes. */
    public List<String> failover(byte[] key, int n) {
        if (profile.failover == Profile.Failover.REHASH_KEY || profile.failover == Profile.Failover.REHASH_HASH) {
            return rehashTries(key, (int) Math.min(n, profile.tries));
        }
        if (profile.failover == Profile.Failover.STAY) {
            int first = index(key);
            return n > 0 ? labelsOf(Collections.singletonList(first)) : labelsOf(Collections.emptyList());
        }
        if (profile.failover != Profile.Failover.REHASH || !profile.isRing()) {
            return getN(key, n);
        }
        List<Integer> out = new ArrayList<>();
        if (profile.boundedByServers) {
            n = Math.min(n, entries.length + 1);
        }
        int first = index(key);
        if (n <= 0) {
            return labelsOf(out);
        }
        out.add(first);
        byte[] k = Keys.prepare(profile, hash, key);
        int hv = hash.apply(k, 0, k.length);
        long t = profile.firstTag;
        int[] v = layout.biased;
        while (out.size() < n) {
            byte[] tag = Long.toString(t).getBytes(StandardCharsets.US_ASCII);
            byte[] tagged = Arrays.copyOf(tag, tag.length + k.length);
            System.arraycopy(k, 0, tagged, tag.length, k.length);
            hv += hash.apply(tagged, 0, tagged.length);
            int p = Layout.lowerBound(v, hv ^ MIN);
            out.add(layout.ownerAt(p == v.length ? 0 : p));
            t++;
        }
        return labelsOf(out);
    }

    /**
     * dalli ({@code rehash_key}: lookup t >= 1 hashes {@code decimal(t - 1) + key}) and
     * python-memcached ({@code rehash_hash}: {@code h(t + 1) = H(decimal(h(t)) + decimal(t))}):
     * {@code n} lookups in all, each hash placed as the key's own hash is.
     */
    private List<String> rehashTries(byte[] key, int n) {
        List<Integer> out = new ArrayList<>();
        int first = index(key);
        if (n <= 0) {
            return labelsOf(out);
        }
        out.add(first);
        if (profile.singleShortcut && entries.length == 1) {
            return labelsOf(out);
        }
        byte[] k = Keys.prepare(profile, hash, key);
        int h = hash.apply(k, 0, k.length);
        for (int t = 0; t < n - 1; t++) {
            byte[] tagged;
            if (profile.failover == Profile.Failover.REHASH_KEY) {
                byte[] tag = Integer.toString(t).getBytes(StandardCharsets.US_ASCII);
                tagged = Arrays.copyOf(tag, tag.length + k.length);
                System.arraycopy(k, 0, tagged, tag.length, k.length);
            } else {
                tagged = (Long.toString(h & 0xFFFFFFFFL) + t).getBytes(StandardCharsets.US_ASCII);
            }
            h = hash.apply(tagged, 0, tagged.length);
            out.add(locateHash(h));
        }
        return labelsOf(out);
    }

    /**
     * Where {@code key} goes while the servers at the indexes in {@code dead} are down: the
     * first server of the client's failover sequence (as many tries as the client makes) that
     * is up, or null when the client gives up.
     */
    public String getAlive(byte[] key, List<Integer> dead) {
        if (dead.isEmpty()) {
            return get(key);
        }
        int limit;
        switch (profile.failover) {
            case WALK:
                limit = entries.length;
                break;
            case REHASH:
                limit = profile.boundedByServers ? entries.length + 1 : 7;
                break;
            case STAY:
                limit = 1;
                break;
            default:
                limit = (int) profile.tries;
        }
        List<String> down = new ArrayList<>();
        for (int i : dead) {
            down.add(labels[i]);
        }
        for (String l : failover(key, limit)) {
            if (!down.contains(l)) {
                return l;
            }
        }
        return null;
    }

    /** {@link #getAlive(byte[], List)} of the key's UTF-8 bytes. */
    public String getAlive(String key, List<Integer> dead) {
        return getAlive(utf8(key), dead);
    }

    private List<String> labelsOf(List<Integer> idx) {
        List<String> l = new ArrayList<>(idx.size());
        for (int i : idx) {
            l.add(labels[i]);
        }
        return Collections.unmodifiableList(l);
    }

    // ----- the continuum -----

    /** One point of the continuum: a position and the index of the server that owns it. */
    public static final class Point {
        private final long position;
        private final int server;

        Point(long position, int server) {
            this.position = position;
            this.server = server;
        }

        /**
         * The position, unsigned 32-bit (the top 32 bits on uhashring's 128-bit ring; with the
         * sign bit flipped on signed-order rings, as core stores them).
         */
        public long position() {
            return position;
        }

        /** The owner's index in server order. */
        public int server() {
            return server;
        }

        @Override
        public String toString() {
            return position + "->" + server;
        }
    }

    /**
     * The continuum, ascending; among equal positions the winner first (for xmemcached's
     * sorted-list ties, the first listed). Empty for placements without one.
     */
    public List<Point> points() {
        int[] v = layout.biased;
        List<Point> l = new ArrayList<>(v.length);
        for (int i = 0; i < v.length; i++) {
            l.add(new Point((v[i] ^ MIN) & 0xFFFFFFFFL, layout.owners[i]));
        }
        return Collections.unmodifiableList(l);
    }
}
