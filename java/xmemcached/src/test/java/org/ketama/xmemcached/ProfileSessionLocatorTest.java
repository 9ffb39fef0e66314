package org.ketama.xmemcached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.code.yanf4j.core.Session;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import net.rubyeye.xmemcached.HashAlgorithm;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;
import net.rubyeye.xmemcached.networking.MemcachedSession;
import net.rubyeye.xmemcached.utils.InetSocketAddressWrapper;
import org.junit.jupiter.api.Test;

/** Our locator against xmemcached's own KetamaMemcachedSessionLocator, on the same sessions. */
class ProfileSessionLocatorTest {
    /** A session to {@code host} (an IPv4 literal) as a connected socket reports it: no host name. */
    static Session session(String host, int port, int weight, boolean[] closed) throws Exception {
        byte[] ip = new byte[4];
        String[] parts = host.split("\\.");
        for (int i = 0; i < 4; i++) {
            ip[i] = (byte) Integer.parseInt(parts[i]);
        }
        InetSocketAddress a = new InetSocketAddress(java.net.InetAddress.getByAddress(ip), port);
        // A wrapper that does not resolve, its address string set as MemcachedConnector.addSession sets it.
        InetSocketAddressWrapper w = new InetSocketAddressWrapper(a, 0, weight, null, false);
        w.setRemoteAddressStr(String.valueOf(a));
        return (Session) Proxy.newProxyInstance(MemcachedSession.class.getClassLoader(), new Class<?>[] {MemcachedSession.class},
            (proxy, m, args) -> {
                switch (m.getName()) {
                    case "getRemoteSocketAddress": return a;
                    case "getInetSocketAddressWrapper": return w;
                    case "getWeight": return weight;
                    case "getOrder": return 0;
                    case "isClosed": return closed[0];
                    case "toString": return "session " + a;
                    case "hashCode": return System.identityHashCode(proxy);
                    case "equals": return proxy == args[0];
                    default: throw new UnsupportedOperationException(m.getName());
                }
            });
    }

    @Test
    void sessionsEqualXmemcachedsOwn() throws Exception {
        for (HashAlgorithm alg : new HashAlgorithm[] {HashAlgorithm.KETAMA_HASH, HashAlgorithm.FNV1A_32_HASH, HashAlgorithm.ONE_AT_A_TIME}) {
            List<Session> sessions = new ArrayList<>();
            boolean[] open = {false};
            for (int i = 1; i <= 7; i++) {
                sessions.add(session("10.0.2." + i, 11211, 1 + i % 3, open));
            }
            KetamaMemcachedSessionLocator theirs = new KetamaMemcachedSessionLocator(alg);
            theirs.updateSessions(sessions);
            ProfileSessionLocator ours = new ProfileSessionLocator("xmemcached", alg.name());
            ours.updateSessions(sessions);
            for (int k = 0; k < 5000; k++) {
                String key = "key:" + k;
                assertSame(theirs.getSessionByKey(key), ours.getSessionByKey(key), alg + " " + key);
            }
        }
    }

    @Test
    void followsTheFailoverOrderPastClosedServers() throws Exception {
        boolean[] up = {false}, down = {true};
        List<Session> sessions = List.of(session("10.0.3.1", 11211, 1, down), session("10.0.3.2", 11211, 1, up));
        ProfileSessionLocator ours = new ProfileSessionLocator("libmemcached-weighted");
        assertNull(ours.getSessionByKey("k"));
        ours.updateSessions(sessions);
        for (int k = 0; k < 100; k++) {
            assertSame(sessions.get(1), ours.getSessionByKey("k" + k));
        }
        ours.setFailureMode(true);
        int onDown = 0;
        for (int k = 0; k < 100; k++) {
            onDown += ours.getSessionByKey("k" + k) == sessions.get(0) ? 1 : 0;
        }
        assertEquals(true, onDown > 0);
    }
}
