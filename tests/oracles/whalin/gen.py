"""Writes tests/vectors/pending/whalin-*.json and tests/vectors/extra/whalin-*-dead-*.json from
the real whalin client (see README.md)."""
import json
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

# Dead-server recordings: every server 127.0.0.1:PORT, the driver listens on the live ones.
LOOP = {
    "five": [F.server("127.0.0.1", p) for p in range(22501, 22506)],
    "weighted": [F.server("127.0.0.1", p, w) for p, w in zip(range(22511, 22514), [1, 2, 3])],
    "ten": [F.server("127.0.0.1", p) for p in range(22521, 22531)],
    "one": [F.server("127.0.0.1", 22541)],
}
DEAD = [("five-one-dead", "five", [1]), ("five-three-dead", "five", [0, 2, 4]),
        ("weighted-heaviest-dead", "weighted", [2]), ("ten-nine-dead", "ten", list(range(1, 10))),
        ("five-all-dead", "five", [0, 1, 2, 3, 4]), ("one-dead", "one", [0])]
DEAD_SOURCE = ("com.whalin:Memcached-Java-Client 3.0.2 (Maven Central, OpenJDK 17, "
               "-Dfile.encoding=UTF-8): SchoonerSockIOPool setServers(['127.0.0.1:port', ...]), "
               "setWeights([w, ...]), setHashingAlg(%s = %d), failover = true and failback = true "
               "(defaults), initialize(); a live server is a 127.0.0.1 ServerSocket accepting "
               "connections, a dead one a port that refuses them; servers %s dead: key passed "
               "through AscIIClient.sanitizeKey with %s, then the pool's getSock(key); expect = "
               "the server its socket is connected to (getHost()); null = getSock returned null "
               "(every server tried)")


def write_dead(name, source, profile, servers, dead, keys_, expect):
    """A kind `dead` file in tests/vectors/extra/ (see tests/vectors/README.md)."""
    assert len(keys_) == len(expect)
    doc = {"source": source, "generator": GEN, "kind": "dead", "profile": profile,
           "hash": None, "servers": servers, "dead": [servers[i]["label"] for i in dead],
           "keys": keys_, "expect": expect}
    path = os.path.join(V.VECTORS, "extra", name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print("wrote extra/%s (%d servers, %d keys)" % (name, len(servers), len(keys_)))


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
    dead_meta = []
    dead_runs = [(p, a, False) for p, a in ALGS.items()] + [("consistent", 3, True)]
    for prof, alg, san in dead_runs:
        for name, set_, dead in DEAD:
            if san and name != "five-three-dead":
                continue
            servers = LOOP[set_]
            jobs.append({"params": [alg, 1 if san else 0, "dead", ",".join(map(str, dead))],
                         "servers": [[s["label"], s["weight"]] for s in servers], "keys": keys})
            dead_meta.append(("whalin-" + prof + ("-sanitized" if san else ""), prof, alg, san,
                              name, servers, dead))
    res = F.run_line_driver(CMD, jobs)
    for (profile, prof, alg, san, name, servers, dead), r in zip(dead_meta, res[len(meta):]):
        labels = [servers[int(i)]["label"] if i is not None else None for i in r]
        src = DEAD_SOURCE % (prof.upper().replace("-", "_") + "_HASH", alg,
                             [servers[i]["label"] for i in dead],
                             "sanitizeKeys=true (default: URLEncoder.encode(key, \"UTF-8\"))" if san
                             else "setSanitizeKeys(false)")
        write_dead("%s-dead-%s.json" % (profile, name), src, profile, servers, dead, keys, labels)
    for (profile, prof, n, servers, san), r in zip(meta, res):
        labels = [servers[int(i)]["label"] if i is not None else None for i in r]
        src = SOURCE % (prof.upper().replace("-", "_") + "_HASH", ALGS[prof],
                        "sanitizeKeys=true (default: URLEncoder.encode(key, \"UTF-8\"))" if san
                        else "setSanitizeKeys(false)",
                        "consistentBuckets.get" if prof == "consistent" else "buckets.get")
        F.write("%s-%s.json" % (profile, n), src, GEN, profile, servers, keys, labels)


if __name__ == "__main__":
    main()
