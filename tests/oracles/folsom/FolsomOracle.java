// Oracle driver for com.spotify:folsom (run by generate.sh, line protocol of
// tests/oracles/lib/LineIO.java). Per job: params = <op> with op "locate" or "hash"; servers =
// host, port.
//
// locate: each key goes through the REAL AbstractRequest.encodeKey(key, UTF_8, 250) (what every
// folsom request does with the builder's defaults: refuses empty keys, keys over 250 bytes and
// bytes 0..32), then, as MemcacheClientBuilder.connectRaw does, one address -> that client (no
// ring), two or more -> the REAL ketama Continuum built from AddressAndClient(
// HostAndPort.fromParts(host, port), client) and Continuum.findClient(keyBytes). The clients are
// java.lang.reflect.Proxy stand-ins for RawMemcacheClient that report isConnected() = true.
// Answer: index of the chosen server.
// hash: com.spotify.folsom.ketama.Hasher.hash(encodeKey(key)).asInt() as an unsigned 32-bit value.
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import com.spotify.folsom.RawMemcacheClient;
import com.spotify.folsom.client.AbstractRequest;
import com.spotify.folsom.client.MemcacheEncoder;
import com.spotify.folsom.guava.HostAndPort;
import com.spotify.folsom.ketama.AddressAndClient;
import com.spotify.folsom.ketama.Continuum;
import com.spotify.folsom.ketama.Hasher;

public final class FolsomOracle {
    static RawMemcacheClient standIn(final String name) {
        InvocationHandler h = (proxy, m, args) -> {
            switch (m.getName()) {
                case "isConnected": return true;
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return "StandIn(" + name + ")";
                default: throw new UnsupportedOperationException(m.getName());
            }
        };
        return (RawMemcacheClient) Proxy.newProxyInstance(FolsomOracle.class.getClassLoader(),
                new Class<?>[] {RawMemcacheClient.class}, h);
    }

    static byte[] encode(String key) {
        try {
            return AbstractRequest.encodeKey(key, StandardCharsets.UTF_8, MemcacheEncoder.MAX_KEY_LEN);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public static void main(String[] argv) throws Exception {
        LineIO.serve((params, servers, keys) -> {
            List<String> out = new ArrayList<>();
            if (params[0].equals("hash")) {
                for (String k : keys) {
                    byte[] b = encode(k);
                    out.add(b == null ? null : Long.toString(Hasher.hash(b).asInt() & 0xffffffffL));
                }
                return out;
            }
            List<AddressAndClient> aac = new ArrayList<>();
            Map<RawMemcacheClient, Integer> index = new IdentityHashMap<>();
            for (String[] s : servers) {
                RawMemcacheClient c = standIn(s[0] + ":" + s[1]);
                index.put(c, aac.size());
                aac.add(new AddressAndClient(HostAndPort.fromParts(s[0], Integer.parseInt(s[1])), c));
            }
            Continuum ring = aac.size() > 1 ? new Continuum(aac) : null;
            for (String k : keys) {
                byte[] b = encode(k);
                if (b == null) { out.add(null); continue; }
                RawMemcacheClient c = ring == null ? aac.get(0).getClient() : ring.findClient(b);
                out.add(Integer.toString(index.get(c)));
            }
            return out;
        });
    }
}
