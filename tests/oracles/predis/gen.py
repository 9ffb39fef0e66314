"""Writes tests/vectors/predis-*.json and predis-ketama-*.json from the real Predis
(driver.php; see README.md). Usage: python3 gen.py PREDIS_VERSION DEBIAN_VERSION PHP_VERSION"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import shard_inputs as S  # noqa: E402

GEN = "tests/oracles/predis/gen.py"
RINGS = {
    "predis": ("hashring", "default options (cluster 'predis' = PredisCluster(PredisStrategy("
               "HashRing)))"),
    "predis-ketama": ("ketama", "options ['cluster' => new PredisCluster(new PredisStrategy("
                      "new KetamaRing()))]"),
}
SOURCE = ("Predis %s (Debian php-nrk-predis %s, %s): new Predis\\Client(['tcp://host:port"
          "?weight=W', ...], %s) ('tcp://[v6]:port' for IPv6; no weight parameter when every "
          "weight is 1, so each is Predis's default 100); expect = the server of "
          "$client->getConnection()->getConnectionByKey($key) (PredisStrategy::getSlotByKey "
          "with its key tag rule, then the distributor), what every single-key command uses; "
          "key tags always on (Predis has no option to turn them off); nothing connects")


def stress(name, weights, base):
    return (name, [S.server("10.%d.%d.%d" % (base, i // 250, i % 250 + 1), 6379, w)
                   for i, w in enumerate(weights)])


def sets():
    """(name, servers, keys). The `round-*` and `floor-*` weights were picked (by their
    ratios alone) so that weight/total * N * 128 or * 40 lands within 1e-13 of .5 or of an
    integer in double arithmetic: where PHP's round() and floor() decide."""
    full, small = S.keys_full(), S.keys_small()
    out = [
        ("one", [S.server("10.0.0.1", 6379)], full),
        ("one-weighted", [S.server("10.0.0.9", 6399, 7)], small),
        ("two", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379)], full),
        ("ten-mixed", S.ten_mixed(), full),
        ("hundred-fifty", S.many(150), full),
        ("hostnames", S.hostnames(), small),
        ("ipv6", S.ipv6(), small),
        ("same-host", S.same_host(), small),
    ]
    out += [(n, s, small) for n, s in S.weighted_sets()]
    out += [(n, s, small) for n, s in [
        ("large-weights", [S.server("10.11.0.1", 6379, 4294967295),
                           S.server("10.11.0.2", 6379, 2147483648),
                           S.server("10.11.0.3", 6379, 1000000),
                           S.server("10.11.0.4", 6379, 1)]),
        stress("round-below-half", [481, 1223, 1900, 460, 1414, 1321, 369], 12),
        stress("round-near-half", [1213, 1217, 441, 911, 870, 704, 1812], 13),
        stress("round-exact-half", [577, 253, 1986], 14),
        stress("floor-below", [87, 627, 996], 15),
        stress("floor-below-seven", [1189, 79, 610, 422, 1203, 1709, 318], 16),
    ]]
    return out


def uri(s, weighted):
    host = "[%s]" % s["host"] if ":" in s["host"] else s["host"]
    u = "tcp://%s:%d" % (host, s["port"])
    return u + ("?weight=%d" % s["weight"] if weighted else "")


def main():
    version, deb, php = sys.argv[1:4]
    todo = sets()
    for profile, (ring, how) in RINGS.items():
        jobs = []
        for _, servers, keys in todo:
            weighted = any(s["weight"] != 1 for s in servers)
            jobs.append({"ring": ring, "servers": [uri(s, weighted) for s in servers],
                         "keys": keys})
        res = S.run_driver(["php", os.path.join(HERE, "driver.php")], jobs)
        for (name, servers, keys), r in zip(todo, res):
            expect = [None if i is None else servers[i]["label"] for i in r]
            S.write("%s-%s.json" % (profile, name), SOURCE % (version, deb, php, how), GEN,
                    profile, servers, keys, expect)


if __name__ == "__main__":
    main()
