// Oracle driver for xmemcached (net.rubyeye.xmemcached), run by tests/oracles/java/generate.sh.
//
// It builds the REAL net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator (and calls the
// real HashAlgorithm) with stand-in sessions: a java.lang.reflect.Proxy implementing
// net.rubyeye.xmemcached.networking.MemcachedSession, holding a real InetSocketAddressWrapper
// whose remote-address string is set the way MemcachedConnector does at first connect
// (String.valueOf(session.getRemoteSocketAddress())). No connection, no DNS (see README.md).
//
// Input (stdin, one record per line, fields separated by one space):
//   T <id> <op> <alg> <nginx 0|1> <tiekeys>   op: hash | locate | sequence
//   S <kind> <host> <port> <weight>          kind: ip | name
//   K <hex of the key's UTF-8 bytes>
//   E                                        end of task
// Output (stdout): per task
//   R <id>
//   N <index> <hex of the node string the locator hashes (its private getSockStr)>
//   P <ring size> <points put> <tie points> <tie points with 2+ distinct sessions>
//     <tie points whose list also repeats a session (e.g. [A, A, B]: owner = list[point % 3])>
//   X <hex>                                  extra keys: point strings "<node string>-<j>" of the
//                                            first sessions, then keys whose lookup ends on a point
//                                            shared by 2+ distinct sessions; appended to the keys
//   Q <keys whose ceiling point is shared by 2+ distinct sessions>
//   one line per key: hash -> decimal value or x (exception);
//                     locate -> server index or x;
//                     sequence -> indexes joined by ',' (the walk getSessionByKey makes over
//                     closed sessions: getSessionByHash(h0), then h_t = nextHash(h_{t-1}, key, t));
//                     x when hash(key) throws
//   D
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.google.code.yanf4j.core.Session;
import net.rubyeye.xmemcached.HashAlgorithm;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;
import net.rubyeye.xmemcached.networking.MemcachedSession;
import net.rubyeye.xmemcached.utils.InetSocketAddressWrapper;

public final class XmcOracle {
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

    static InetSocketAddress address(String kind, String host, int port) {
        // IP literal: parsed without any lookup; prints "/10.0.0.1:11211" (what a connected
        // channel reports for it when no PTR name was fetched). Host name: unresolved, prints
        // "host/<unresolved>:port" on JDK >= 14 (the real client only connects to resolved names).
        if (kind.equals("name")) return InetSocketAddress.createUnresolved(host, port);
        if (kind.equals("ip")) return new InetSocketAddress(host, port);
        throw new IllegalArgumentException(kind);
    }

    static final Set<Session> closed = new HashSet<>();

    static MemcachedSession session(final InetSocketAddress sa, int order, final int weight) {
        // resolve = false: the wrapper does not call getHostName() (no reverse DNS).
        final InetSocketAddressWrapper w = new InetSocketAddressWrapper(sa, order, weight, null, false);
        w.setRemoteAddressStr(String.valueOf(sa)); // as MemcachedConnector.addSession does
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "getRemoteSocketAddress": return sa;
                case "getInetSocketAddressWrapper": return w;
                case "getWeight": return weight;
                case "getOrder": return order;
                case "isClosed": return closed.contains(proxy);
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return "StandInSession(" + sa + ")";
                default: throw new UnsupportedOperationException(m.getName());
            }
        };
        return (MemcachedSession) Proxy.newProxyInstance(XmcOracle.class.getClassLoader(),
                new Class<?>[] {MemcachedSession.class}, h);
    }

    static Long ceiling(TreeMap<Long, ?> ring, long hv) {
        Long c = ring.ceilingKey(hv);
        return c == null ? ring.firstKey() : c;
    }

    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        String line;
        String id = null, op = null, alg = null;
        boolean nginx = false;
        int tieKeys = 0;
        List<String[]> servers = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "T":
                    id = f[1]; op = f[2]; alg = f[3]; nginx = f[4].equals("1");
                    tieKeys = Integer.parseInt(f[5]);
                    servers.clear(); keys.clear();
                    break;
                case "S": servers.add(f); break;
                case "K": keys.add(unhex(f.length > 1 ? f[1] : "")); break;
                case "E":
                    out.println("R " + id);
                    run(out, op, alg, nginx, tieKeys, servers, keys);
                    out.println("D");
                    break;
                default: throw new IllegalArgumentException(line);
            }
        }
        out.flush();
    }

    @SuppressWarnings("unchecked")
    static void run(PrintStream out, String op, String alg, boolean nginx, int tieKeys,
                    List<String[]> servers, List<String> keys) throws Exception {
        HashAlgorithm h = HashAlgorithm.valueOf(alg);
        if (op.equals("hash")) {
            for (String k : keys) {
                String r;
                try { r = Long.toString(h.hash(k)); } catch (RuntimeException e) { r = "x"; }
                out.println(r);
            }
            return;
        }
        List<Session> sessions = new ArrayList<>();
        Map<Session, Integer> index = new IdentityHashMap<>();
        long expectedPuts = 0;
        for (String[] s : servers) {
            int weight = Integer.parseInt(s[4]);
            MemcachedSession ms = session(address(s[1], s[2], Integer.parseInt(s[3])), sessions.size(), weight);
            index.put(ms, sessions.size());
            sessions.add(ms);
            expectedPuts += 160L * weight;
        }
        KetamaMemcachedSessionLocator loc = new KetamaMemcachedSessionLocator(h, nginx);
        loc.updateSessions(sessions); // what the client calls when its session list changes
        Method sock = KetamaMemcachedSessionLocator.class.getDeclaredMethod("getSockStr", Session.class);
        sock.setAccessible(true);
        for (int i = 0; i < sessions.size(); i++) {
            out.println("N " + i + " " + hex((String) sock.invoke(loc, sessions.get(i))));
        }
        Field fld = KetamaMemcachedSessionLocator.class.getDeclaredField("ketamaSessions");
        fld.setAccessible(true);
        TreeMap<Long, List<Session>> ring = (TreeMap<Long, List<Session>>) fld.get(loc);
        long puts = 0, ties = 0, mixedDup = 0;
        Set<Long> tied = new HashSet<>();
        for (Map.Entry<Long, List<Session>> e : ring.entrySet()) {
            List<Session> l = e.getValue();
            puts += l.size();
            if (l.size() > 1) {
                ties++;
                Set<Session> d = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                d.addAll(l);
                if (d.size() > 1) tied.add(e.getKey());
                if (d.size() > 1 && d.size() < l.size()) mixedDup++;
            }
        }
        if (puts != expectedPuts) throw new AssertionError("points " + puts + " != 160*sum(w) " + expectedPuts);
        out.println("P " + ring.size() + " " + puts + " " + ties + " " + tied.size() + " " + mixedDup);
        keys = new ArrayList<>(keys);
        if (tieKeys > 0) {
            // Extra keys equal to point strings of the first sessions ("<node string>-<j>"): they
            // hit a point exactly (pins ">=" in the lookup).
            for (int i = 0; i < Math.min(4, sessions.size()); i++) {
                for (int j : new int[] {0, 1, 39}) {
                    String k = sock.invoke(loc, sessions.get(i)) + "-" + j;
                    out.println("X " + hex(k));
                    keys.add(k);
                }
            }
        }
        if (!tied.isEmpty() && tieKeys > 0) {
            // Extra keys "tie:<i>" (i ascending) whose lookup ends on a point shared by 2+
            // distinct sessions, to pin the tie rule. Chosen with the client's hash and ring;
            // expectations still come from getSessionByKey.
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
        for (String k : keys) {
            try { if (tied.contains(ceiling(ring, h.hash(k)))) onTies++; } catch (RuntimeException e) { }
        }
        out.println("Q " + onTies);
        for (String k : keys) {
            if (op.equals("locate")) {
                String r;
                try {
                    Session s = loc.getSessionByKey(k);
                    r = s == null ? "x" : Integer.toString(index.get(s));
                } catch (RuntimeException e) { r = "x"; }
                out.println(r);
            } else if (op.equals("sequence")) {
                // The walk of getSessionByKey when sessions are closed, made with the locator's
                // public getSessionByHash / nextHash: 1 + maxTries (= number of sessions) steps.
                int steps = Math.min(7, 1 + sessions.size());
                long hv;
                try { hv = h.hash(k); } catch (RuntimeException e) { out.println("x"); continue; }
                List<Session> seq = new ArrayList<>();
                seq.add(loc.getSessionByHash(hv));
                for (int t = 1; t < steps; t++) {
                    hv = loc.nextHash(hv, k, t);
                    seq.add(loc.getSessionByHash(hv));
                }
                // Cross-check with getSessionByKey itself: all open -> seq[0]; seq[0] closed ->
                // the first later entry that is not seq[0] (if one is within the walk).
                if (loc.getSessionByKey(k) != seq.get(0)) throw new AssertionError("primary " + k);
                closed.add(seq.get(0));
                Session alt = loc.getSessionByKey(k);
                closed.clear();
                Session want = null;
                for (Session s : seq) if (s != seq.get(0)) { want = s; break; }
                if (want != null && alt != want) throw new AssertionError("failover " + k);
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < seq.size(); i++) {
                    if (i > 0) b.append(',');
                    b.append(index.get(seq.get(i)));
                }
                out.println(b);
            } else {
                throw new IllegalArgumentException(op);
            }
        }
    }
}
