// Reads keys back through spymemcached (Debian libspymemcached-java) with our
// org.ketama.spymemcached.ProfileNodeLocator: the Java reader of the mixed fleet.
//   java -cp spymemcached.jar:CLASSES SpyReader PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]
// Without DEAD_LABEL: one MemcachedClient over every server, its locator our ring of PROFILE
// (FailureMode.Cancel: a key of a stopped server is a miss, not a wait). With DEAD_LABEL: for
// each key, Ring.failover(key, 7) is walked to the first server that is not DEAD_LABEL and the
// key is read from that server alone. A hit is the value "w:" + key (raw bytes, whatever the
// writer's flags). Prints "hits=N total=M", then each missed key on its own line.
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import net.spy.memcached.CachedData;
import net.spy.memcached.DefaultConnectionFactory;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import net.spy.memcached.transcoders.Transcoder;
import org.ketama.Ring;
import org.ketama.Server;
import org.ketama.spymemcached.ProfileNodeLocator;

public final class SpyReader {
    /** The stored bytes as they are. */
    static final Transcoder<byte[]> RAW = new Transcoder<byte[]>() {
        public boolean asyncDecode(CachedData d) { return false; }
        public CachedData encode(byte[] o) { return new CachedData(0, o, getMaxSize()); }
        public byte[] decode(CachedData d) { return d.getData(); }
        public int getMaxSize() { return CachedData.MAX_SIZE; }
    };

    static MemcachedClient client(List<InetSocketAddress> addrs, String profile) throws Exception {
        return new MemcachedClient(new DefaultConnectionFactory() {
            @Override public NodeLocator createLocator(List<MemcachedNode> nodes) {
                return profile == null ? super.createLocator(nodes) : new ProfileNodeLocator(nodes, profile);
            }
            @Override public FailureMode getFailureMode() { return FailureMode.Cancel; }
            @Override public long getOperationTimeout() { return 2000; }
        }, addrs);
    }

    static InetSocketAddress address(String label) {
        int c = label.lastIndexOf(':');
        String host = label.substring(0, c);
        if (!host.startsWith("127.")) throw new IllegalArgumentException("loopback only: " + label);
        return new InetSocketAddress(host, Integer.parseInt(label.substring(c + 1)));
    }

    static boolean hit(Future<byte[]> f, String k) {
        try {
            byte[] v = f.get(3, TimeUnit.SECONDS);
            return v != null && Arrays.equals(v, ("w:" + k).getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        String profile = args[0];
        List<String> labels = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[1]))) {
            if (!line.trim().isEmpty()) labels.add(line.trim());
        }
        List<String> keys = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[2]))) {
            if (!line.trim().isEmpty()) keys.add(line);
        }
        String dead = args.length > 3 ? args[3] : null;
        List<String> missed = new ArrayList<>();
        List<MemcachedClient> clients = new ArrayList<>();
        try {
            if (dead == null) {
                List<InetSocketAddress> addrs = new ArrayList<>();
                for (String l : labels) addrs.add(address(l));
                MemcachedClient mc = client(addrs, profile);
                clients.add(mc);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (mc.getAvailableServers().size() < labels.size() && System.nanoTime() < deadline) {
                    Thread.sleep(20); // a stopped server never connects: its keys are misses
                }
                List<Future<byte[]>> fs = new ArrayList<>();
                for (String k : keys) fs.add(mc.asyncGet(k, RAW));
                for (int i = 0; i < keys.size(); i++) {
                    if (!hit(fs.get(i), keys.get(i))) missed.add(keys.get(i));
                }
            } else {
                List<Server> servers = new ArrayList<>();
                for (String l : labels) servers.add(new Server(l, 1));
                Ring ring = Ring.create(profile, null, servers);
                Map<String, MemcachedClient> one = new HashMap<>();
                for (String l : labels) {
                    if (l.equals(dead)) continue;
                    MemcachedClient c = client(List.of(address(l)), null);
                    clients.add(c);
                    one.put(l, c);
                }
                for (String k : keys) {
                    String label = null;
                    for (String s : ring.failover(k, 7)) {
                        if (!s.equals(dead)) { label = s; break; }
                    }
                    if (label == null || !hit(one.get(label).asyncGet(k, RAW), k)) missed.add(k);
                }
            }
        } finally {
            for (MemcachedClient c : clients) c.shutdown(2, TimeUnit.SECONDS);
        }
        StringBuilder out = new StringBuilder();
        out.append("hits=").append(keys.size() - missed.size()).append(" total=").append(keys.size()).append('\n');
        for (String k : missed) out.append(k).append('\n');
        System.out.print(out);
        System.exit(0);
    }
}
