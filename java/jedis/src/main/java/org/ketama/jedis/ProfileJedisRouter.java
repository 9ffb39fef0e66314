package org.ketama.jedis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.ketama.Ring;
import org.ketama.Server;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

/**
 * Routes each key to the {@link JedisPool} of the server any ketama profile names, so a Java
 * service on Jedis reads and writes the keys of a Redis fleet that Predis, redis-rb, go-redis,
 * Jedis's own sharding or a memcached-style client shards.
 *
 * <pre>{@code
 * try (ProfileJedisRouter redis = ProfileJedisRouter.create("libketama", null,
 *         List.of(new Server("10.0.1.1:6379", 1), new Server("10.0.1.2:6379", 2)))) {
 *     redis.withJedis("user:1", j -> j.set("user:1", "Ada"));   // on the server libketama names
 *     String v = redis.withJedis("user:1", j -> j.get("user:1"));
 * }
 * }</pre>
 *
 * <p>Why a router and not a Jedis sharding class: Jedis's client-side sharding (3.x
 * {@code ShardedJedis} over {@code Sharded}, 4.x {@code JedisSharding} over
 * {@code ShardedConnectionProvider}) lets a caller replace only the key hash (a
 * {@code Hashing}: key to a 64-bit number) and the key tag pattern; the ring itself (160
 * points per weight unit and shard, Jedis's point strings, a signed {@code TreeMap} lookup)
 * is built inside the class and no option replaces it, so no other client's placement can be
 * expressed there. The router holds one pool per server instead and asks our ring which one a
 * key goes to; it uses nothing of Jedis but {@code JedisPool}, so it runs with Jedis 3.x and
 * 4.x alike (both are tested).
 *
 * <p>The whole key is placed by the profile (its own client's hash tag rule applies, or none).
 * A server's pool is made once, in server order, by the factory (default:
 * {@link #defaultPool}); the pools live as long as the router ({@link #close} closes them).
 * Like Jedis's own sharding it has no failover: a command to a server that is down fails with
 * Jedis's connection exception. Thread-safe: the ring is immutable and each pool is Jedis's.
 */
public final class ProfileJedisRouter implements AutoCloseable {
    /** The port of a label that has none (Redis's). */
    public static final int DEFAULT_PORT = 6379;
    /** Connect and socket timeout of the default pools, in milliseconds (Jedis's default). */
    public static final int DEFAULT_TIMEOUT_MILLIS = 2000;

    private final Ring ring;
    private final JedisPool[] pools;

    /**
     * A router for {@code profile} and {@code hash} ({@code null}: the profile's default) over
     * {@code servers}, with a default pool per server.
     *
     * @throws org.ketama.KetamaException the ring cannot be built (unknown profile, bad label, ...)
     */
    public static ProfileJedisRouter create(String profile, String hash, List<Server> servers) {
        return new ProfileJedisRouter(Ring.create(profile, hash, servers), ProfileJedisRouter::defaultPool);
    }

    /**
     * A router over {@code ring}'s servers, each server's pool made by {@code poolFor} (host,
     * port, password, TLS, pool sizes: yours to choose). When a pool cannot be made, the ones
     * made before are closed and the exception propagates.
     */
    public ProfileJedisRouter(Ring ring, Function<Server, JedisPool> poolFor) {
        this.ring = ring;
        List<Server> servers = ring.servers();
        this.pools = new JedisPool[servers.size()];
        try {
            for (int i = 0; i < pools.length; i++) {
                pools[i] = poolFor.apply(servers.get(i));
                if (pools[i] == null) {
                    throw new IllegalArgumentException("no pool for server " + servers.get(i).label());
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * A pool for the server's label ({@link #hostPort}), with {@link #DEFAULT_TIMEOUT_MILLIS}
     * and Jedis's default pool settings.
     */
    public static JedisPool defaultPool(Server server) {
        String[] hp = hostPort(server.label());
        return new JedisPool(new JedisPoolConfig(), hp[0], Integer.parseInt(hp[1]), DEFAULT_TIMEOUT_MILLIS);
    }

    /**
     * The host and port a label names: {@code host:port}, {@code [ipv6]:port} (the host
     * without brackets), or {@code host} with {@link #DEFAULT_PORT}.
     *
     * @throws IllegalArgumentException a label with no TCP address (a UNIX socket path, a
     *     port that is not a number): give the router a pool factory of your own
     */
    public static String[] hostPort(String label) {
        String host = label;
        String port = Integer.toString(DEFAULT_PORT);
        if (label.startsWith("[")) {
            int close = label.indexOf(']');
            host = label.substring(1, Math.max(1, close));
            if (close < 0 || (close + 1 < label.length() && label.charAt(close + 1) != ':')) {
                throw new IllegalArgumentException("not host:port: " + label);
            }
            if (close + 1 < label.length()) {
                port = label.substring(close + 2);
            }
        } else if (label.indexOf(':') >= 0 && label.indexOf(':') == label.lastIndexOf(':')) {
            host = label.substring(0, label.indexOf(':'));
            port = label.substring(label.indexOf(':') + 1);
        }
        if (host.isEmpty() || host.contains("/") || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("not a TCP host:port: " + label);
        }
        return new String[] {host, port};
    }

    /** The ring placing the keys. */
    public Ring ring() {
        return ring;
    }

    /** The pools, in server order. */
    public List<JedisPool> pools() {
        return Collections.unmodifiableList(new ArrayList<>(List.of(pools)));
    }

    /**
     * The pool of the server {@code key} (its UTF-8 bytes) goes to.
     *
     * @throws org.ketama.KeyRejectedException the profile's client refuses the key
     * @throws org.ketama.EmptyRingException the ring has no servers
     */
    public JedisPool pool(String key) {
        return pools[ring.index(key.getBytes(StandardCharsets.UTF_8))];
    }

    /** The pool of the server {@code key} goes to (as {@link #pool(String)}). */
    public JedisPool pool(byte[] key) {
        return pools[ring.index(key)];
    }

    /** The server {@code key} (its UTF-8 bytes) goes to (as {@link #pool(String)}). */
    public Server server(String key) {
        return ring.servers().get(ring.index(key.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Runs {@code command} on a connection to the server {@code key} goes to, borrowed from
     * its pool and returned after (also when the command throws).
     */
    public <T> T withJedis(String key, Function<Jedis, T> command) {
        try (Jedis j = pool(key).getResource()) {
            return command.apply(j);
        }
    }

    /** {@link #withJedis(String, Function)} for a binary key. */
    public <T> T withJedis(byte[] key, Function<Jedis, T> command) {
        try (Jedis j = pool(key).getResource()) {
            return command.apply(j);
        }
    }

    /** Closes every pool (their idle connections; borrowed ones close when returned). */
    @Override
    public void close() {
        for (JedisPool p : pools) {
            if (p != null) {
                p.close();
            }
        }
    }
}
