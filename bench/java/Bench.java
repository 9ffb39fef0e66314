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
 * The Java port's lookups against spymemcached's own KetamaNodeLocator.getPrimary, in one JVM
 * run: the same 100 servers, the same ring (profile spymemcached, KETAMA_HASH), the same keys
 * ({@code user:N:profile}); every path interleaved in each round, each warmed up first.
 * Prints one tab-separated line per path, {@code name ns_per_key} (CPU time, median of the
 * rounds), for bench/java/run.sh. A benchmark, not a test.
 */
public final class Bench {
    static final int SERVERS = 100;
    static final int KEYS = 1 << 16;
    /** Keys per batch call (a multi-get), as bench/rust/examples/port_floor.rs batches them. */
    static final int CHUNK = 1000;
    static final int WARMUP = 5;
    static final int ROUNDS = 15;
    static final int PASSES = 4;
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

    /** One timed path: a pass over every key. */
    interface Pass {
        int over(String[] keys);
    }

    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * CPU nanoseconds per key of PASSES passes: the thread's CPU time, what
     * bench/rust/examples/port_floor.rs reads too, so that a shared machine's figures count
     * only the time the thread ran.
     */
    static double timed(Pass f, String[] keys) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        int h = 0;
        for (int p = 0; p < PASSES; p++) {
            h += f.over(keys);
        }
        long dt = THREADS.getCurrentThreadCpuTime() - t0;
        sink = h;
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
        // Same answers first: the comparison is between placements of one ring.
        String[] many = ring.getMany(keys);
        for (int i = 0; i < KEYS; i++) {
            String k = keys[i];
            if (nodes.get(ring.index(k)) != theirs.getPrimary(k) || !many[i].equals(ring.get(k))) {
                throw new AssertionError("the rings disagree on " + k);
            }
        }
        String[][] chunks = new String[(KEYS + CHUNK - 1) / CHUNK][];
        for (int c = 0; c < chunks.length; c++) {
            chunks[c] = Arrays.copyOfRange(keys, c * CHUNK, Math.min(KEYS, (c + 1) * CHUNK));
        }
        String[] names = {"spymemcached_get_primary", "java_get", "java_index", "java_get_many"};
        Pass[] paths = {
            ks -> {
                int h = 0;
                for (String k : ks) {
                    h += System.identityHashCode(theirs.getPrimary(k));
                }
                return h;
            },
            ks -> {
                int h = 0;
                for (String k : ks) {
                    h += System.identityHashCode(ring.get(k));
                }
                return h;
            },
            ks -> {
                int h = 0;
                for (String k : ks) {
                    h += ring.index(k);
                }
                return h;
            },
            ks -> {
                int h = 0;
                for (String[] chunk : chunks) {
                    String[] got = ring.getMany(chunk);
                    h += System.identityHashCode(got[got.length - 1]);
                }
                return h;
            },
        };
        double[][] t = new double[paths.length][ROUNDS];
        for (int r = 0; r < WARMUP + ROUNDS; r++) {
            for (int p = 0; p < paths.length; p++) {
                double ns = timed(paths[p], keys);
                if (r >= WARMUP) {
                    t[p][r - WARMUP] = ns;
                }
            }
        }
        System.out.printf("# java\t%s, %d servers (160 points each), %d keys user:N:profile, median of %d rounds x %d passes%n",
            System.getProperty("java.version"), SERVERS, KEYS, ROUNDS, PASSES);
        for (int p = 0; p < paths.length; p++) {
            Arrays.sort(t[p]);
            System.out.printf("%s\t%.1f%n", names[p], t[p][ROUNDS / 2]);
        }
    }
}
