"""Drives the real redis-shard (Zhihu, PyPI) and writes tests/vectors/redis-shard-*.json.
Run by generate.sh in a venv holding the pinned redis-shard and redis-py (see README.md).

Per set: RedisShardAPI([{'name': name, 'host': host, 'port': port}, ...]) with the default
hash_method 'crc32', then api.get_server_name(key) per key, with the key as a str: what
get_server() and every single-key command use (the driver asserts that get_server(key) is
that name's connection). The name is the server's `name`, or its label when it has none.
A key the client cannot encode (UnicodeEncodeError: a character above U+00FF in the text it
hashes) is `null`. redis-py creates its connections lazily: nothing connects.
"""
import os
import sys
from importlib.metadata import version

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import shard_inputs as S  # noqa: E402

from redis_shard.shard import RedisShardAPI  # noqa: E402

GEN = "tests/oracles/redis-shard/oracle.py"
WANT = {"redis-shard": "0.3.7", "redis": "8.1.0"}
SOURCE = ("redis-shard %s (PyPI, Zhihu) with redis==%s (PyPI), CPython %s: "
          "RedisShardAPI([{'name': name, 'host': host, 'port': port}, ...]) (hash_method "
          "'crc32'; name = the server's name, or its label when it has none); expect = the "
          "server named by api.get_server_name(key) with the key as a str, what get_server() "
          "and every single-key command use; null = UnicodeEncodeError (the client encodes "
          "the text it hashes as latin-1); key tags always on (no option); nothing connects")


def named(names, base):
    return [S.server("10.%d.%d.%d" % (base, i // 250, i % 250 + 1), 6379 + (i % 2), name=n)
            for i, n in enumerate(names)]


def sets():
    full, small = S.keys_full(), S.keys_small()
    return [
        ("one", [S.server("10.0.0.1", 6379)], full),
        ("two", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379)], full),
        ("three", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379),
                   S.server("10.0.0.3", 6379)], small),
        ("ten-mixed", S.ten_mixed(), full),
        ("hundred-fifty", S.many(150), full),
        ("hostnames", S.hostnames(), small),
        ("ipv6", S.ipv6(), small),
        ("same-host", S.same_host(), small),
        ("named", named(["node1", "node2", "node3", "cache-a", "shard:3", "é-shard",
                         "node 7", "-", "10.0.0.1:6379", "NODE1"], 20), full),
        ("named-two", named(["master", "slave"], 21), small),
        ("named-many", named(["redis-%03d" % i for i in range(120)], 22), full),
    ]


def main():
    for pkg, want in WANT.items():
        got = version(pkg)
        if got != want:
            sys.exit("expected %s %s, got %s" % (pkg, want, got))
    py = sys.version.split()[0]
    for name, servers, keys in sets():
        names = [s.get("name", s["label"]) for s in servers]
        api = RedisShardAPI([{"name": n, "host": s["host"], "port": s["port"]}
                             for n, s in zip(names, servers)])
        assert api.nodes == names
        label = dict(zip(names, (s["label"] for s in servers)))
        expect = []
        for k in keys:
            try:
                got = api.get_server_name(k)
            except UnicodeEncodeError:
                expect.append(None)
                continue
            assert api.get_server(k) is api.connections[got]
            expect.append(label[got])
        S.write("redis-shard-%s.json" % name, SOURCE % (WANT["redis-shard"], WANT["redis"], py),
                GEN, "redis-shard", servers, keys, expect)


if __name__ == "__main__":
    main()
