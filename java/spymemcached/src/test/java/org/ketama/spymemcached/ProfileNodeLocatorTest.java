package org.ketama.spymemcached;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import org.junit.jupiter.api.Test;

/** Our locator against spymemcached's own KetamaNodeLocator, on the same nodes. */
class ProfileNodeLocatorTest {
    /** A node that only knows its address (no connection is ever made). */
    static MemcachedNode node(String host, int port) {
        InetSocketAddress a = new InetSocketAddress(host, port);
        return (MemcachedNode) Proxy.newProxyInstance(MemcachedNode.class.getClassLoader(), new Class<?>[] {MemcachedNode.class},
            (proxy, m, args) -> {
                switch (m.getName()) {
                    case "getSocketAddress": return a;
                    case "toString": return "node " + a;
                    case "hashCode": return System.identityHashCode(proxy);
                    case "equals": return proxy == args[0];
                    case "isActive": return true;
                    default: throw new UnsupportedOperationException(m.getName());
                }
            });
    }

    static List<MemcachedNode> nodes(int n) {
        List<MemcachedNode> l = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            l.add(node("10.0.1." + i, 11211 + (i % 3)));
        }
        return l;
    }

    @Test
    void primaryAndSequenceEqualSpymemcachedsOwn() {
        for (DefaultHashAlgorithm alg : new DefaultHashAlgorithm[] {DefaultHashAlgorithm.KETAMA_HASH, DefaultHashAlgorithm.FNV1A_32_HASH, DefaultHashAlgorithm.NATIVE_HASH}) {
            List<MemcachedNode> nodes = nodes(9);
            KetamaNodeLocator theirs = new KetamaNodeLocator(nodes, alg);
            ProfileNodeLocator ours = new ProfileNodeLocator(nodes, "spymemcached", alg.name());
            for (int k = 0; k < 5000; k++) {
                String key = "key:" + k + (k % 7 == 0 ? "é" : "");
                assertSame(theirs.getPrimary(key), ours.getPrimary(key), alg + " " + key);
                Iterator<MemcachedNode> a = theirs.getSequence(key), b = ours.getSequence(key);
                while (a.hasNext()) {
                    assertSame(a.next(), b.next(), alg + " sequence " + key);
                }
                assertEquals(false, b.hasNext());
            }
        }
    }

    @Test
    void anyProfileAndUpdates() {
        List<MemcachedNode> nodes = nodes(4);
        ProfileNodeLocator loc = new ProfileNodeLocator(nodes, "libmemcached-weighted");
        String label = loc.ring().get("user:1");
        MemcachedNode primary = loc.getPrimary("user:1");
        assertEquals(label, org.ketama.Server.labelOf((InetSocketAddress) primary.getSocketAddress()));
        Iterator<MemcachedNode> seq = loc.getSequence("user:1");
        int n = 0;
        while (seq.hasNext()) {
            MemcachedNode x = seq.next();
            assertEquals(false, x == primary);
            n++;
        }
        assertEquals(3, n);
        NodeLocator ro = loc.getReadonlyCopy();
        assertEquals(primary.getSocketAddress(), ro.getPrimary("user:1").getSocketAddress());
        loc.updateLocator(nodes.subList(0, 1));
        assertSame(nodes.get(0), loc.getPrimary("user:1"));
        assertEquals(1, loc.getAll().size());
    }
}
