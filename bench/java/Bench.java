import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import org.ketama.Ring;
import org.ketama.Server;

/**
 * The Java port's lookup against spymemcached's own KetamaNodeLocator.getPrimary, in one JVM
 * run: the same 100 servers, the same ring (profile spymemcached, KETAMA_HASH), the same keys
 * ({@code user:N:profile}); both sides interleaved, each warmed up first. Prints a table row
 * and the ratio (their time / ours). A benchmark, not a test.
 */
public final class Bench {
    static final int SERVERS = 100;
    static final int KEYS = 1 << 16;
    static final int ROUNDS = 15;
    static final int PASSES = 8;
    static volatile Object sink;

    static MemcachedNode node(InetSocketAddress a) {
        return (MemcachedNode) Proxy.newProxyInstance(MemcachedNode.class.getClassLoader(), new Class<?>[] {MemcachedNode.class},
            (proxy, m, args) -> {
                switch (m.getName()) {
                    case "getSocketAddress": return a;
                    case "toString": return String.valueOf(a);
                    case "hashCode": return System.identityHashCode(proxy);
                    case "equals": return proxy == args[0];
                    default: throw new UnsupportedOperationException(m.getName());
                }
            });
    }

    interface Lookup {
        Object at(String key);
    }

    /** Nanoseconds per key of one timed pass over every key. */
    static double pass(Lookup f, String[] keys) {
        long t0 = System.nanoTime();
        Object last = null;
        int h = 0;
        for (int p = 0; p < PASSES; p++) {
            for (String k : keys) {
                last = f.at(k);
                h += System.identityHashCode(last);
            }
        }
        long dt = System.nanoTime() - t0;
        sink = h + "" + last;
        return (double) dt / ((long) PASSES * keys.length);
    }

    public static void main(String[] args) throws Exception {
        List<MemcachedNode> nodes = new ArrayList<>();
        List<Server> servers = new ArrayList<>();
        for (int i = 0; i < SERVERS; i++) {
            byte[] ip = {10, 0, (byte) (i / 250), (byte) (1 + i % 250)};
            InetSocketAddress a = new InetSocketAddress(InetAddress.getByAddress(ip), 11211);
            nodes.add(node(a));
            servers.add(new Server(Server.labelOf(a), 1));
        }
        KetamaNodeLocator theirs = new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH);
        Ring ring = Ring.create("spymemcached", "KETAMA_HASH", servers);
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "user:" + i + ":profile";
        }
        // Same answers first: the comparison is between two placements of one ring.
        for (String k : keys) {
            if (nodes.get(ring.index(k)) != theirs.getPrimary(k)) {
                throw new AssertionError("the rings disagree on " + k);
            }
        }
        Lookup spy = theirs::getPrimary;
        Lookup ours = ring::get;
        Lookup oursIndex = ring::index;
        for (int w = 0; w < 5; w++) {
            pass(spy, keys);
            pass(ours, keys);
            pass(oursIndex, keys);
        }
        double[] a = new double[ROUNDS], b = new double[ROUNDS], c = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            a[r] = pass(spy, keys);
            b[r] = pass(ours, keys);
            c[r] = pass(oursIndex, keys);
        }
        Arrays.sort(a);
        Arrays.sort(b);
        Arrays.sort(c);
        double spyNs = a[ROUNDS / 2], oursNs = b[ROUNDS / 2], idxNs = c[ROUNDS / 2];
        System.out.printf("java %s, %d servers (160 points each), %d keys user:N:profile, median of %d rounds x %d passes%n",
            System.getProperty("java.version"), SERVERS, KEYS, ROUNDS, PASSES);
        System.out.printf("| Java `Ring.get(String)` (profile spymemcached, KETAMA_HASH) | spymemcached 2.12.3 `KetamaNodeLocator.getPrimary` | %.0f ns | %.0f ns | %.2fx | >= 1.5x | %s |%n",
            spyNs, oursNs, spyNs / oursNs, spyNs / oursNs >= 1.5 ? "yes" : "no");
        System.out.printf("| Java `Ring.index(String)` | spymemcached 2.12.3 `KetamaNodeLocator.getPrimary` | %.0f ns | %.0f ns | %.2fx | (no goal) | - |%n",
            spyNs, idxNs, spyNs / idxNs);
        System.out.printf("ratio %.2f%n", spyNs / oursNs);
    }
}
