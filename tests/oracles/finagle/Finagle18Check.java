// Cross-check with the newest finagle-memcached the registry serves, 18.10.0 (Scala 2.12), whose
// node-building and key-validation classes are real: CacheNode, KetamaClientKey.fromCacheNode,
// KeyValidation.checkKey (finagle-memcached_2.12 18.10.0), KetamaNode, KetamaDistributor,
// KeyHasher.KETAMA (util-hashing_2.12 18.10.0). Same protocol and addresses as FinagleOracle.
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import com.twitter.finagle.memcached.CacheNode;
import com.twitter.finagle.memcached.KetamaClientKey$;
import com.twitter.finagle.memcached.protocol.KeyValidation;
import com.twitter.hashing.KetamaDistributor;
import com.twitter.hashing.KetamaNode;
import com.twitter.hashing.KeyHasher$;
import com.twitter.io.Buf;

public final class Finagle18Check {
    static InetSocketAddress address(String host, int port, int index) throws Exception {
        boolean literal = host.contains(":") || host.matches("[0-9.]+");
        if (literal) {
            InetAddress a = InetAddress.getByName(host);
            return new InetSocketAddress(InetAddress.getByAddress(a.getHostAddress(), a.getAddress()), port);
        }
        byte[] standIn = {10, 20, (byte) (index >> 8), (byte) index};
        return new InetSocketAddress(InetAddress.getByAddress(host, standIn), port);
    }

    /** Buf.ByteArray.Owned.extract(buf): the key's bytes, as MemcachedPartitioningService.getKeyBytes. */
    static byte[] extract(Buf buf) {
        try {
            Object owned = Class.forName("com.twitter.io.Buf$ByteArray$Owned$").getField("MODULE$").get(null);
            return (byte[]) owned.getClass().getMethod("extract", Buf.class).invoke(owned, buf);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    public static void main(String[] args) throws Exception {
        LineIO.serve((params, servers, keys) -> {
            List<KetamaNode<Integer>> nodes = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                String[] s = servers.get(i);
                InetSocketAddress ia = address(s[0], Integer.parseInt(s[1]), i);
                // KetamaNodeManager (18.10.0): CacheNode(ia.getHostName, ia.getPort, w, shardId)
                CacheNode cn = new CacheNode(ia.getHostName(), ia.getPort(), Integer.parseInt(s[2]), scala.Option.empty());
                String id = KetamaClientKey$.MODULE$.fromCacheNode(cn).identifier();
                nodes.add(new KetamaNode<>(id, cn.weight(), i));
            }
            List<String> out = new ArrayList<>();
            KetamaDistributor<Integer> ring;
            try {
                ring = new KetamaDistributor<>(scala.collection.JavaConverters.asScalaBuffer(nodes).toList(), 160, false);
            } catch (AssertionError e) {
                for (int i = 0; i < keys.size(); i++) out.add(null);
                return out;
            }
            for (String k : keys) {
                try {
                    Buf buf = Buf.Utf8$.MODULE$.apply(k);
                    KeyValidation.checkKey(buf);
                    out.add(Integer.toString(ring.nodeForHash(KeyHasher$.MODULE$.KETAMA().hashKey(extract(buf)))));
                } catch (RuntimeException e) {
                    out.add(null);
                }
            }
            return out;
        });
    }
}
