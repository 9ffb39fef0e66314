package org.ketama;

import java.net.InetAddress;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One memcached server as the caller gives it: its label ({@code host:port},
 * {@code [ipv6]:port} or {@code host}: what lookups return), its weight (0 to 2^32 - 1; its
 * meaning depends on the profile) and optionally a name (twemproxy's server name; for the Java
 * profiles and groupcache the exact node string the client hashes). Immutable. The label is
 * checked when a ring is built ({@link BadLabelException}).
 */
public final class Server {
    private final String label;
    private final long weight;
    private final String name;

    /** A server without a name. */
    public Server(String label, long weight) {
        this(label, weight, null);
    }

    /** A server with a name ({@code null} or empty: none). */
    public Server(String label, long weight, String name) {
        this.label = Objects.requireNonNull(label, "label");
        this.weight = weight;
        this.name = name == null || name.isEmpty() ? null : name;
    }

    /**
     * The label of a socket address as the clients' configuration spells it: the host as
     * given (a name stays a name; no DNS is done), or the IP literal when the address was made
     * from one, then {@code :port}; IPv6 literals in brackets. Used by the client adapters.
     */
    public static String labelOf(InetSocketAddress a) {
        String host = a.getHostString();
        InetAddress ip = a.getAddress();
        if (ip instanceof Inet6Address && host.equals(ip.getHostAddress())) {
            host = ip.getHostAddress();
            int zone = host.indexOf('%');
            if (zone >= 0) {
                host = host.substring(0, zone);
            }
        }
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return host + ":" + a.getPort();
    }

    /** The label, as given. */
    public String label() {
        return label;
    }

    /** The weight, as given. */
    public long weight() {
        return weight;
    }

    /** The name, or {@code null}. */
    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Server)) {
            return false;
        }
        Server s = (Server) o;
        return label.equals(s.label) && weight == s.weight && Objects.equals(name, s.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(label, weight, name);
    }

    @Override
    public String toString() {
        return name == null ? label + " (weight " + weight + ")" : label + " (weight " + weight + ", name " + name + ")";
    }
}
