"""Writes tests/vectors/evcache-*.json from the real EVCache locator (see README.md).

Only chooses keys and servers and formats JSON: every node string and every server choice comes
from EvcacheOracle (the client's own EVCacheNodeLocator and EVCacheKetamaNodeLocatorConfiguration).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

VERSION, SPY = sys.argv[1], sys.argv[2]
CMD = sys.argv[3:]
GEN = "tests/oracles/evcache/generate.sh"
V = F.vectorlib
S = F.server

SOURCE = (
    "com.netflix.evcache:evcache-core %s (Maven Central, with net.spy:spymemcached %s, OpenJDK 17): "
    "new EVCacheNodeLocator(client, nodes, DefaultHashAlgorithm.KETAMA_HASH, "
    "new EVCacheKetamaNodeLocatorConfiguration(client)) as BaseConnectionFactory.createLocator "
    "builds it (bucket size %d, the default), getPrimary(key) per key; nodes are stand-in "
    "MemcachedNodes over InetSocketAddress(InetAddress.getByAddress(host, ip), port): IP literals "
    "with their getHostAddress() text as host name (= an IP without a PTR record), host names "
    "with the address given as `name` (the node string the client hashes, read back from "
    "getKeyForNode). Node strings hashed (first 3): %s. The locator places every key (no "
    "refusal). %s")

# Host names need the address they resolve to: the client hashes `name/ip:11211`.
NAMED = [("cache1.example.com", "10.20.0.1", 11211), ("cache2.example.com", "10.20.0.2", 11211),
         ("mc-a.internal", "10.20.0.3", 11311), ("memcache-03.prod.example.net", "10.20.0.4", 11211),
         ("ec2-54-1-2-3.compute-1.amazonaws.com", "54.1.2.3", 11211),
         ("node6.example.org", "10.20.0.6", 11212)]


def named_set(n):
    return [dict(S(h, p), _ip=ip) for h, ip, p in NAMED[:n]]


SETS = {
    "one": (V.set_one(), ""),
    "two": (V.set_two(), ""),
    "three": (V.set_three(), ""),
    "ten-mixed-ports": (V.set_equal(10, base="10.2", port=11211, port_cycle=4),
                        "Ports 11211..11214: the node string always says :11211, whatever the port."),
    "twelve": (V.set_equal(12, base="10.3"), ""),
    "hostnames": (named_set(6) + V.set_equal(6, base="10.4"), ""),
    "ipv6": ([S("2001:db8::1", 11211, label="[2001:db8::1]:11211"),
              S("2001:db8::2", 11211, label="[2001:db8::2]:11211"),
              S("fd00::a:b", 11311, label="[fd00::a:b]:11311"), S("10.9.0.4", 11211)],
             "IPv6: getHostName() and getHostAddress() both give the uncompressed text."),
    "same-host-ports": ([S("10.5.0.1", 11211 + i) for i in range(4)] + [S("10.5.0.2", 11211)],
                        "Four ports on one host: one node string, so all their points coincide and "
                        "the server put last (TreeMap.put) owns them."),
    "two-hundred-fifty": (V.set_equal(250, base="10.7"), ""),
}


def fields(s):
    return [s["host"], s["port"], s.get("_ip", s["host"])]


def main():
    keys = F.keys()
    names = list(SETS)
    node_jobs = [{"params": ["nodes"], "servers": [fields(s) for s in SETS[n][0]],
                  "keys": [""] * (len(SETS[n][0]) + 1)} for n in names]
    nodes = F.run_line_driver(CMD, node_jobs)
    jobs = []
    for n, ns in zip(names, nodes):
        servers, _ = SETS[n]
        strings = [bytes.fromhex(h).decode("utf-8") for h in ns[:-1]]
        assert all(x.endswith("-0") for x in strings)
        for s, x in zip(servers, strings):
            if "_ip" in s:
                s["name"] = x[:-2]
        extra = [x[:-1] + str(j) for x in strings[:4] for j in (0, 1, 39)]
        ks = keys + [k for k in extra if k not in keys]
        jobs.append({"params": ["locate"], "servers": [fields(s) for s in servers], "keys": ks,
                     "_strings": strings, "_bucket": int(ns[-1])})
    res = F.run_line_driver(CMD, jobs)
    for n, job, r in zip(names, jobs, res):
        servers, note = SETS[n]
        labels = [servers[int(i)]["label"] for i in r]
        shown = "; ".join(repr(x[:-2]) for x in job["_strings"][:3])
        src = SOURCE % (VERSION, SPY, job["_bucket"], shown, note + (" " if note else "") +
                        "The last keys are point strings '<node string>-<j>' (j = 0, 1, 39) of the "
                        "first servers (exact point hits).")
        clean = [{k: v for k, v in s.items() if not k.startswith("_")} for s in servers]
        V.write_vector("evcache-%s.json" % n, src, GEN, job["keys"], labels, profile="evcache",
                       servers=clean)


if __name__ == "__main__":
    main()
