package org.ketama.spymemcached;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import net.spy.memcached.DefaultConnectionFactory;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.MemcachedNodeROImpl;
import net.spy.memcached.NodeLocator;
import org.ketama.Ring;
import org.ketama.Server;

/**
 * A spymemcached {@link NodeLocator} that places keys by any ketama profile, so a Java
 * service reads the keys a PHP, C, Python or Go client of the same fleet wrote.
 *
 * <pre>{@code
 * MemcachedClient c = new MemcachedClient(ProfileNodeLocator.connectionFactory("libmemcached-weighted", null),
 *     AddrUtil.getAddresses("10.0.0.1:11211 10.0.0.2:11211"));
 * }</pre>
 *
 * Each node becomes a {@link Server} labelled {@code host:port} ({@link Server#labelOf}) of
 * weight 1, unless a mapping is given. The sequence of a key ({@link #getSequence}) is the
 * profile's failover order: for rehashing profiles (spymemcached's own) the client's rehash
 * walk, primary first; for the others the following distinct servers. Thread-safe: a ring is
 * immutable and {@link #updateLocator} swaps in a new one.
 */
public final class ProfileNodeLocator implements NodeLocator {
    /** How many entries spymemcached's own sequence yields. */
    static final int SEQUENCE_TRIES = 7;

    private final String profile;
    private final String hash;
    private final Function<MemcachedNode, Server> toServer;
    private volatile State state;

    /** A ring and its nodes, in one snapshot. */
    private static final class State {
        final Ring ring;
        final MemcachedNode[] nodes;
        final boolean rehash;

        State(Ring ring, MemcachedNode[] nodes, boolean rehash) {
            this.ring = ring;
            this.nodes = nodes;
            this.rehash = rehash;
        }
    }

    /** Nodes placed by {@code profile} with its default hash, each of weight 1. */
    public ProfileNodeLocator(List<MemcachedNode> nodes, String profile) {
        this(nodes, profile, null, ProfileNodeLocator::defaultServer);
    }

    /** Nodes placed by {@code profile} and {@code hash} ({@code null}: the profile's default). */
    public ProfileNodeLocator(List<MemcachedNode> nodes, String profile, String hash) {
        this(nodes, profile, hash, ProfileNodeLocator::defaultServer);
    }

    /**
     * Nodes placed by {@code profile} and {@code hash}, each node made a {@link Server} by
     * {@code toServer} (its label, weight and optional name).
     *
     * @throws org.ketama.KetamaException the ring cannot be built (unknown profile, ...)
     */
    public ProfileNodeLocator(List<MemcachedNode> nodes, String profile, String hash, Function<MemcachedNode, Server> toServer) {
        this.profile = profile;
        this.hash = hash;
        this.toServer = toServer;
        this.state = build(nodes);
    }

    /** {@code host:port} of the node's socket address, weight 1. */
    public static Server defaultServer(MemcachedNode node) {
        SocketAddress a = node.getSocketAddress();
        if (!(a instanceof InetSocketAddress)) {
            throw new IllegalArgumentException("not an IP socket address: " + a);
        }
        return new Server(Server.labelOf((InetSocketAddress) a), 1);
    }

    /**
     * A connection factory whose clients place keys by {@code profile} and {@code hash}
     * ({@code null}: the profile's default); every other setting is spymemcached's default.
     */
    public static DefaultConnectionFactory connectionFactory(String profile, String hash) {
        Ring.create(profile, hash, List.of()); // fail now on a bad name
        return new DefaultConnectionFactory() {
            @Override
            public NodeLocator createLocator(List<MemcachedNode> nodes) {
                return new ProfileNodeLocator(nodes, profile, hash);
            }
        };
    }

    private State build(List<MemcachedNode> nodes) {
        List<Server> servers = new ArrayList<>(nodes.size());
        for (MemcachedNode n : nodes) {
            servers.add(toServer.apply(n));
        }
        Ring ring = Ring.create(profile, hash, servers);
        return new State(ring, nodes.toArray(new MemcachedNode[0]), ring.failoverKind().equals("rehash"));
    }

    /** The ring in use (a snapshot). */
    public Ring ring() {
        return state.ring;
    }

    @Override
    public MemcachedNode getPrimary(String k) {
        State s = state;
        return s.nodes[s.ring.index(k)];
    }

    @Override
    public Iterator<MemcachedNode> getSequence(String k) {
        State s = state;
        List<MemcachedNode> seq = new ArrayList<>();
        if (s.rehash) {
            for (String label : s.ring.failover(k, SEQUENCE_TRIES)) {
                seq.add(nodeOf(s, label));
            }
        } else {
            List<String> all = s.ring.getN(k, s.nodes.length);
            for (String label : all.subList(Math.min(1, all.size()), all.size())) {
                seq.add(nodeOf(s, label));
            }
        }
        return Collections.unmodifiableList(seq).iterator();
    }

    private static MemcachedNode nodeOf(State s, String label) {
        List<Server> servers = s.ring.servers();
        for (int i = 0; i < servers.size(); i++) {
            if (servers.get(i).label().equals(label)) {
                return s.nodes[i];
            }
        }
        throw new IllegalStateException("no node for " + label);
    }

    @Override
    public Collection<MemcachedNode> getAll() {
        return Collections.unmodifiableList(java.util.Arrays.asList(state.nodes));
    }

    @Override
    public NodeLocator getReadonlyCopy() {
        List<MemcachedNode> ro = new ArrayList<>();
        for (MemcachedNode n : state.nodes) {
            ro.add(new MemcachedNodeROImpl(n));
        }
        return new ProfileNodeLocator(ro, profile, hash, toServer);
    }

    @Override
    public void updateLocator(List<MemcachedNode> nodes) {
        state = build(nodes);
    }
}
