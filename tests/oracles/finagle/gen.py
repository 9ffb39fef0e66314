"""Writes tests/vectors/finagle-*.json from util-hashing's ConsistentHashingDistributor with the
nodes finagle-partitioning builds (FinagleOracle, see README.md), and checks every file against
finagle-memcached 18.10.0's own classes (Finagle18Check). Only chooses keys and servers and
formats JSON: every `expect` comes from the driver.
"""
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402
import shard_keys  # noqa: E402

JDK = sys.argv[1]
GEN = "tests/oracles/finagle/generate.sh"
V = F.vectorlib
S = F.server


def weighted(ws, base, port=11211):
    return [S("%s.0.%d" % (base, i + 1), port + (i % 2), w) for i, w in enumerate(ws)]


SETS = {
    "one": V.set_one(),
    "two": V.set_two(),
    "eight-one-host": [S("10.0.0.50", 11211 + i) for i in range(8)],
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": [S(n, 11211 + (i % 3)) for i, n in enumerate(
        ["cache1.example.com", "cache2.example.com", "mc-a.internal", "memcache-03.prod.example.net",
         "node6.example.org", "x"])],
    "ipv6": [S("2001:db8::1", 11211, label="[2001:db8::1]:11211"),
             S("2001:db8::2", 11212, label="[2001:db8::2]:11212"),
             S("fd00::a:b", 11311, label="[fd00::a:b]:11311"), S("10.9.0.4", 11211)],
    "two-hundred": V.set_equal(200, base="10.1", port=11211, port_cycle=2),
    "weighted": weighted([1, 2, 3, 5], "10.5"),
    "weighted-skewed": weighted([1, 10, 100, 1000, 50, 3, 500, 7], "10.6"),
    "weight-zero": weighted([1, 0, 2, 1], "10.7"),
    "all-weight-zero": weighted([0, 0], "10.8"),
}
NOTES = {
    "eight-one-host": " Eight ports on 10.0.0.50 (not 127.0.0.1: a live client would hash the "
                      "name a hosts file gives 127.0.0.1, e.g. localhost).",
    "ipv6": " IPv6 literals: getHostName() without a PTR record is Java's uncompressed "
            "getHostAddress() text (2001:db8:0:0:0:0:0:1), and the identifier appends ':port' "
            "unless the port is 11211.",
    "weight-zero": " Weight 0: the node gets no point.",
    "all-weight-zero": " Every weight 0: no point, and the ConsistentHashingDistributor constructor "
                       "fails its own assert (numReps * (nodes - 1) <= points): no ring, every key "
                       "null.",
}

SOURCE = (
    "com.twitter:util-hashing_2.13 24.2.0 and com.twitter:finagle-partitioning_2.13 24.2.0 (Maven "
    "Central, the newest; Scala 2.13, OpenJDK %s): per server, as HashRingNodeManager builds a "
    "node for a resolved WeightedAddress(Address.Inet(ia), weight): PartitionNode(ia.getHostName, "
    "ia.getPort, weight, None) -> HashNodeKey.fromPartitionNode(node).identifier ('host' for port "
    "11211, else 'host:port') -> HashNode(identifier, weight, server); new "
    "ConsistentHashingDistributor(nodes, NumReps.Default = 160, false) (rebuildDistributor); "
    "expect = nodeForHash(KeyHashers.KETAMA.hashKey(UTF-8 bytes)) as "
    "ConsistentHashPartitioningService routes a memcached command. ia = InetSocketAddress of "
    "InetAddress.getByAddress(host text, ip): for an IP literal its getHostAddress() text (what "
    "getHostName() gives an address without a PTR record), for a host name the name. "
    "finagle-memcached_2.13 is not served by the registry here: its address -> node step (above) "
    "and KeyValidation.checkKey (null = refused: more than 250 UTF-8 bytes, or a byte \\n, \\r, "
    "space or NUL; the empty key is accepted) are written out in the driver from the "
    "finagle-24.2.0 source, and every file equals finagle-memcached_2.12 18.10.0's own "
    "CacheNode/KetamaClientKey/KeyValidation with util-hashing_2.12 18.10.0's KetamaDistributor "
    "(checked). Nodes put in reverse order give the same answers (checked).")


def fields(servers):
    return [[s["host"], s["port"], s["weight"]] for s in servers]


def main():
    keys = shard_keys.keys()
    main_cmd = shlex.split(os.environ["FINAGLE24"])
    check_cmd = shlex.split(os.environ["FINAGLE18"])
    jobs = [{"params": ["locate"], "servers": fields(s), "keys": keys} for s in SETS.values()]
    ids = F.run_line_driver(main_cmd, [{"params": ["ids"], "servers": fields(s), "keys": ["i"] * len(s)}
                                       for s in SETS.values()])
    res = F.run_line_driver(main_cmd, jobs)
    res18 = F.run_line_driver(check_cmd, jobs)
    for (name, servers), r, r18, idl in zip(SETS.items(), res, res18, ids):
        assert r == r18, ("finagle 24.2.0 differs from finagle-memcached 18.10.0", name)
        shown = "; ".join(repr(x) for x in idl[:3])
        src = (SOURCE % JDK) + " Identifiers (first 3): %s." % shown + NOTES.get(name, "")
        V.write_vector("finagle-%s.json" % name, src, GEN, keys,
                       [None if a is None else servers[int(a)]["label"] for a in r],
                       profile="finagle", servers=servers)
    refused = sum(1 for a in res[0] if a is None)
    print("finagle: %d sets equal to finagle-memcached 18.10.0; %d of %d keys refused"
          % (len(SETS), refused, len(keys)))


if __name__ == "__main__":
    main()
