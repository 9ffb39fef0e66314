// Oracle driver for com.whalin:Memcached-Java-Client (run by generate.sh, line protocol of
// tests/oracles/lib/LineIO.java). Per job: params = <hashingAlg 0..3> <sanitize 0|1>; servers =
// "host:port" strings and integer weights.
//
// It builds the REAL com.schooner.MemCached.SchoonerSockIOPool (setServers, setWeights,
// setHashingAlg, initialize(): populateBuckets / populateConsistentBuckets), passes each key
// through the REAL client's AscIIClient.sanitizeKey (URLEncoder when sanitizeKeys is on, the
// default; setSanitizeKeys(false) otherwise), then calls the pool's private getBucket(key, null)
// and reads the bucket as SchoonerSockIOPool.getSock does (consistentBuckets.get(bucket) for
// CONSISTENT_HASH, buckets.get((int) bucket) otherwise). getSock itself is not called because it
// opens a connection right after choosing. The answer is the index of the chosen server string.
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

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
                // getSock: an empty bucket list / ring gives null before any hashing.
                boolean consistent = alg == SchoonerSockIOPool.CONSISTENT_HASH;
                if (consistent ? ring.isEmpty() : buckets.isEmpty()) { out.add(null); continue; }
                long b = (Long) getBucket.invoke(pool, k, null);
                String host = consistent ? ring.get(b) : buckets.get((int) b);
                int idx = -1;
                for (int i = 0; i < hosts.length; i++) if (hosts[i].equals(host)) { idx = i; break; }
                if (idx < 0) throw new AssertionError("unknown host " + host);
                out.add(Integer.toString(idx));
            }
            return out;
        });
    }
}
