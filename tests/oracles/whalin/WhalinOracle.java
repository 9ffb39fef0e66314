// Oracle driver for com.whalin:Memcached-Java-Client (run by generate.sh, line protocol of
// tests/oracles/lib/LineIO.java). Per job: params = <hashingAlg 0..3> <sanitize 0|1>; servers =
// "host:port" strings and integer weights.
//
// It builds the REAL com.schooner.MemCached.SchoonerSockIOPool (setServers, setWeights,
// setHashingAlg, initialize(): populateBuckets / populateConsistentBuckets), passes each key
// through the REAL client's AscIIClient.sanitizeKey (URLEncoder when sanitizeKeys is on, the
// default; setSanitizeKeys(false) otherwise), then calls the pool's private getBucket(key, null)
// and reads the bucket as SchoonerSockIOPool.getSock does (consistentBuckets.get(bucket) for
// CONSISTENT_HASH, buckets.get((int) bucket) otherwise). getSock itself is not called there
// because it opens a connection right after choosing. The answer is the index of the chosen
// server string.
//
// Dead-server jobs (params = <hashingAlg> <sanitize> dead <i,j,...>): every server is
// 127.0.0.1:PORT; the driver listens (a plain ServerSocket accepting connections) on the ports of
// the servers not listed, the listed ones are ports nobody listens on (connections refused). The
// REAL SchoonerSockIOPool.getSock(key) is called (default failover = true, failback = true) and
// the answer is the index of the server its socket is connected to (SockIO.getHost()), or null
// when getSock returns null (the client gave up).
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

import com.schooner.MemCached.AscIIClient;
import com.schooner.MemCached.SchoonerSockIOPool;

public final class WhalinOracle {
    static int poolSeq = 0;

    public static void main(String[] argv) throws Exception {
        Method getBucket = SchoonerSockIOPool.class.getDeclaredMethod("getBucket", String.class, Integer.class);
        getBucket.setAccessible(true);
        Method sanitizeKey = AscIIClient.class.getDeclaredMethod("sanitizeKey", String.class);
        sanitizeKey.setAccessible(true);
        Field cb = SchoonerSockIOPool.class.getDeclaredField("consistentBuckets");
        cb.setAccessible(true);
        Field bk = SchoonerSockIOPool.class.getDeclaredField("buckets");
        bk.setAccessible(true);
        LineIO.serve((params, servers, keys) -> {
            int alg = Integer.parseInt(params[0]);
            boolean sanitize = params[1].equals("1");
            String name = "oracle" + (poolSeq++);
            String[] hosts = new String[servers.size()];
            Integer[] weights = new Integer[servers.size()];
            for (int i = 0; i < hosts.length; i++) {
                hosts[i] = servers.get(i)[0];
                weights[i] = Integer.valueOf(servers.get(i)[1]);
            }
            boolean deadJob = params.length > 2 && params[2].equals("dead");
            List<ServerSocket> listening = new ArrayList<>();
            if (deadJob) {
                java.util.Set<Integer> dead = new java.util.HashSet<>();
                if (params.length > 3 && !params[3].isEmpty())
                    for (String d : params[3].split(",")) dead.add(Integer.valueOf(d));
                for (int i = 0; i < hosts.length; i++) {
                    if (dead.contains(i)) continue;
                    int port = Integer.parseInt(hosts[i].substring(hosts[i].lastIndexOf(':') + 1));
                    ServerSocket ss = new ServerSocket(port, 256, InetAddress.getByName("127.0.0.1"));
                    listening.add(ss);
                    Thread t = new Thread(() -> {
                        List<Socket> held = new ArrayList<>();
                        try {
                            while (true) held.add(ss.accept());
                        } catch (java.io.IOException e) {
                            for (Socket c : held) try { c.close(); } catch (java.io.IOException x) { }
                        }
                    });
                    t.setDaemon(true);
                    t.start();
                }
            }
            SchoonerSockIOPool pool = SchoonerSockIOPool.getInstance(name);
            pool.setServers(hosts);
            pool.setWeights(weights);
            pool.setHashingAlg(alg);
            pool.initialize();
            AscIIClient client = new AscIIClient(name);
            if (!sanitize) client.setSanitizeKeys(false);
            @SuppressWarnings("unchecked")
            TreeMap<Long, String> ring = (TreeMap<Long, String>) cb.get(pool);
            @SuppressWarnings("unchecked")
            List<String> buckets = (List<String>) bk.get(pool);
            List<String> out = new ArrayList<>();
            for (String key : keys) {
                String k;
                try {
                    k = (String) sanitizeKey.invoke(client, key);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    out.add(null); // the client logs "failed to sanitize your key!" and returns null
                    continue;
                }
                if (deadJob) {
                    com.schooner.MemCached.SchoonerSockIO sock = pool.getSock(k);
                    if (sock == null) { out.add(null); continue; }
                    String host = sock.getHost();
                    sock.close();
                    out.add(Integer.toString(indexOf(hosts, host)));
                    continue;
                }
                // getSock: an empty bucket list / ring gives null before any hashing.
                boolean consistent = alg == SchoonerSockIOPool.CONSISTENT_HASH;
                if (consistent ? ring.isEmpty() : buckets.isEmpty()) { out.add(null); continue; }
                long b = (Long) getBucket.invoke(pool, k, null);
                String host = consistent ? ring.get(b) : buckets.get((int) b);
                out.add(Integer.toString(indexOf(hosts, host)));
            }
            if (deadJob) {
                pool.shutDown();
                for (ServerSocket ss : listening) ss.close();
            }
            return out;
        });
    }

    static int indexOf(String[] hosts, String host) {
        for (int i = 0; i < hosts.length; i++) if (hosts[i].equals(host)) return i;
        throw new AssertionError("unknown host " + host);
    }
}
