"""Writes tests/vectors/pending/whalin-*.json from the real whalin client (see README.md)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

CMD = sys.argv[1:]
GEN = "tests/oracles/whalin/gen.py"
ALGS = {"native": 0, "old-compat": 1, "new-compat": 2, "consistent": 3}
SOURCE = ("com.whalin:Memcached-Java-Client 3.0.2 (Maven Central, OpenJDK 17, "
          "-Dfile.encoding=UTF-8): SchoonerSockIOPool setServers(['host:port', ...]), "
          "setWeights([w, ...]), setHashingAlg(%s = %d), initialize(); key passed through "
          "AscIIClient.sanitizeKey with %s, then the pool's getBucket(key, null) read as getSock "
          "does (%s)")

V = F.vectorlib
SETS = {
    "one": [F.server("10.0.0.1", 11211)],
    "two": V.set_two(),
    "three": V.set_three(),
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "ipv6": F.ipv6_set(),
    "skewed": V.set_skewed(),
    "weighted": F.weighted_set(),
    "two-hundred-fifty": V.set_equal(250, base="10.7"),
}
# int overflow of w * 40 * N in the consistent point count (quirk): 2 servers, weights near 2^31/80
BIG = [F.server("10.6.0.1", 11211, 30000000), F.server("10.6.0.2", 11211, 1000000),
       F.server("10.6.0.3", 11211, 1000000)]


def main():
    keys = F.keys()
    jobs, meta = [], []
    for prof, alg in ALGS.items():
        sets = dict(SETS)
        if prof == "consistent":
            sets["overflow-weights"] = BIG
        else:  # bucket lists never hash the server strings: host names / IPv6 add nothing
            for n in ("hostnames", "ipv6", "three"):
                del sets[n]
        for n, servers in sets.items():
            jobs.append({"params": [alg, 0], "servers": [[s["label"], s["weight"]] for s in servers],
                         "keys": keys})
            meta.append(("whalin-" + prof, prof, n, servers, False))
    for n in ["two", "ten-mixed", "skewed", "two-hundred-fifty"]:
        servers = SETS[n]
        jobs.append({"params": [3, 1], "servers": [[s["label"], s["weight"]] for s in servers],
                     "keys": keys})
        meta.append(("whalin-consistent-sanitized", "consistent", n, servers, True))
    res = F.run_line_driver(CMD, jobs)
    for (profile, prof, n, servers, san), r in zip(meta, res):
        labels = [servers[int(i)]["label"] if i is not None else None for i in r]
        src = SOURCE % (prof.upper().replace("-", "_") + "_HASH", ALGS[prof],
                        "sanitizeKeys=true (default: URLEncoder.encode(key, \"UTF-8\"))" if san
                        else "setSanitizeKeys(false)",
                        "consistentBuckets.get" if prof == "consistent" else "buckets.get")
        F.write("%s-%s.json" % (profile, n), src, GEN, profile, servers, keys, labels)


if __name__ == "__main__":
    main()
