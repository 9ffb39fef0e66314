// Writes keys through spymemcached (Debian libspymemcached-java) with KetamaConnectionFactory,
// the placement our profile `spymemcached` reproduces.
//   java -cp spymemcached.jar:. SpyWriter SERVERS_FILE KEYS_FILE LIVE_COUNT
// SERVERS_FILE: one 127.0.0.1:port per line (the order spymemcached is given them);
// KEYS_FILE: one key per line; each key is stored with the value "w:" + key.
// LIVE_COUNT: how many servers are up; writing starts once spymemcached sees that many
// connected, so with a server down it redistributes (FailureMode.Redistribute, the default)
// along its own failover sequence. Prints "stored=N failed=M", then "failed-key K" for each key
// not stored; exit 1 on any failure. (A key whose primary is down and whose 7 failover tries
// all land on a down server too is put on its primary anyway, and fails: spymemcached's own
// rule, which the caller predicts with our failover(key, 7).)
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import net.spy.memcached.KetamaConnectionFactory;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.OperationFuture;

public final class SpyWriter {
    public static void main(String[] args) throws Exception {
        List<InetSocketAddress> addrs = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            line = line.trim();
            if (line.isEmpty()) continue;
            int c = line.lastIndexOf(':');
            String host = line.substring(0, c);
            if (!host.equals("127.0.0.1")) throw new IllegalArgumentException("loopback only: " + line);
            addrs.add(new InetSocketAddress(host, Integer.parseInt(line.substring(c + 1))));
        }
        List<String> keys = Files.readAllLines(Paths.get(args[1]));
        int live = Integer.parseInt(args[2]);
        MemcachedClient mc = new MemcachedClient(new KetamaConnectionFactory(), addrs);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (mc.getAvailableServers().size() < live) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("servers not connected");
            Thread.sleep(20);
        }
        List<OperationFuture<Boolean>> futures = new ArrayList<>();
        for (String k : keys) {
            if (!k.isEmpty()) futures.add(mc.set(k, 0, "w:" + k));
        }
        int stored = 0, failed = 0;
        List<String> failedKeys = new ArrayList<>();
        for (OperationFuture<Boolean> f : futures) {
            Boolean ok;
            try {
                ok = f.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                ok = false;
            }
            if (Boolean.TRUE.equals(ok)) stored++; else { failed++; failedKeys.add(f.getKey()); }
        }
        mc.shutdown(5, TimeUnit.SECONDS);
        System.out.println("stored=" + stored + " failed=" + failed);
        for (String k : failedKeys) System.out.println("failed-key " + k);
        System.exit(failed == 0 ? 0 : 1);
    }
}
