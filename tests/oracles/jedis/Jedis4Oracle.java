// Drives the real Jedis 4.x JedisSharding. Protocol: LineIO. Job parameters: `none|default`
// (no key-tag pattern, or JedisSharding.DEFAULT_KEY_TAG_PATTERN); servers: host, port.
// Per key, the JedisSharding's own ShardedCommandObjects builds `GET key`; its
// ShardedCommandArguments.getKeyHash() goes to ShardedConnectionProvider.getNode, the node
// getConnection(CommandArguments) would ask a pool for (no pool is asked: nothing connects).
// Answer: the list index of that HostAndPort, or `x` if the client threw. A job with a third
// parameter `points` answers the number of points on the ring for every key.
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisSharding;
import redis.clients.jedis.ShardedCommandArguments;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.ShardedConnectionProvider;

public final class Jedis4Oracle {
    static Object field(Class<?> c, Object o, String name) throws Exception {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    public static void main(String[] args) throws Exception {
        LineIO.serve((params, servers, keys) -> {
            Pattern tag = params[0].equals("default") ? JedisSharding.DEFAULT_KEY_TAG_PATTERN : null;
            if (tag != null && !tag.pattern().equals("\\{(.+?)\\}")) throw new AssertionError(tag.pattern());
            List<HostAndPort> nodes = new ArrayList<>();
            for (String[] s : servers) nodes.add(new HostAndPort(s[0], Integer.parseInt(s[1])));
            // the provider JedisSharding(List<HostAndPort>) builds: default client config, no pool config
            ShardedConnectionProvider provider = new ShardedConnectionProvider(nodes);
            JedisSharding sharding = tag == null ? new JedisSharding(provider) : new JedisSharding(provider, tag);
            CommandObjects co = (CommandObjects) field(UnifiedJedis.class, sharding, "commandObjects");
            List<String> out = new ArrayList<>();
            if (params.length > 1 && params[1].equals("points")) {
                String n = Integer.toString(((Map<?, ?>) field(ShardedConnectionProvider.class, provider, "nodes")).size());
                for (int i = 0; i < keys.size(); i++) out.add(n);
                return out;
            }
            for (String k : keys) {
                try {
                    ShardedCommandArguments a = (ShardedCommandArguments) co.get(k).getArguments();
                    HostAndPort hp = provider.getNode(a.getKeyHash());
                    int i = -1;
                    for (int j = 0; j < nodes.size(); j++) if (nodes.get(j) == hp) i = j;
                    if (i < 0) throw new AssertionError("unknown node " + hp);
                    out.add(Integer.toString(i));
                } catch (RuntimeException e) {
                    out.add(null);
                }
            }
            sharding.close();
            return out;
        });
    }
}
