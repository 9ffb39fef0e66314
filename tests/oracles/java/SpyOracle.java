// Oracle driver for spymemcached (net.spy.memcached), run by tests/oracles/java/generate.sh.
//
// It builds the REAL net.spy.memcached.KetamaNodeLocator (and calls the real
// DefaultHashAlgorithm) with stand-in MemcachedNode objects: a java.lang.reflect.Proxy whose
// getSocketAddress() returns the InetSocketAddress the client would hold. No connection is made
// and no DNS query is sent (see README.md for how each address kind is built).
//
// Input (stdin, one record per line, fields separated by one space):
//   T <id> <op> <alg> <format> <weighted> <tiekeys>   op: hash | locate | sequence
//   S <kind> <host> <port> <weight>          kind: ip | name
//   K <hex of the key's UTF-8 bytes>
//   E                                        end of task
// Output (stdout): per task
//   R <id>
//   N <index> <hex of the node string the formatter returns for repetition 0, "-0" removed>
//   P <map size> <points put> <points produced by 2+ nodes>   (locate / sequence only; see
//                                            CountingLogger and the tie search below)
//   X <hex>                                  extra keys: point strings "<node string>-<j>" of the
//                                            first nodes, then keys whose lookup ends on a tied
//                                            point; appended to the keys
//   Q <keys whose ceiling point is tied>

//   one line per key: hash -> decimal value or x (exception);
//                     locate -> server index or x; sequence -> indexes joined by ','
//   D
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.util.DefaultKetamaNodeLocatorConfiguration;

public final class SpyOracle {
    // Installed with -Dnet.spy.log.LoggerImpl=SpyOracle$CountingLogger: reads the locator's own
    // "Adding node <node> [with weight <w>] in position <point>" debug messages (KETAMA_HASH and
    // weighted rings log every TreeMap.put; the other unweighted rings log nothing), so the puts and
    // the points produced by 2+ nodes are taken from what the real code did.
    public static long puts = 0;
    public static final Map<Long, java.util.Set<String>> logged = new HashMap<>();

    public static final class CountingLogger extends net.spy.memcached.compat.log.AbstractLogger {
        public CountingLogger(String name) { super(name); }
        public boolean isDebugEnabled() { return true; }
        public boolean isInfoEnabled() { return true; }
        public boolean isTraceEnabled() { return false; }
        public void log(net.spy.memcached.compat.log.Level level, Object msg, Throwable t) {
            String m = String.valueOf(msg);
            if (msg != null && m.startsWith("Adding node ")) {
                puts++;
                String[] w = m.split(" ");
                logged.computeIfAbsent(Long.parseLong(w[w.length - 1]), x -> new java.util.HashSet<>()).add(w[2]);
                return;
            }
            if (level != net.spy.memcached.compat.log.Level.DEBUG
                    && level != net.spy.memcached.compat.log.Level.TRACE) {
                System.err.println(level + " " + msg);
            }
        }
    }

    static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) b.append(String.format("%02x", x & 0xff));
        return b.toString();
    }

    static String unhex(String h) {
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        return new String(out, StandardCharsets.UTF_8);
    }

    static InetSocketAddress address(String kind, String host, int port, boolean libmemcachedFormat) throws Exception {
        if (kind.equals("name")) {
            // A host name the client could not resolve: JDK 17 prints "host/<unresolved>:port".
            return InetSocketAddress.createUnresolved(host, port);
        }
        if (!kind.equals("ip")) throw new IllegalArgumentException(kind);
        if (libmemcachedFormat) {
            // LIBMEMCACHED format calls getHostName(), which reverse-resolves an IP literal. To send
            // no DNS query we pre-set the host name to getHostAddress() (IPv6 uncompressed):
            // exactly what getHostName() returns for an address without a (forward-confirmed)
            // PTR record.
            InetAddress lit = InetAddress.getByName(host); // a literal is parsed, no lookup
            return new InetSocketAddress(InetAddress.getByAddress(lit.getHostAddress(), lit.getAddress()), port);
        }
        // What AddrUtil.getAddresses("ip:port") builds: a literal is parsed without any lookup.
        return new InetSocketAddress(host, port);
    }

    static MemcachedNode node(final InetSocketAddress sa, final int idx) {
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "getSocketAddress": return sa;
                case "isActive": return Boolean.TRUE;
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return "StandInNode#" + idx; // no spaces: parsed from the log
                default: throw new UnsupportedOperationException(m.getName());
            }
        };
        return (MemcachedNode) Proxy.newProxyInstance(SpyOracle.class.getClassLoader(),
                new Class<?>[] {MemcachedNode.class}, h);
    }

    static Long ceiling(TreeMap<Long, ?> ring, long hv) {
        Long c = ring.ceilingKey(hv);
        return c == null ? ring.firstKey() : c;
    }

    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        String line;
        String id = null, op = null, alg = null, format = null;
        boolean weighted = false;
        int tieKeys = 0;
        List<String[]> servers = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "T":
                    id = f[1]; op = f[2]; alg = f[3]; format = f[4]; weighted = f[5].equals("1");
                    tieKeys = Integer.parseInt(f[6]);
                    servers.clear(); keys.clear();
                    break;
                case "S": servers.add(f); break;
                case "K": keys.add(unhex(f.length > 1 ? f[1] : "")); break;
                case "E":
                    out.println("R " + id);
                    run(out, op, alg, format, weighted, tieKeys, servers, keys);
                    out.println("D");
                    break;
                default: throw new IllegalArgumentException(line);
            }
        }
        out.flush();
    }

    @SuppressWarnings("unchecked")
    static void run(PrintStream out, String op, String alg, String format, boolean weighted, int tieKeys,
                    List<String[]> servers, List<String> keys) throws Exception {
        DefaultHashAlgorithm h = DefaultHashAlgorithm.valueOf(alg);
        if (op.equals("hash")) {
            for (String k : keys) {
                String r;
                try { r = Long.toString(h.hash(k)); } catch (RuntimeException e) { r = "x"; }
                out.println(r);
            }
            return;
        }
        KetamaNodeKeyFormatter.Format fmt = KetamaNodeKeyFormatter.Format.valueOf(format);
        boolean lib = fmt == KetamaNodeKeyFormatter.Format.LIBMEMCACHED;
        List<MemcachedNode> nodes = new ArrayList<>();
        Map<MemcachedNode, Integer> index = new IdentityHashMap<>();
        Map<InetSocketAddress, Integer> weights = new HashMap<>();
        for (String[] s : servers) {
            InetSocketAddress sa = address(s[1], s[2], Integer.parseInt(s[3]), lib);
            MemcachedNode n = node(sa, nodes.size());
            index.put(n, nodes.size());
            nodes.add(n);
            weights.put(sa, Integer.parseInt(s[4]));
        }
        KetamaNodeLocator loc;
        puts = 0;
        logged.clear();
        if (weighted) {
            loc = new KetamaNodeLocator(nodes, h, fmt, weights);
        } else if (lib) {
            // Format without weights: the (nodes, alg, format, weights) constructor with an empty
            // weight map is the unweighted ring with that format.
            loc = new KetamaNodeLocator(nodes, h, fmt, new HashMap<InetSocketAddress, Integer>());
        } else {
            loc = new KetamaNodeLocator(nodes, h); // the default: SPYMEMCACHED format, no weights
        }
        KetamaNodeKeyFormatter kf = new KetamaNodeKeyFormatter(fmt);
        for (int i = 0; i < nodes.size(); i++) {
            String s0 = kf.getKeyForNode(nodes.get(i), 0);
            out.println("N " + i + " " + hex(s0.substring(0, s0.length() - 2)));
        }
        Field fld = KetamaNodeLocator.class.getDeclaredField("ketamaNodes");
        fld.setAccessible(true);
        TreeMap<Long, MemcachedNode> ring = (TreeMap<Long, MemcachedNode>) fld.get(loc);
        java.util.Set<Long> tied = new java.util.HashSet<>();
        if (!weighted && h != DefaultHashAlgorithm.KETAMA_HASH) {
            // This branch of setKetamaNodes logs nothing: it is a fixed loop of numReps puts per
            // node. Its tied points: those found in the rings of two or more single-node locators
            // built by the same constructor (the client's own code computes every point).
            puts = (long) new DefaultKetamaNodeLocatorConfiguration().getNodeRepetitions() * nodes.size();
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (MemcachedNode n : nodes) {
                KetamaNodeLocator one = lib
                        ? new KetamaNodeLocator(java.util.Collections.singletonList(n), h, fmt, new HashMap<InetSocketAddress, Integer>())
                        : new KetamaNodeLocator(java.util.Collections.singletonList(n), h);
                for (Long p : ((TreeMap<Long, MemcachedNode>) fld.get(one)).keySet()) {
                    if (!seen.add(p)) tied.add(p);
                }
            }
        } else {
            for (Map.Entry<Long, java.util.Set<String>> e : logged.entrySet()) {
                if (e.getValue().size() > 1) tied.add(e.getKey());
            }
        }
        out.println("P " + ring.size() + " " + puts + " " + tied.size());
        keys = new ArrayList<>(keys);
        if (tieKeys > 0) {
            // Extra keys equal to point strings of the first nodes ("<node string>-<j>"): with the
            // same hash for points and keys they hit a point exactly (pins ">=" in the lookup).
            for (int i = 0; i < Math.min(4, nodes.size()); i++) {
                for (int j : new int[] {0, 1, 39}) {
                    String k = kf.getKeyForNode(nodes.get(i), j);
                    out.println("X " + hex(k));
                    keys.add(k);
                }
            }
        }
        if (!tied.isEmpty() && tieKeys > 0) {
            // Extra keys "tie:<i>" (i ascending) whose lookup ends on a tied point, to pin the tie
            // rule. Chosen with the client's hash and ring; expectations still come from getPrimary.
            int found = 0;
            for (int i = 0; i < 3_000_000 && found < tieKeys; i++) {
                String k = "tie:" + i;
                if (tied.contains(ceiling(ring, h.hash(k)))) {
                    out.println("X " + hex(k));
                    keys.add(k);
                    found++;
                }
            }
        }
        int onTies = 0;
        for (String k : keys) if (tied.contains(ceiling(ring, h.hash(k)))) onTies++;
        out.println("Q " + onTies);
        for (String k : keys) {
            if (op.equals("locate")) {
                String r;
                try {
                    MemcachedNode n = loc.getPrimary(k);
                    r = n == null ? "x" : Integer.toString(index.get(n));
                } catch (RuntimeException e) { r = "x"; }
                out.println(r);
            } else if (op.equals("sequence")) {
                MemcachedNode primary = loc.getPrimary(k);
                StringBuilder b = new StringBuilder();
                Iterator<MemcachedNode> it = loc.getSequence(k);
                int c = 0;
                while (it.hasNext()) {
                    MemcachedNode n = it.next();
                    if (c == 0 && n != primary) throw new AssertionError("sequence[0] != primary for " + k);
                    if (c++ > 0) b.append(',');
                    b.append(index.get(n));
                }
                out.println(b);
            } else {
                throw new IllegalArgumentException(op);
            }
        }
    }
}
