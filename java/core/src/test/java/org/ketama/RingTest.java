package org.ketama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The public API: typed errors, n-server lookups, the continuum, concurrent readers. */
class RingTest {
    static List<Server> servers(int n) {
        List<Server> l = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            l.add(new Server("10.0.0." + i + ":11211", 1));
        }
        return l;
    }

    /** A refusal of one server input names it: its place in the list and its label. */
    @Test
    void errorsNameTheServerToBlame() {
        List<Server> list = new ArrayList<>(servers(3));
        list.set(1, new Server("bad label", 1));
        KetamaException e = assertThrows(BadLabelException.class, () -> Ring.create("libketama", null, list));
        assertEquals(1, e.serverIndex());
        assertEquals("bad label", e.serverLabel());
        List<Server> dup = List.of(new Server("[::1]:1", 1), new Server("a:1", 1), new Server("[0:0::1]:1", 1));
        e = assertThrows(DuplicateServerException.class, () -> Ring.create("libketama", null, dup));
        assertEquals(2, e.serverIndex());
        assertEquals("[0:0::1]:1", e.serverLabel());
        e = assertThrows(UnsupportedException.class,
            () -> Ring.create("xmemcached-nginx", null, List.of(new Server("10.0.0.1:1", 1), new Server("cache.lan:1", 1))));
        assertEquals(1, e.serverIndex());
        e = assertThrows(EmptyRingException.class, () -> Ring.create("libketama", null, List.of()).get("k"));
        assertEquals(-1, e.serverIndex());
        assertEquals(null, e.serverLabel());
    }

    /**
     * A string holding an unpaired surrogate is not Unicode and has no UTF-8: keys, labels,
     * names, options, profile and hash names are refused (InvalidUtf8Exception) instead of
     * being encoded with '?' for the surrogate; key bytes are hashed as they are.
     */
    @Test
    void stringsThatAreNotUnicodeAreRefused() {
        Ring r = Ring.create("libketama", null, servers(3));
        List<Runnable> calls = List.of(
            () -> r.get("k\ud800"),
            () -> r.index("\udc00k"),
            () -> Hashes.hash("md5", "\ud800"),
            () -> Ring.create("libketama", null, List.of(new Server("10.0.0.1:1\ud800", 1))),
            () -> Ring.create("twemproxy", null, List.of(new Server("10.0.0.1:1", 1, "n\udfff"))),
            () -> Ring.create("lib\ud800", null, List.of()),
            () -> Ring.create("libketama", "md\ud800", List.of()),
            () -> Options.none().withHashTag("{\ud800"),
            () -> Options.none().withPrefixKey("p\ud800"));
        for (Runnable c : calls) {
            KetamaException e = assertThrows(InvalidUtf8Exception.class, c::run);
            assertTrue(e.getMessage().contains("unpaired surrogate"), e.getMessage());
        }
        KetamaException e = assertThrows(InvalidUtf8Exception.class,
            () -> Ring.create("libketama", null, List.of(new Server("a:1", 1), new Server("b:1\ud800", 1))));
        assertEquals(1, e.serverIndex());
        // A pair is one character outside the BMP: Unicode, hashed as its UTF-8.
        assertEquals(r.get("k\ud83d\ude00".getBytes(StandardCharsets.UTF_8)), r.get("k\ud83d\ude00"));
        r.get(new byte[] {(byte) 0xff, 0, (byte) 0xfe});
    }

    @Test
    void badInputGetsTypedErrors() {
        assertThrows(BadWeightException.class, () -> Ring.create("libketama", null, List.of(new Server("a:1", 0))));
        assertThrows(BadWeightException.class, () -> Ring.create("spymemcached", null, List.of(new Server("a:1", -1))));
        assertThrows(BadWeightException.class, () -> Ring.create("spymemcached", null, List.of(new Server("a:1", 1L << 32))));
        assertThrows(BadLabelException.class, () -> Ring.create("libketama", null, List.of(new Server("a b", 1))));
        assertThrows(TooManyPointsException.class, () -> Ring.create("xmemcached", null, List.of(new Server("10.0.0.1:1", 60000))));
        assertThrows(UnsupportedException.class, () -> Ring.create("xmemcached-nginx", null, List.of(new Server("cache1:1", 1))));
        assertThrows(UnknownHashException.class, () -> Ring.create("libketama", "nope", List.of()));
        assertThrows(AmbiguousHashException.class, () -> Ring.create("libketama", "crc32", List.of()));
        assertEquals("crc", Ring.create("twemproxy", "crc32", List.of()).hash());
        assertEquals("crc32a", Ring.create("pecl-memcache", "crc32", List.of()).hash());
        Ring empty = Ring.create("libketama", null, List.of());
        assertThrows(EmptyRingException.class, () -> empty.get("k"));
        Ring lm = Ring.create("libmemcached", null, servers(3));
        assertThrows(KeyRejectedException.class, () -> lm.get(""));
        assertThrows(KeyRejectedException.class, () -> lm.get(new byte[251]));
        Ring xmc = Ring.create("xmemcached", null, servers(3));
        assertThrows(KeyRejectedException.class, () -> xmc.get(""));
        // Every server of zero weight: points for none.
        Ring zero = Ring.create("uhashring-ketama", null, List.of(new Server("a:1", 0), new Server("b:1", 0)));
        assertThrows(NoServerException.class, () -> zero.get("k"));
    }

    @Test
    void getNGivesDistinctServersPrimaryFirst() {
        for (String profile : Ring.profiles()) {
            Ring r = Ring.create(profile, null, servers(5));
            for (int k = 0; k < 50; k++) {
                String key = "key" + k;
                List<String> n;
                try {
                    n = r.getN(key, 3);
                } catch (NoServerException e) {
                    // flexihash-seed's floor search finds no server below its smallest point.
                    assertEquals("flexihash-seed", profile);
                    continue;
                }
                assertEquals(3, n.size(), profile);
                assertEquals(3, new HashSet<>(n).size(), profile);
                assertEquals(r.get(key), n.get(0), profile);
                assertEquals(5, r.getN(key, 9).size(), profile);
            }
        }
    }

    @Test
    void pointsAreSortedAndOwned() {
        Ring r = Ring.create("libketama", null, servers(4));
        List<Ring.Point> pts = r.points();
        assertEquals(160 * 4, pts.size());
        for (int i = 1; i < pts.size(); i++) {
            assertTrue(pts.get(i - 1).position() <= pts.get(i).position());
        }
        assertTrue(pts.stream().allMatch(p -> p.server() >= 0 && p.server() < 4));
        assertEquals(0, Ring.create("modula", null, servers(4)).points().size());
    }

    @Test
    void stringAndByteKeysAgree() {
        Ring r = Ring.create("spymemcached", "KETAMA_HASH", servers(7));
        for (int k = 0; k < 200; k++) {
            String key = "user:" + k + "é";
            assertEquals(r.get(key), r.get(key.getBytes(StandardCharsets.UTF_8)));
        }
        assertNotEquals(r.getN("a", 7), r.getN("b", 7));
    }

    @Test
    void byteKeyLookupsAllocateNothing() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "no allocation counter");
        com.sun.management.ThreadMXBean tmx = (com.sun.management.ThreadMXBean) mx;
        byte[][] keys = new byte[1000][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ("user:" + i + ":profile").getBytes(StandardCharsets.UTF_8);
        }
        for (String profile : new String[] {"libketama", "libmemcached", "spymemcached", "twemproxy", "xmemcached"}) {
            Ring r = Ring.create(profile, null, servers(20));
            long sum = 0;
            for (byte[] k : keys) {
                sum += r.index(k);
            }
            long id = Thread.currentThread().getId();
            long before = tmx.getThreadAllocatedBytes(id);
            for (int round = 0; round < 100; round++) {
                for (byte[] k : keys) {
                    sum += r.index(k);
                }
            }
            long allocated = tmx.getThreadAllocatedBytes(id) - before;
            assertTrue(allocated < 4096, profile + ": " + allocated + " bytes for 100,000 lookups (sum " + sum + ")");
        }
    }

    @Test
    void concurrentReadersAgree() throws Exception {
        Ring r = Ring.create("libmemcached-weighted", null, servers(10));
        List<String> want = new ArrayList<>();
        for (int k = 0; k < 2000; k++) {
            want.add(r.get("k" + k));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                fs.add(pool.submit(() -> {
                    for (int k = 0; k < 2000; k++) {
                        if (!r.get("k" + k).equals(want.get(k))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : fs) {
                assertTrue(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * redis-shard hashes keys as latin-1: a key with a character above U+00FF is refused, also
     * from a String, unless its hash tag is latin-1 (the tag is taken first); an unpaired
     * surrogate is InvalidUtf8 as everywhere.
     */
    @Test
    void latin1Keys() {
        Ring r = Ring.create("redis-shard", null, servers(5));
        assertThrows(KeyRejectedException.class, () -> r.get("\u043a\u043b\u044e\u0447"));
        assertThrows(KeyRejectedException.class, () -> r.get(new byte[] {(byte) 0xff}));
        assertEquals(r.get("42"), r.get("\u043a\u043b\u044e\u0447:{42}"));
        assertEquals(Hashes.hash("crc32a", new byte[] {(byte) 0xe9}), r.keyHash("\u00e9".getBytes(StandardCharsets.UTF_8)));
        assertThrows(InvalidUtf8Exception.class, () -> r.get("k\ud800"));
    }

    /** Predis's counts: PHP's round() with its pre-rounding to 15 significant digits. */
    @Test
    void predisRoundsAsPhpDoes() {
        assertEquals(31, Counts.digests(Profile.Formula.PREDIS, 61, 1792, 7));
        assertEquals(58, Counts.digests(Profile.Formula.PREDIS, 115, 1792, 7));
        assertEquals(128, Counts.digests(Profile.Formula.PREDIS, 1, 2, 2));
        assertEquals(3.0, Counts.phpRound(2.5));
        assertEquals(1.0, Counts.phpRound(0.49999999999999994));
        assertEquals(40, Counts.digests(Profile.Formula.PREDIS_KETAMA, 1, 3, 3));
        // Jedis 3.x: 160 x weight as a Java int, a negative product none
        Profile jedis = Spec.get().profile("jedis");
        assertEquals(List.of(0L, 64L, 160L), java.util.Arrays.stream(Counts.targets(jedis, new long[] {13421773, 26843546, 1}))
            .boxed().collect(java.util.stream.Collectors.toList()));
    }

    /** go-redis and Enyim: the failover sequences the clients walk. */
    @Test
    void newFailovers() {
        Ring go = Ring.create("go-redis", null, servers(5));
        List<String> seq = go.failover("user:1", 5);
        assertEquals(5, new HashSet<>(seq).size());
        assertEquals(go.get("user:1"), seq.get(0));
        Ring enyim = Ring.create("enyim-ketama", null, servers(3));
        assertEquals(4, enyim.failover("user:1", 10).size());
        assertEquals(1, Ring.create("enyim-ketama", null, servers(1)).failover("user:1", 10).size());
        assertEquals(20, Ring.create("cache-memcached", null, servers(3)).failover("user:1", 50).size());
    }

    /**
     * The batch calls: each key's answer is get's (long keys, non-ASCII keys and an odd count
     * included), null or -1 where get throws; an empty ring throws for the call.
     */
    @Test
    void getManyIsGetForEachKey() {
        StringBuilder longKey = new StringBuilder();
        for (int i = 0; i < 70; i++) {
            longKey.append((char) ('a' + i % 26));
        }
        String[] keys = {"", "a", "user:1", longKey.toString(), "caf\u00e9", "k\ud800", "user:2", longKey.substring(0, 55),
            longKey.substring(0, 56), "x y"};
        for (String profile : List.of("spymemcached", "libmemcached-weighted", "libketama", "pecl-memcache", "redis-rb-5",
                "xmemcached", "jedis", "enyim-ketama", "folsom", "cache-memcached", "flexihash-seed", "finagle")) {
            Ring r = Ring.create(profile, null, servers(7));
            String[] many = r.getMany(keys);
            int[] idx = r.indexMany(keys);
            assertEquals(keys.length, many.length);
            for (int i = 0; i < keys.length; i++) {
                String want;
                try {
                    want = r.get(keys[i]);
                } catch (KetamaException e) {
                    want = null;
                }
                assertEquals(want, many[i], profile + " " + keys[i]);
                assertEquals(want == null ? -1 : r.servers().stream().map(Server::label).collect(java.util.stream.Collectors.toList())
                    .indexOf(want), idx[i], profile + " " + keys[i]);
            }
            assertEquals(0, r.getMany(new String[0]).length);
        }
        Ring one = Ring.create("enyim-ketama", null, servers(1));
        assertEquals(List.of("10.0.0.1:11211", "10.0.0.1:11211"), List.of(one.getMany(new String[] {"a", "b"})));
        assertThrows(EmptyRingException.class, () -> Ring.create("libketama", null, List.of()).getMany(new String[] {"k"}));
        assertThrows(NullPointerException.class, () -> Ring.create("libketama", null, servers(2)).getMany(new String[] {"k", null}));
    }
}
