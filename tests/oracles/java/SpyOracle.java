// Oracle driver for spymemcached (net.spy.memcached), run by tests/oracles/java/generate.sh.
//
// It builds the REAL net.spy.memcached.KetamaNodeLocator (and calls the real
// DefaultHashAlgorithm) with stand-in MemcachedNode objects: a java.lang.reflect.Proxy whose
// getSocketAddress() returns the InetSocketAddress the client would hold. No connection is made
// and no DNS query is sent (see README.md for how each address kind is built).
//
// Input (stdin, one record per line, fields separated by one space):
//   T <id> <op> <alg> <format> <weighted>   op: hash | locate | sequence
//   S <kind> <host> <port> <weight>          kind: ip | name
//   K <hex of the key's UTF-8 bytes>
//   E                                        end of task
// Output (stdout): per task
//   R <id>
//   N <index> <hex of the node string the formatter returns for repetition 0, "-0" removed>
//   P <map size> <points put>                (locate / sequence only; puts counted from the
//                                            locator's own debug log, see CountingLogger)
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
    // Installed with -Dnet.spy.log.LoggerImpl=SpyOracle$CountingLogger: counts the locator's own
    // "Adding node ... in position ..." debug messages, i.e. the TreeMap.put calls it makes, so
    // that (puts - map size) = points lost to ties, as the real code built them.
    public static long puts = 0;

    public static final class CountingLogger extends net.spy.memcached.compat.log.AbstractLogger {
        public CountingLogger(String name) { super(name); }
        public boolean isDebugEnabled() { return true; }
        public boolean isInfoEnabled() { return true; }
        public boolean isTraceEnabled() { return false; }
        public void log(net.spy.memcached.compat.log.Level level, Object msg, Throwable t) {
            if (msg != null && String.valueOf(msg).startsWith("Adding node ")) { puts++; return; }
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

    static MemcachedNode node(final InetSocketAddress sa) {
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "getSocketAddress": return sa;
                case "isActive": return Boolean.TRUE;
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return "StandInNode(" + sa + ")";
                default: throw new UnsupportedOperationException(m.getName());
            }
        };
        return (MemcachedNode) Proxy.newProxyInstance(SpyOracle.class.getClassLoader(),
                new Class<?>[] {MemcachedNode.class}, h);
    }

    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        String line;
        String id = null, op = null, alg = null, format = null;
        boolean weighted = false;
        List<String[]> servers = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "T":
                    id = f[1]; op = f[2]; alg = f[3]; format = f[4]; weighted = f[5].equals("1");
                    servers.clear(); keys.clear();
                    break;
                case "S": servers.add(f); break;
                case "K": keys.add(unhex(f.length > 1 ? f[1] : "")); break;
                case "E":
                    out.println("R " + id);
                    run(out, op, alg, format, weighted, servers, keys);
                    out.println("D");
                    break;
                default: throw new IllegalArgumentException(line);
            }
        }
        out.flush();
    }

    @SuppressWarnings("unchecked")
    static void run(PrintStream out, String op, String alg, String format, boolean weighted,
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
            MemcachedNode n = node(sa);
            index.put(n, nodes.size());
            nodes.add(n);
            weights.put(sa, Integer.parseInt(s[4]));
        }
        KetamaNodeLocator loc;
        puts = 0;
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
        if (!weighted && h != DefaultHashAlgorithm.KETAMA_HASH) {
            // this branch of setKetamaNodes logs nothing: it is a fixed loop of numReps puts per node
            puts = (long) new DefaultKetamaNodeLocatorConfiguration().getNodeRepetitions() * nodes.size();
        }
        out.println("P " + ring.size() + " " + puts);
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
