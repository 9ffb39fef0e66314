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
    private final Lookup lookup;
    private final FailoverSequence failovers;
    private final Options options;

    private Ring(Profile profile, HashFn hash, Entry[] entries, Layout layout, Options options) {
        this.profile = profile;
        this.options = options;
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
        this.lookup = new Lookup(profile, hash, entries, layout);
        this.failovers = new FailoverSequence(this, profile, hash, entries, layout, lookup);
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
        HashFn h = hash == null ? p.defaultHash : spec.hash(p, hash);
        Entry[] entries = new Entry[servers.size()];
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.length; i++) {
            Server s = servers.get(i);
            if (s == null) {
                throw new NullPointerException("server " + i);
            }
            try {
                Utf16.requireUnicode(s.label(), "label");
                Utf16.requireUnicode(s.name(), "name");
                Address a = Address.parse(s.label());
                long w = s.weight();
                if (w < 0 || w > 0xFFFFFFFFL || (w == 0 && p.zeroWeight == Profile.ZeroWeight.REJECT)) {
                    throw new BadWeightException(s.label() + " weight " + w);
                }
                if (!seen.add(a.endpointKey())) {
                    throw new DuplicateServerException(s.label());
                }
                entries[i] = new Entry(p, s, a, i);
            } catch (KetamaException e) {
                throw e.blame(i, s.label());
            }
        }
        rank(p, entries);
        return new Ring(p, h, entries, Layout.build(p, h, entries), Options.none());
    }

    /**
     * {@link #create(String, String, List)} with placement options.
     *
     * @throws BadOptionException the profile's client lacks one of the options
     */
    public static Ring create(String profile, String hash, List<Server> servers, Options options) {
        return create(profile, hash, servers).withOptions(options);
    }

    /**
     * A ring like this one with these placement options (this ring is unchanged; the points
     * are shared).
     *
     * @throws BadOptionException the profile's client lacks one of the options
     */
    public Ring withOptions(Options options) {
        if (options == null) {
            throw new NullPointerException("options");
        }
        options.check(profile);
        return new Ring(profile, hash, entries, layout, options);
    }

    /** The ring's placement options ({@link Options#none()} unless set). */
    public Options options() {
        return options;
    }

    /** The key this ring's client hashes (its refusals, then the options or its rewrite). */
    byte[] prepare(byte[] key) {
        return Keys.prepare(profile, hash, options, key);
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
            return profile.isRing ? "rehash" : "walk";
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
            throw new EmptyRingException();
        }
        byte[] k = prepare(key);
        if (profile.singleShortcut && entries.length == 1) {
            return 0;
        }
        return lookup.locatePrepared(k);
    }

    /**
     * The labels of the servers {@code keys} (their UTF-8 bytes) go to, in order: each is what
     * {@link #get(String)} returns, or {@code null} where it throws (a key the client refuses,
     * one holding an unpaired surrogate, one no server owns). Faster per key than
     * {@link #get(String)} on MD5 rings: the keys are hashed many at a time (in SIMD
     * instructions where the JIT has them), and an ASCII key is encoded into a buffer the call
     * reuses.
     *
     * @throws EmptyRingException the ring has no servers
     */
    public String[] getMany(String[] keys) {
        return labelsOf(indexMany(keys));
    }

    /** {@link #getMany(String[])} for keys given as bytes. */
    public String[] getMany(byte[][] keys) {
        return labelsOf(indexMany(keys));
    }

    /**
     * The indexes (in server order) of the servers {@code keys} go to, in order: each is what
     * {@link #index(String)} returns, or -1 where it throws.
     *
     * @throws EmptyRingException the ring has no servers
     */
    public int[] indexMany(String[] keys) {
        int[] out = new int[keys.length];
        batch().run(keys, out);
        return out;
    }

    /** {@link #indexMany(String[])} for keys given as bytes. */
    public int[] indexMany(byte[][] keys) {
        int[] out = new int[keys.length];
        batch().run(keys, out);
        return out;
    }

    private Batch batch() {
        if (entries.length == 0) {
            throw new EmptyRingException();
        }
        return new Batch(this, profile, hash, options, entries.length, lookup);
    }

    private String[] labelsOf(int[] idx) {
        String[] out = new String[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i] < 0 ? null : labels[idx[i]];
        }
        return out;
    }

    /**
     * The key hash as this ring's client computes it (after its key rewriting), unsigned.
     *
     * @throws KeyRejectedException the client refuses this key
     */
    public long keyHash(byte[] key) {
        byte[] k = prepare(key);
        return Keys.hash(hash, k) & 0xFFFFFFFFL;
    }

    private static byte[] utf8(String key) {
        return Utf16.utf8(key, "key");
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
        return labelsOf(failovers.indexesN(key, n));
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
        return labelsOf(failovers.sequence(key, n));
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
        int i = failovers.alive(key, dead);
        return i < 0 ? null : labels[i];
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
