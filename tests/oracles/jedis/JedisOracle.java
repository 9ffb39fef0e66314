// Drives the real Jedis 2.x/3.x ShardedJedis (compiled once per version: the driver names only
// ShardedJedis and JedisShardInfo, whose package is the same in both). Protocol: LineIO.
// Job parameters: `unnamed|named none|default`; servers: host, port, weight, name.
// Answer per key: the list index of the JedisShardInfo that getShardInfo(key) returns, or `x`
// if the client threw. A job `points` answers the number of points on the ring for every key.
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisShardInfo;
import redis.clients.jedis.ShardedJedis;

public final class JedisOracle {
    static final int TIMEOUT = 2000;

    // Sharded.initialize stores shardInfo.createResource() per shard, and 3.x's
    // JedisShardInfo.createResource() is `new Jedis(this)`, which connects. getShardInfo never
    // reads those resources, so the shards are the real class with createResource() -> null.
    // Name, host, port and weight are JedisShardInfo's own.
    static final class Named extends JedisShardInfo {
        Named(String host, String name, int port, int weight) { super(host, name, port, TIMEOUT, weight); }
        @Override public Jedis createResource() { return null; }
    }

    static final class Unnamed extends JedisShardInfo {
        Unnamed(String host, int port, int weight) { super(host, port, TIMEOUT, TIMEOUT, weight); }
        @Override public Jedis createResource() { return null; }
    }

    static ShardedJedis build(boolean named, Pattern tag, List<String[]> servers, Map<Object, Integer> index) {
        List<JedisShardInfo> shards = new ArrayList<>();
        for (String[] s : servers) {
            int port = Integer.parseInt(s[1]);
            int weight = Integer.parseInt(s[2]);
            JedisShardInfo info = named ? new Named(s[0], s[3], port, weight) : new Unnamed(s[0], port, weight);
            index.put(info, shards.size());
            shards.add(info);
        }
        return tag == null ? new ShardedJedis(shards) : new ShardedJedis(shards, tag);
    }

    static int points(ShardedJedis sj) throws Exception {
        Class<?> c = sj.getClass();
        while (c != null) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals("nodes")) {
                    f.setAccessible(true);
                    return ((Map<?, ?>) f.get(sj)).size();
                }
            }
            c = c.getSuperclass();
        }
        throw new AssertionError("no nodes field");
    }

    public static void main(String[] args) throws Exception {
        LineIO.serve((params, servers, keys) -> {
            boolean named = params[0].equals("named");
            Pattern tag = params[1].equals("default") ? ShardedJedis.DEFAULT_KEY_TAG_PATTERN : null;
            if (tag != null && !tag.pattern().equals("\\{(.+?)\\}")) throw new AssertionError(tag.pattern());
            Map<Object, Integer> index = new IdentityHashMap<>();
            ShardedJedis sj = build(named, tag, servers, index);
            List<String> out = new ArrayList<>();
            if (params.length > 2 && params[2].equals("points")) {
                String n = Integer.toString(points(sj));
                for (int i = 0; i < keys.size(); i++) out.add(n);
                return out;
            }
            for (String k : keys) {
                try {
                    Object info = sj.getShardInfo(k);
                    out.add(Integer.toString(index.get(info)));
                } catch (RuntimeException e) {
                    out.add(null);
                }
            }
            return out;
        });
    }
}
