// Oracle driver for xmemcached's gwhalin-compatible ketama mode (run by generate.sh, line protocol
// of tests/oracles/lib/LineIO.java). Per job: servers = kind (ip | name), host, port, weight.
//
// It builds the REAL net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator(KETAMA_HASH,
// false, true) and calls updateSessions(list) (what the client calls when its sessions change),
// then getSessionByKey(key) per key. Sessions are java.lang.reflect.Proxy stand-ins implementing
// MemcachedSession, each with a real InetSocketAddressWrapper(addr, order, weight, null, false).
// The gwhalin mode hashes getInetSocketAddress().getHostName() + ":" + port. For an IP literal
// (AddrUtil builds new InetSocketAddress(ip, port)) getHostName() does a REVERSE lookup and,
// with no PTR record, returns the literal as InetAddress.getHostAddress() prints it (IPv6
// uncompressed: 2001:db8:0:0:0:0:0:1). To get exactly that without any DNS query, IP literals are
// built as InetAddress.getByAddress(lit.getHostAddress(), lit.getAddress()) (same as the
// spymemcached oracle). Host names: InetSocketAddress.createUnresolved(host, port), getHostName()
// = the name as written (the real client's forward lookup keeps the name).
// Answer: index of the chosen server; x when the client throws (empty key).
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import com.google.code.yanf4j.core.Session;
import net.rubyeye.xmemcached.HashAlgorithm;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;
import net.rubyeye.xmemcached.networking.MemcachedSession;
import net.rubyeye.xmemcached.utils.InetSocketAddressWrapper;

public final class XmcGwhalinOracle {
    static MemcachedSession session(final InetSocketAddress sa, int order, final int weight) {
        final InetSocketAddressWrapper w = new InetSocketAddressWrapper(sa, order, weight, null, false);
        w.setRemoteAddressStr(String.valueOf(sa)); // as MemcachedConnector.addSession does
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "getRemoteSocketAddress": return sa;
                case "getInetSocketAddressWrapper": return w;
                case "getWeight": return weight;
                case "getOrder": return order;
                case "isClosed": return false;
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return "StandInSession(" + sa + ")";
                default: throw new UnsupportedOperationException(m.getName());
            }
        };
        return (MemcachedSession) Proxy.newProxyInstance(XmcGwhalinOracle.class.getClassLoader(),
                new Class<?>[] {MemcachedSession.class}, h);
    }

    public static void main(String[] argv) throws Exception {
        LineIO.serve((params, servers, keys) -> {
            List<Session> sessions = new ArrayList<>();
            Map<Session, Integer> index = new IdentityHashMap<>();
            for (String[] s : servers) {
                int port = Integer.parseInt(s[2]);
                InetSocketAddress sa;
                if (s[0].equals("name")) {
                    sa = InetSocketAddress.createUnresolved(s[1], port);
                } else {
                    // a literal is parsed without a lookup; then pin its host name to its text form
                    InetAddress lit = InetAddress.getByName(s[1]);
                    sa = new InetSocketAddress(InetAddress.getByAddress(lit.getHostAddress(), lit.getAddress()), port);
                }
                MemcachedSession ms = session(sa, sessions.size(), Integer.parseInt(s[3]));
                index.put(ms, sessions.size());
                sessions.add(ms);
            }
            KetamaMemcachedSessionLocator loc =
                    new KetamaMemcachedSessionLocator(HashAlgorithm.KETAMA_HASH, false, true);
            loc.updateSessions(sessions);
            List<String> out = new ArrayList<>();
            for (String k : keys) {
                Session s;
                try {
                    s = loc.getSessionByKey(k);
                } catch (RuntimeException e) {
                    out.add(null);
                    continue;
                }
                out.add(s == null ? null : Integer.toString(index.get(s)));
            }
            return out;
        });
    }
}
