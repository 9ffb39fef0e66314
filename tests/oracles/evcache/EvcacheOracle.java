// Oracle driver for Netflix EVCache's node locator (run by generate.sh, line protocol of
// tests/oracles/lib/LineIO.java). Per job: params = <op>, op "locate" or "nodes"; servers =
// host, port, address (the IP the client resolved the host to; for an IP literal the literal).
//
// It builds the REAL com.netflix.evcache.pool.EVCacheNodeLocator with the arguments that
// BaseConnectionFactory.createLocator passes: DefaultHashAlgorithm.KETAMA_HASH and a REAL
// EVCacheKetamaNodeLocatorConfiguration (bucket size from the client's dynamic property, default
// 160). The nodes are java.lang.reflect.Proxy stand-ins for MemcachedNode whose
// getSocketAddress() is new InetSocketAddress(InetAddress.getByAddress(host, ipBytes), port):
// for an IP literal host = its getHostAddress() text, which is what getHostName() returns for an
// IP with no PTR record, without a reverse-DNS query; for a host name, the name with the address
// it resolved to. No DNS query, no connection.
// The EVCacheClient the locator and its configuration read their property names from
// (getAppName, getServerGroupName) is allocated without running its constructor (that would
// open connections); only its appName field is set.
//
// locate: getPrimary(key) per key -> index of the node.
// nodes:  one answer per server instead of per key: hex of config.getKeyForNode(node, 0).
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import com.netflix.evcache.pool.EVCacheClient;
import com.netflix.evcache.pool.EVCacheKetamaNodeLocatorConfiguration;
import com.netflix.evcache.pool.EVCacheNodeLocator;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.MemcachedNode;

public final class EvcacheOracle {
    static MemcachedNode standIn(final InetSocketAddress addr) {
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "getSocketAddress": return addr;
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return "StandIn(" + addr + ")";
                default: throw new UnsupportedOperationException(m.getName());
            }
        };
        return (MemcachedNode) Proxy.newProxyInstance(EvcacheOracle.class.getClassLoader(),
                new Class<?>[] {MemcachedNode.class}, h);
    }

    static EVCacheClient client() throws Exception {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);
        EVCacheClient c = (EVCacheClient) u.allocateInstance(EVCacheClient.class);
        Field app = EVCacheClient.class.getDeclaredField("appName");
        app.setAccessible(true);
        app.set(c, "EVCACHE_ORACLE");
        return c;
    }

    static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) b.append(String.format("%02x", x & 0xff));
        return b.toString();
    }

    public static void main(String[] argv) throws Exception {
        final EVCacheClient client = client();
        LineIO.serve((params, servers, keys) -> {
            List<MemcachedNode> nodes = new ArrayList<>();
            Map<MemcachedNode, Integer> index = new IdentityHashMap<>();
            for (String[] s : servers) {
                InetAddress ip = InetAddress.getByName(s[2]); // an IP literal: parsed, no lookup
                String host = s[0].equals(s[2]) ? ip.getHostAddress() : s[0];
                InetAddress a = InetAddress.getByAddress(host, ip.getAddress());
                MemcachedNode n = standIn(new InetSocketAddress(a, Integer.parseInt(s[1])));
                index.put(n, nodes.size());
                nodes.add(n);
            }
            EVCacheKetamaNodeLocatorConfiguration conf = new EVCacheKetamaNodeLocatorConfiguration(client);
            List<String> out = new ArrayList<>();
            if (params[0].equals("nodes")) {
                for (MemcachedNode n : nodes) out.add(hex(conf.getKeyForNode(n, 0)));
                out.add(Integer.toString(conf.getNodeRepetitions()));
                return out;
            }
            EVCacheNodeLocator loc = new EVCacheNodeLocator(client, nodes, DefaultHashAlgorithm.KETAMA_HASH, conf);
            for (String k : keys) out.add(Integer.toString(index.get(loc.getPrimary(k))));
            return out;
        });
    }
}
