package org.ketama.xmemcached;

import com.google.code.yanf4j.core.Session;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.rubyeye.xmemcached.impl.AbstractMemcachedSessionLocator;
import net.rubyeye.xmemcached.networking.MemcachedSession;
import org.ketama.Ring;
import org.ketama.Server;

/**
 * An xmemcached {@code MemcachedSessionLocator} that places keys by any ketama profile.
 *
 * <pre>{@code
 * XMemcachedClientBuilder b = new XMemcachedClientBuilder(AddrUtil.getAddresses("10.0.0.1:11211 10.0.0.2:11211"));
 * b.setSessionLocator(new ProfileSessionLocator("libmemcached-weighted"));
 * }</pre>
 *
 * Sessions are grouped by server ({@link Server#labelOf} of their remote address; a
 * connection pool gives several sessions per server), each server weighted by its session's
 * {@code getWeight()}, unless a mapping is given. When the chosen server has no open session
 * and failure mode is off, the profile's failover order is followed (xmemcached's own rehash
 * walk on the xmemcached profiles). Thread-safe: {@link #updateSessions} swaps in a new ring.
 */
public final class ProfileSessionLocator extends AbstractMemcachedSessionLocator {
    private final String profile;
    private final String hash;
    private final Function<Session, Server> toServer;
    private volatile State state;

    private static final class State {
        final Ring ring;
        /** Sessions per server, in ring order. */
        final List<List<Session>> sessions;

        State(Ring ring, List<List<Session>> sessions) {
            this.ring = ring;
            this.sessions = sessions;
        }
    }

    /** Sessions placed by {@code profile} with its default hash. */
    public ProfileSessionLocator(String profile) {
        this(profile, null, ProfileSessionLocator::defaultServer);
    }

    /** Sessions placed by {@code profile} and {@code hash} ({@code null}: the default). */
    public ProfileSessionLocator(String profile, String hash) {
        this(profile, hash, ProfileSessionLocator::defaultServer);
    }

    /** Sessions placed by {@code profile} and {@code hash}, each server made by {@code toServer}. */
    public ProfileSessionLocator(String profile, String hash, Function<Session, Server> toServer) {
        this.profile = profile;
        this.hash = hash;
        this.toServer = toServer;
        this.state = new State(Ring.create(profile, hash, List.of()), List.of());
    }

    /**
     * {@code host:port} of the session's remote address, weighted by the session's weight
     * (deprecated in xmemcached, yet what its own Ketama locator weighs servers by).
     */
    @SuppressWarnings("deprecation")
    public static Server defaultServer(Session s) {
        InetSocketAddress a = s.getRemoteSocketAddress();
        long w = s instanceof MemcachedSession ? ((MemcachedSession) s).getWeight() : 1;
        return new Server(Server.labelOf(a), w);
    }

    /** The ring in use (a snapshot). */
    public Ring ring() {
        return state.ring;
    }

    @Override
    public void updateSessions(Collection<Session> list) {
        Map<String, Server> servers = new LinkedHashMap<>();
        Map<String, List<Session>> byLabel = new LinkedHashMap<>();
        for (Session s : list) {
            Server server = toServer.apply(s);
            servers.putIfAbsent(server.label(), server);
            byLabel.computeIfAbsent(server.label(), x -> new ArrayList<>()).add(s);
        }
        Ring ring = Ring.create(profile, hash, new ArrayList<>(servers.values()));
        state = new State(ring, new ArrayList<>(byLabel.values()));
    }

    @Override
    public Session getSessionByKey(String key) {
        State s = state;
        if (s.ring.size() == 0) {
            return null;
        }
        if (failureMode) {
            return open(s.sessions.get(s.ring.index(key)), true);
        }
        List<String> order = s.ring.failoverKind().equals("rehash")
            ? s.ring.failover(key, s.ring.size() + 1)
            : s.ring.getN(key, s.ring.size());
        Session last = null;
        for (String label : order) {
            List<Session> group = s.sessions.get(indexOf(s.ring, label));
            Session open = open(group, false);
            if (open != null) {
                return open;
            }
            last = group.get(0);
        }
        return last;
    }

    private static int indexOf(Ring ring, String label) {
        List<Server> servers = ring.servers();
        for (int i = 0; i < servers.size(); i++) {
            if (servers.get(i).label().equals(label)) {
                return i;
            }
        }
        throw new IllegalStateException("no session for " + label);
    }

    /** The first open session of a server (or, with {@code any}, its first session). */
    private static Session open(List<Session> group, boolean any) {
        for (Session x : group) {
            if (!x.isClosed()) {
                return x;
            }
        }
        return any ? group.get(0) : null;
    }
}
