"""Writes tests/vectors/go-redis-*.json (v9 Ring) and go-redis-v7-*.json (v7 Ring) from the real
go-redis modules (see README.md). Only chooses keys and servers and formats JSON: every `expect`
is the shard a real Ring sent the key's command to (main.go).
"""
import os
import re
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402
import shard_keys  # noqa: E402

BIN = sys.argv[1]
GEN = "tests/oracles/go-redis/generate.sh"
V = F.vectorlib
S = F.server
BUILDS = 3


def gomod(module):
    text = open(os.path.join(HERE, "go.mod"), encoding="utf-8").read()
    return re.search(re.escape(module) + r" (\S+)", text).group(1)


V9 = gomod("github.com/redis/go-redis/v9")
V7 = gomod("github.com/go-redis/redis/v7")
XXH = gomod("github.com/cespare/xxhash/v2")
GO = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True,
                    check=True).stdout.strip()


def ten_mixed():
    return [S("10.0.1.1", 6379), S("10.0.1.2", 6379), S("10.0.1.3", 6380), S("10.0.1.4", 7000),
            S("cache1.example.com", 6379), S("cache2.example.com", 6390), S("192.168.100.7", 6379),
            S("172.16.5.9", 16379), S("redis-10.internal", 6379), S("10.0.1.10", 6379)]


def named(servers, names):
    return [dict(s, name=n) for s, n in zip(servers, names)]


SETS = {
    "one": V.set_one(),
    "two": V.set_two(),
    "eight-one-host": [S("127.0.0.1", 6379 + i) for i in range(8)],
    "ten-mixed": ten_mixed(),
    "hostnames": [S(n, 6379 + (i % 3)) for i, n in enumerate(
        ["redis1.example.com", "redis2.example.com", "r-a.internal", "redis-03.prod.example.net",
         "localhost", "node6.example.org"])],
    "ipv6": [S("2001:db8::1", 6379, label="[2001:db8::1]:6379"),
             S("2001:db8::2", 6379, label="[2001:db8::2]:6379"),
             S("fd00::a:b", 6380, label="[fd00::a:b]:6380"),
             S("::1", 6379, label="[::1]:6379"), S("10.9.0.4", 6379)],
    "two-hundred": V.set_equal(200, base="10.1", port=6379, port_cycle=3),
    "weights-ignored": [dict(s, weight=w) for s, w in zip(ten_mixed(), [1, 2, 3, 5, 8, 1, 1, 10, 4, 2])],
    "names": named(ten_mixed(), ["shard-a", "shard-b", "cache:1", "redis-main", "R2", "东京",
                                 "node/7", "s_8", "ring-9", "último"]),
    "names-short": named(V.set_three(), ["a", "b", "c"]),
    "names-hundred-fifty": named(V.set_equal(150, base="10.2", port=6379),
                                 ["shard%03d" % i for i in range(150)]),
    "names-emoji": named(V.set_two() + [S("10.0.0.3", 6379)], ["😀", "𝄞", "redis😀"]),
}
NOTES = {
    "weights-ignored": " The Ring has no weights: the file's weights are ignored by the client.",
}


def shard_name(s):
    return s.get("name", s["label"])


def check_v7_points(sname, servers):
    """v7 stores points in a map in Go map order: a point two shards share would make the answer
    depend on that order. Assert that no two shards share one (crc32 of strconv.Itoa(i) + name)."""
    owner = {}
    for s in servers:
        for i in range(100):
            p = zlib.crc32((str(i) + shard_name(s)).encode("utf-8"))
            assert owner.setdefault(p, shard_name(s)) == shard_name(s), (sname, p)


def source(client, note):
    if client == "v9":
        head = ("github.com/redis/go-redis/v9 %s (Go module proxy; github.com/cespare/xxhash/v2 %s; "
                "%s): redis.NewRing(&redis.RingOptions{Addrs: {name: label, ...}, "
                "HeartbeatFrequency: 24h}) with the default NewConsistentHash (rendezvous); the "
                "shard name is the server's `name`, else its label; expect = the shard "
                "ring.GetShardClientForKey(key) returns, which is also the shard ring.Get(key) "
                "sends GET to (checked per key). Shard clients: maintenance notifications off "
                "(only stops a DNS lookup in NewClient), a hook that stops every command before "
                "it takes a connection. The Ring applies its hash-tag rule (hashtag.Key) to every "
                "key; no key is refused." % (V9, XXH, GO))
    else:
        head = ("github.com/go-redis/redis/v7 %s (Go module proxy, %s): redis.NewRing(&redis."
                "RingOptions{Addrs: {name: label, ...}, HeartbeatFrequency: 24h}), other options "
                "the defaults (Hash crc32.ChecksumIEEE, HashReplicas 100); the shard name is the "
                "server's `name`, else its label; expect = the shard ring.Eval(script, "
                "[]string{key}) is sent to (Ring.cmdShard -> ringShards.GetByKey(key), which "
                "applies hashtag.Key, as GET does on a live ring; v7 routes GET only with a live "
                "server's COMMAND table); for non-empty keys ring.Watch(fn, key) picks the same "
                "shard (checked). A hook on each shard client stops every command before it takes "
                "a connection. No two shards share a point (checked), so Go map order cannot "
                "matter; no key is refused." % (V7, GO))
    return head + " The Ring was built %d times (map order differs) with equal answers." % BUILDS + note


def main():
    keys = shard_keys.keys()
    jobs = []
    for client in ("v9", "v7"):
        for sname, servers in SETS.items():
            if client == "v7":
                check_v7_points(sname, servers)
            jobs.append({"client": client, "builds": BUILDS, "keys": keys,
                         "servers": [{"name": shard_name(s), "addr": s["label"]} for s in servers]})
    res = F.run_driver([BIN], jobs)
    n = len(SETS)
    report = []
    for (sname, servers), r9, r7 in zip(SETS.items(), res[:n], res[n:]):
        for profile, client, r in (("go-redis", "v9", r9), ("go-redis-v7", "v7", r7)):
            V.write_vector("%s-%s.json" % (profile, sname), source(client, NOTES.get(sname, "")),
                           GEN, keys, [servers[i]["label"] for i in r], profile=profile,
                           servers=servers)
        same = sum(1 for a, b in zip(r9, r7) if a == b)
        report.append("go-redis ~ go-redis-v7 %-20s %d/%d" % (sname, same, len(keys)))
    print("\n".join(report))


if __name__ == "__main__":
    main()
