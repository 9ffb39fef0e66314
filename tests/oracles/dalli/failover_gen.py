"""Writes the dalli failover vectors from the real Dalli with servers that do not answer
(see failover.rb): dalli-failover-*.json (kind sequence, n = 20: every server dead, the
servers the client probes in order) at the top level, and extra/dalli-dead-*.json (kind
dead: some servers dead, the server the client picks) read by core/tests/failover_dead.rs.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

VERSION, DEB, RUBY, MEMCACHED = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
GEN = "tests/oracles/dalli/failover_gen.py"
V = F.vectorlib


def loop(ports, weights=None):
    weights = weights or [1] * len(ports)
    return [F.server("127.0.0.1", p, w) for p, w in zip(ports, weights)]


SETS = {
    "five": loop(range(22101, 22106)),
    "weighted": loop(range(22111, 22114), [1, 2, 3]),
    "one": loop([22121]),
}
DEAD = [("five-one-dead", "five", [1]), ("five-three-dead", "five", [0, 2, 4]),
        ("weighted-heaviest-dead", "weighted", [2]), ("one-dead", "one", [0]),
        ("five-all-dead", "five", [0, 1, 2, 3, 4])]


def spec(s):
    return "%s:%d:%d" % (s["host"], s["port"], s["weight"])


def main():
    keys = F.keys(random_count=200)
    jobs = [{"servers": [spec(s) for s in SETS[n]], "dead": [], "mode": "sequence", "keys": keys}
            for n in SETS]
    jobs += [{"servers": [spec(s) for s in SETS[set_]], "dead": d, "mode": "dead", "keys": keys}
             for _, set_, d in DEAD]
    res = F.run_driver(["ruby", os.path.join(HERE, "failover.rb")], jobs)
    base = ("Dalli %s (Debian ruby-dalli %s, %s): Dalli::Client.new(['127.0.0.1:port:weight', ...], "
            "{socket_timeout: 1, down_retry_delay: 3600}), failover on (default); a live server is "
            "memcached %s (Debian) on 127.0.0.1, a dead one a port that refuses connections; " % (
                VERSION, DEB, RUBY, MEMCACHED))
    for n, r in zip(SETS, res[:len(SETS)]):
        servers = SETS[n]
        expect = [None if x is None else [servers[i]["label"] for i in x] for x in r]
        src = base + ("every server dead: expect = the servers whose alive? "
                      "Ring#server_for_key(KeyManager#validate_key(key)) called, in order, before "
                      "Dalli::RingError; null = key refused")
        V.write_vector("dalli-failover-%s.json" % n, src, GEN, keys, expect, profile="dalli",
                       servers=servers, kind="sequence", n=20)
    for (name, set_, d), r in zip(DEAD, res[len(SETS):]):
        servers = SETS[set_]
        expect = [None if i is None else servers[i]["label"] for i in r]
        src = base + ("servers %s dead: expect = Ring#server_for_key(validate_key(key)); null = "
                      "key refused or Dalli::RingError (no server available)" % (
                          [servers[i]["label"] for i in d]))
        write_dead("dalli-dead-%s.json" % name, src, servers, d, keys, expect)


def write_dead(name, source, servers, dead, keys, expect):
    import json
    doc = {"source": source, "generator": GEN, "kind": "dead", "profile": "dalli", "hash": None,
           "servers": servers, "dead": [servers[i]["label"] for i in dead], "keys": keys,
           "expect": expect}
    path = os.path.join(V.VECTORS, "extra", name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print("wrote extra/%s (%d keys)" % (name, len(keys)))


if __name__ == "__main__":
    main()
