package org.ketama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Labels and node strings, as core's server.rs tests them. */
class LabelsTest {
    static String node(Profile.Node f, String label) {
        return Address.parse(label).nodeString(f);
    }

    @Test
    void nodeStrings() {
        assertEquals("10.0.0.1", node(Profile.Node.OMIT_DEFAULT_PORT, "10.0.0.1:11211"));
        assertEquals("10.0.0.2:12000", node(Profile.Node.OMIT_DEFAULT_PORT, "10.0.0.2:12000"));
        assertEquals("/cache1.lan:11211", node(Profile.Node.SLASH_LABEL, "cache1.lan:11211"));
        assertEquals("10.0.0.1:11211", node(Profile.Node.JAVA_SPY, "10.0.0.1:11211"));
        assertEquals("cache1.lan/<unresolved>:11211", node(Profile.Node.JAVA_SPY, "cache1.lan:11211"));
        assertEquals("/10.0.0.1:11211", node(Profile.Node.JAVA_XMC, "10.0.0.1:11211"));
        assertEquals("/[0:0:0:0:0:0:0:1]:11211", node(Profile.Node.JAVA_XMC, "[::1]:11211"));
        assertEquals("10.0.0.2:12000", node(Profile.Node.JAVA_NGINX, "10.0.0.2:12000"));
        assertEquals("10.0.0.1", node(Profile.Node.JAVA_NGINX, "10.0.0.1:11211"));
        assertEquals("10.0.0.1\u000011211", node(Profile.Node.NGINX_HOST_NUL_PORT, "10.0.0.1:11211"));
        assertEquals("[2001:db8::1]\u000011211", node(Profile.Node.NGINX_HOST_NUL_PORT, "[2001:db8::1]:11211"));
        assertEquals("2001:db8:0:0:0:0:0:1:11211", node(Profile.Node.JAVA_HOST_NAME_PORT, "[2001:db8::1]:11211"));
        assertThrows(UnsupportedException.class, () -> node(Profile.Node.JAVA_NGINX, "cache1:11211"));
        assertEquals("redis://10.0.0.1:6379/0", node(Profile.Node.REDIS_URL_DB, "10.0.0.1:6379"));
        assertEquals("redis://::1:11211/0", node(Profile.Node.REDIS_URL_DB, "[::1]"));
        assertEquals("redis://[::1]:6379", node(Profile.Node.REDIS_URL, "[::1]:6379"));
        assertEquals("redis://cache1:6379", node(Profile.Node.REDIS_URL, "cache1:6379"));
        assertEquals("10.0.0.1\u000011211", node(Profile.Node.HOST_NUL_PORT, "10.0.0.1"));
        assertEquals("2001:db8::1\u00006379", node(Profile.Node.HOST_NUL_PORT, "[2001:db8::1]:6379"));
        assertEquals("10.0.0.1:11211", node(Profile.Node.IP_END_POINT, "10.0.0.1"));
        assertThrows(UnsupportedException.class, () -> node(Profile.Node.IP_END_POINT, "cache1:11211"));
    }

    /** .NET's IPEndPoint form of IPv6: RFC 5952 compression, as Rust's Ipv6Addr prints it. */
    @Test
    void compressedIpv6() {
        String[][] cases = {
            {"[2001:db8:0:0:0:0:0:1]:11211", "[2001:db8::1]:11211"},
            {"[::1]:1", "[::1]:1"},
            {"[::]:1", "[::]:1"},
            {"[1:0:0:2:0:0:0:3]:1", "[1:0:0:2::3]:1"},
            {"[1:0:0:2:0:0:3:4]:1", "[1::2:0:0:3:4]:1"},
            {"[1:0:2:3:4:5:6:7]:1", "[1:0:2:3:4:5:6:7]:1"},
            {"[2001:DB8::A]:1", "[2001:db8::a]:1"},
            {"[::ffff:10.0.0.1]:1", "[::ffff:10.0.0.1]:1"},
            {"[::10.0.0.1]:1", "[::a00:1]:1"},
            {"[1::]:1", "[1::]:1"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], node(Profile.Node.IP_END_POINT, c[0]), c[0]);
        }
    }

    /** Jedis's node strings: the place in the list, and the name (or label) with the weight. */
    @Test
    void jedisNodeStrings() {
        Ring unnamed = Ring.create("jedis", null, List.of(new Server("10.0.0.1:6379", 2), new Server("10.0.0.2:6379", 1)));
        assertEquals("SHARD-0", unnamed.nodeString(0));
        assertEquals("SHARD-1", unnamed.nodeString(1));
        Ring named = Ring.create("jedis-2-named", null, List.of(new Server("10.0.0.1:6379", 2, "a"), new Server("10.0.0.2:6379", 3)));
        assertEquals("a*2", named.nodeString(0));
        assertEquals("10.0.0.2:6379*3", named.nodeString(1));
    }

    /** redis-shard encodes node names in latin-1; one it cannot encode is refused. */
    @Test
    void latin1NodeNames() {
        assertEquals(1, Ring.create("redis-shard", null, List.of(new Server("10.0.0.1:6379", 1, "n\u00e9"))).size());
        assertThrows(UnsupportedException.class,
            () -> Ring.create("redis-shard", null, List.of(new Server("10.0.0.1:6379", 1, "\u043a\u043b\u044e\u0447"))));
    }

    @Test
    void badLabels() {
        for (String l : new String[] {"", "a b:1", "h:notaport", "h:70000", "[::1", "[::1]x", "a:b:c:", "::1:11211x", "h:011211", "h:0", "h:+1", "[x]:1", "h\u00a0:1", "\ufeffh:1", ":1"}) {
            assertThrows(BadLabelException.class, () -> Address.parse(l), l);
        }
    }

    @Test
    void addresses() {
        assertNotNull(Address.ipv6("::"));
        assertNotNull(Address.ipv6("::ffff:1.2.3.4"));
        assertNotNull(Address.ipv6("1:2:3:4:5:6:7:8"));
        assertNotNull(Address.ipv6("1::"));
        assertNull(Address.ipv6("1:2:3:4:5:6:7:8:9"));
        assertNull(Address.ipv6("1:2:3:4:5:6:7::8"));
        assertNull(Address.ipv6("1::2::3"));
        assertNull(Address.ipv6("12345::"));
        assertNull(Address.ipv6("1:2:3:4:5:6:7:"));
        assertNull(Address.ipv6("::1.2.3"));
        assertNull(Address.ipv4("01.2.3.4"));
        assertNull(Address.ipv4("1.2.3.256"));
        assertNotNull(Address.ipv4("0.0.0.0"));
        assertEquals(Address.Kind.NAME, Address.parse("1.2.3:5").kind);
        assertEquals(Address.Kind.IPV6, Address.parse("::1").kind);
    }

    @Test
    void ipv6SpellingsAreOneEndpoint() {
        assertThrows(DuplicateServerException.class, () -> Ring.create("libketama", null,
            List.of(new Server("[::1]:11211", 1), new Server("[0:0::1]:11211", 1))));
        assertEquals(2, Ring.create("libketama", null,
            List.of(new Server("[::1]:11211", 1), new Server("[::1]", 1))).size());
        assertThrows(DuplicateServerException.class, () -> Ring.create("libketama", null,
            List.of(new Server("::1", 1), new Server("[::1]", 1))));
    }
}
