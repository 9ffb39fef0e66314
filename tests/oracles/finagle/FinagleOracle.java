// Drives Twitter util-hashing 24.2.0's ConsistentHashingDistributor (Scala 2.13) with the nodes
// finagle-partitioning 24.2.0 builds, as finagle-memcached's client routes a key.
// Protocol: LineIO. Job parameters: `locate` or `ids`; servers: host, port, weight.
// Answer per key: the server's list index, or `x` when the client refuses the key (or throws).
//
// Real classes (Maven Central): PartitionNode, HashNodeKey.fromPartitionNode, NumReps.Default
// (finagle-partitioning_2.13), HashNode, ConsistentHashingDistributor, KeyHashers.KETAMA
// (util-hashing_2.13). finagle-memcached_2.13 is not served by the registry here, so two of its
// small steps are written out below from the finagle-24.2.0 source (see README.md):
// HashRingNodeManager's address -> node step and finagle-memcached's KeyValidation.
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.twitter.finagle.partitioning.HashNodeKey;
import com.twitter.finagle.partitioning.PartitionNode;
import com.twitter.finagle.partitioning.param.NumReps$;
import com.twitter.hashing.ConsistentHashingDistributor;
import com.twitter.hashing.HashNode;
import com.twitter.hashing.KeyHasher;
import com.twitter.hashing.KeyHashers;

public final class FinagleOracle {
    /** The resolved address a live client holds for `host` (see README.md: no PTR record). */
    static InetSocketAddress address(String host, int port, int index) throws Exception {
        boolean literal = host.contains(":") || host.matches("[0-9.]+");
        if (literal) {
            InetAddress a = InetAddress.getByName(host); // a literal: parsed, no lookup
            // getHostName() of a literal without a PTR record is its getHostAddress() text
            return new InetSocketAddress(InetAddress.getByAddress(a.getHostAddress(), a.getAddress()), port);
        }
        byte[] standIn = {10, 20, (byte) (index >> 8), (byte) index};
        return new InetSocketAddress(InetAddress.getByAddress(host, standIn), port);
    }

    /** HashRingNodeManager.addressToEntry + constructAddressEntry (finagle-24.2.0). */
    static HashNode<Integer> node(InetSocketAddress ia, int weight, int index) {
        PartitionNode pn = new PartitionNode(ia.getHostName(), ia.getPort(), weight, scala.Option.empty());
        HashNodeKey key = HashNodeKey.fromPartitionNode(pn);
        return new HashNode<>(key.identifier(), pn.weight(), index);
    }

    /** finagle-memcached KeyValidation.checkKey (finagle-24.2.0), run by every Command. */
    static boolean validKey(byte[] key) {
        if (key.length > 250) return false;
        for (byte b : key) {
            if (b <= ' ' && (b == '\n' || b == 0 || b == '\r' || b == ' ')) return false;
        }
        return true;
    }

    static ConsistentHashingDistributor<Integer> ring(List<HashNode<Integer>> nodes) {
        scala.collection.immutable.Seq<HashNode<Integer>> seq =
                scala.jdk.javaapi.CollectionConverters.asScala(nodes).toList();
        // HashRingNodeManager.rebuildDistributor: (liveNodes, numReps, false)
        return new ConsistentHashingDistributor<>(seq, NumReps$.MODULE$.Default(), false);
    }

    public static void main(String[] args) throws Exception {
        KeyHasher ketama = KeyHashers.KETAMA();
        if (ketama != KeyHasher.KETAMA()) throw new AssertionError("KeyHashers.KETAMA");
        if (NumReps$.MODULE$.Default() != 160) throw new AssertionError("NumReps.Default");
        LineIO.serve((params, servers, keys) -> {
            List<HashNode<Integer>> nodes = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                String[] s = servers.get(i);
                nodes.add(node(address(s[0], Integer.parseInt(s[1]), i), Integer.parseInt(s[2]), i));
            }
            List<String> out = new ArrayList<>();
            if (params[0].equals("ids")) {
                for (int i = 0; i < keys.size(); i++) out.add(i < nodes.size() ? nodes.get(i).identifier() : "-");
                return out;
            }
            List<HashNode<Integer>> reversed = new ArrayList<>(nodes);
            Collections.reverse(reversed);
            ConsistentHashingDistributor<Integer> ring, ring2;
            try {
                ring = ring(nodes);
                ring2 = ring(reversed);
            } catch (AssertionError e) {
                // the constructor asserts numReps * (nodes - 1) <= points <= numReps * nodes:
                // no ring (every weight 0), so no key has a server
                for (int i = 0; i < keys.size(); i++) out.add(null);
                return out;
            }
            for (String k : keys) {
                byte[] b = k.getBytes(StandardCharsets.UTF_8); // Buf.Utf8(key)
                if (!validKey(b)) { out.add(null); continue; }
                Integer a, c;
                try {
                    long h = ketama.hashKey(b);
                    a = ring.nodeForHash(h);
                    c = ring2.nodeForHash(h);
                } catch (RuntimeException e) {
                    out.add(null);
                    continue;
                }
                if (!a.equals(c)) throw new AssertionError("node order decides key " + k);
                out.add(Integer.toString(a));
            }
            return out;
        });
    }
}
