package org.ketama.jedis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.ketama.KeyRejectedException;
import org.ketama.Ring;
import org.ketama.Server;
import org.ketama.UnknownProfileException;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.util.Hashing;

/** The router hands out the pool of the server the ring names (no server is contacted). */
class ProfileJedisRouterTest {
    static List<Server> servers() {
        // loopback only: a pool made here never connects, but if one did it would stay local
        return List.of(new Server("127.0.0.1:6379", 1), new Server("127.0.0.2:6380", 3),
            new Server("[::1]:6381", 2), new Server("localhost", 1));
    }

    @Test
    void eachKeyGetsThePoolOfTheRingsServer() {
        for (String profile : List.of("libketama", "libmemcached-weighted", "twemproxy", "spymemcached", "dalli", "modula", "jump")) {
            Ring ring = Ring.create(profile, null, servers());
            Map<JedisPool, String> made = new HashMap<>();
            try (ProfileJedisRouter r = new ProfileJedisRouter(ring, s -> {
                JedisPool p = ProfileJedisRouter.defaultPool(s);
                made.put(p, s.label());
                return p;
            })) {
                assertEquals(4, made.size());
                Set<String> seen = new HashSet<>();
                for (int i = 0; i < 3000; i++) {
                    String key = "user:" + i + (i % 5 == 0 ? "é" : "");
                    String want = ring.get(key);
                    assertEquals(want, made.get(r.pool(key)), profile + " " + key);
                    assertSame(r.pool(key), r.pool(key.getBytes(StandardCharsets.UTF_8)));
                    assertEquals(want, r.server(key).label());
                    seen.add(want);
                }
                assertEquals(4, seen.size(), profile);
            }
        }
    }

    @Test
    void poolsFollowServerOrder() {
        List<String> labels = new ArrayList<>();
        try (ProfileJedisRouter r = new ProfileJedisRouter(Ring.create("libketama", null, servers()), s -> {
            labels.add(s.label());
            return ProfileJedisRouter.defaultPool(s);
        })) {
            assertEquals(List.of("127.0.0.1:6379", "127.0.0.2:6380", "[::1]:6381", "localhost"), labels);
            assertEquals(4, r.pools().size());
            assertThrows(UnsupportedOperationException.class, () -> r.pools().clear());
        }
    }

    @Test
    void hostPort() {
        assertArrayEquals(new String[] {"127.0.0.1", "6379"}, ProfileJedisRouter.hostPort("127.0.0.1:6379"));
        assertArrayEquals(new String[] {"::1", "7000"}, ProfileJedisRouter.hostPort("[::1]:7000"));
        assertArrayEquals(new String[] {"::1", "6379"}, ProfileJedisRouter.hostPort("[::1]"));
        assertArrayEquals(new String[] {"cache", "6379"}, ProfileJedisRouter.hostPort("cache"));
        for (String bad : List.of("/run/redis.sock", "host:", "host:port", "host:99999", "[::1", "[::1]x", ":6379")) {
            assertThrows(IllegalArgumentException.class, () -> ProfileJedisRouter.hostPort(bad), bad);
        }
    }

    @Test
    void refusals() {
        assertThrows(UnknownProfileException.class, () -> ProfileJedisRouter.create("no-such-client", null, servers()));
        try (ProfileJedisRouter r = ProfileJedisRouter.create("php-memcached", null, servers())) {
            assertThrows(KeyRejectedException.class, () -> r.pool("x".repeat(300)));
            String longKey = "y".repeat(300);
            assertThrows(KeyRejectedException.class, () -> r.withJedis(longKey, j -> j.get(longKey)));
        }
    }

    @Test
    void aFailedPoolClosesTheOthers() {
        List<JedisPool> made = new ArrayList<>();
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> new ProfileJedisRouter(Ring.create("libketama", null, servers()), s -> {
                if (made.size() == 2) {
                    throw new IllegalStateException("no pool for " + s.label());
                }
                JedisPool p = ProfileJedisRouter.defaultPool(s);
                made.add(p);
                return p;
            }));
        assertTrue(e.getMessage().contains("[::1]:6381"));
        assertEquals(2, made.size());
        for (JedisPool p : made) {
            assertTrue(p.isClosed());
        }
        assertThrows(IllegalArgumentException.class, () -> new ProfileJedisRouter(Ring.create("libketama", null, servers()), s -> null));
    }

    /**
     * Where the port has the jedis-4 profile and Jedis is 4.x, the router sends each key to
     * the server JedisSharding's own ring names (ShardedConnectionProvider.getNode of the
     * key's MurmurHash, what JedisSharding's commands use; reflection, as 3.x lacks the class).
     */
    @Test
    void jedis4ProfileEqualsJedisShardingsOwnRing() throws Exception {
        Class<?> provider;
        try {
            provider = Class.forName("redis.clients.jedis.providers.ShardedConnectionProvider");
        } catch (ClassNotFoundException e) {
            Assumptions.abort("Jedis 3.x has no JedisSharding");
            return;
        }
        List<Server> servers = List.of(new Server("127.0.0.1:6379", 1), new Server("127.0.0.2:6380", 1),
            new Server("127.0.0.3:6381", 1), new Server("127.0.0.4:6382", 1));
        Ring ring;
        try {
            ring = Ring.create("jedis-4", null, servers);
        } catch (UnknownProfileException e) {
            Assumptions.abort("this port has no jedis-4 profile");
            return;
        }
        List<HostAndPort> nodes = new ArrayList<>();
        for (Server s : servers) {
            String[] hp = ProfileJedisRouter.hostPort(s.label());
            nodes.add(new HostAndPort(hp[0], Integer.parseInt(hp[1])));
        }
        Object theirs = provider.getConstructor(List.class).newInstance(nodes);
        Method getNode = provider.getMethod("getNode", Long.class);
        try (ProfileJedisRouter ours = new ProfileJedisRouter(ring, ProfileJedisRouter::defaultPool)) {
            for (int i = 0; i < 3000; i++) {
                String key = "user:" + i + (i % 5 == 0 ? "é" : "");
                HostAndPort want = (HostAndPort) getNode.invoke(theirs, Hashing.MURMUR_HASH.hash(key));
                assertEquals(want.getHost() + ":" + want.getPort(), ours.server(key).label(), key);
            }
        } finally {
            ((AutoCloseable) theirs).close();
        }
    }

    /**
     * With JedisSharding's default key tag pattern ({@code \{(.+?)\}}), the router with the
     * ring's {@code hash_tag} "{}" sends each key to the server JedisSharding names for it:
     * the hash of the key's tag as ShardedCommandArguments computes it (Jedis's own tag code),
     * placed by ShardedConnectionProvider.getNode (reflection, as 3.x lacks both classes).
     */
    @Test
    void jedis4KeyTagsEqualJedisShardings() throws Exception {
        Class<?> provider;
        Class<?> arguments;
        try {
            provider = Class.forName("redis.clients.jedis.providers.ShardedConnectionProvider");
            arguments = Class.forName("redis.clients.jedis.ShardedCommandArguments");
        } catch (ClassNotFoundException e) {
            Assumptions.abort("Jedis 3.x has no JedisSharding");
            return;
        }
        Object pattern = Class.forName("redis.clients.jedis.JedisSharding").getField("DEFAULT_KEY_TAG_PATTERN").get(null);
        Class<?> command = Class.forName("redis.clients.jedis.commands.ProtocolCommand");
        Object get = Class.forName("redis.clients.jedis.Protocol$Command").getField("GET").get(null);
        java.lang.reflect.Constructor<?> args = arguments.getConstructor(Hashing.class, java.util.regex.Pattern.class, command);
        Method key = arguments.getMethod("key", Object.class);
        Method keyHash = arguments.getMethod("getKeyHash");
        List<Server> servers = List.of(new Server("127.0.0.1:6379", 1), new Server("127.0.0.2:6380", 1),
            new Server("127.0.0.3:6381", 1), new Server("127.0.0.4:6382", 1), new Server("[::1]:6383", 1));
        Ring ring = Ring.create("jedis-4", null, servers, org.ketama.Options.none().withHashTag("{}"));
        List<HostAndPort> nodes = new ArrayList<>();
        for (Server s : servers) {
            String[] hp = ProfileJedisRouter.hostPort(s.label());
            nodes.add(new HostAndPort(hp[0], Integer.parseInt(hp[1])));
        }
        Object theirs = provider.getConstructor(List.class).newInstance(nodes);
        Method getNode = provider.getMethod("getNode", Long.class);
        List<String> keys = new ArrayList<>(List.of("{}", "a{}b", "{}{42}", "{a}{b}", "{{x}}", "{a\nb}{c}", "{a\u2028b}",
            "x{\r}y{z}", "{é}", "}42{"));
        for (int i = 0; i < 2000; i++) {
            keys.add(i % 3 == 0 ? "{user:" + i % 97 + "}:cart" : i % 3 == 1 ? "cart:{user:" + i % 89 + "}" : "plain:" + i);
        }
        Set<String> tagged = new HashSet<>();
        try (ProfileJedisRouter ours = new ProfileJedisRouter(ring, ProfileJedisRouter::defaultPool)) {
            for (String k : keys) {
                Object a = args.newInstance(Hashing.MURMUR_HASH, pattern, get);
                key.invoke(a, k);
                HostAndPort want = (HostAndPort) getNode.invoke(theirs, (Long) keyHash.invoke(a));
                String label = ours.server(k).label();
                assertEquals(ProfileJedisRouter.hostPort(label)[0] + ":" + ProfileJedisRouter.hostPort(label)[1],
                    want.getHost() + ":" + want.getPort(), k);
                if (k.contains("{user:5}")) {
                    tagged.add(label);
                }
            }
        } finally {
            ((AutoCloseable) theirs).close();
        }
        assertEquals(1, tagged.size(), "one tag, one server");
    }
}
