"""Shared helpers for the python, node, go and flexihash oracle families.

Only inputs live here: deterministic key sets, server sets and the JSON writer.
Every `expect` value comes from running the real client (see each family's driver);
nothing in this file computes a placement.

Standard library only (runs under /usr/bin/python3 or any venv).
"""

import json
import os
import random

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
VECTORS = os.path.join(REPO, "tests", "vectors")
CACHE = os.path.join(REPO, "tests", "oracles", ".cache")

WORDS = [
    "apple", "banana", "cherry", "date", "elderberry", "fig", "grape", "foo", "bar", "baz",
    "qux", "hello", "world", "hello world!", "memcached", "ketama", "consistent", "hashing",
    "user", "session", "cache", "key", "value", "test", "dustin", "a", "b", "c", "z", "A", "Z",
    "0", "-1", "key with spaces", "tab\tkey", "new\nline", "slash/key", "colon:key",
    "percent%20key", "CamelCaseKey", "UPPER", "lower", "under_score", "dot.separated.key",
    "VDEAAAAA", "server1", "server10", "10.0.0.1:11211", "!@#$%^&*()", "{tag}rest",
    "user:{42}:profile", "the quick brown fox jumps over the lazy dog",
]

NON_ASCII = [
    "é", "café", "été", "naïve", "Ωmega", "Ключ", "ключ-42", "日本語", "中文键", "한국어",
    "😀", "emoji😀x", "🙂🙃", "👨‍👩‍👧", "𝄞music", "ÿ", "\u00a0nbsp", "ß", "Ⅻ", "€100",
    "حروف", "עברית", "ελληνικά", "Ünïcödé", "mixed-ascii-日本-😀-end", "\u0080ctl",
    "\ufeffbom", "ｆｕｌｌｗｉｄｔｈ", "x" * 10 + "é", "ŝŝŝŝŝŝŝŝ",
]


def _long_keys():
    """Keys of exactly 250 UTF-8 bytes (memcached's limit)."""
    rng = random.Random(250)
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    out = ["k" * 250, "0123456789" * 25, "".join(rng.choice(alnum) for _ in range(250)),
           "".join(rng.choice(alnum) for _ in range(250)), "é" * 125, "日本語" * 27 + "x" * 7,
           "😀" * 62 + "ab"]
    for k in out:
        assert len(k.encode("utf-8")) == 250, (k, len(k.encode("utf-8")))
    return out


def _random_keys(count, seed):
    rng = random.Random(seed)
    alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
    out = []
    for i in range(count):
        form = i % 6
        if form == 0:
            out.append("%032x" % rng.getrandbits(128))
        elif form == 1:
            out.append("user:%d" % rng.randrange(10 ** 9))
        elif form == 2:
            out.append("".join(rng.choice(alnum) for _ in range(rng.randrange(1, 41))))
        elif form == 3:
            out.append("obj/%d/%s" % (rng.randrange(10 ** 6), "%08x" % rng.getrandbits(32)))
        elif form == 4:
            u = "%032x" % rng.getrandbits(128)
            out.append("-".join([u[:8], u[8:12], u[12:16], u[16:20], u[20:]]))
        else:
            out.append("sess_%s" % "".join(rng.choice(alnum) for _ in range(rng.randrange(8, 25))))
    return out


def standard_keys(random_count=1500, seed=20240601):
    """The default deterministic key set (~2,200 keys), no duplicates, empty key last."""
    keys = []
    keys += WORDS
    keys += [str(i) for i in range(200)]
    keys += ["foo%d" % i for i in range(150)]
    keys += ["key:%d" % i for i in range(150)]
    keys += NON_ASCII
    keys += _long_keys()
    keys += _random_keys(random_count, seed)
    keys.append("")
    seen = set()
    out = []
    for k in keys:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def server(host, port, weight=1, label=None, name=None):
    s = {"host": host, "port": port, "weight": weight,
         "label": label if label is not None else "%s:%d" % (host, port)}
    if name is not None:
        s["name"] = name
    return s


# ---- server sets (addresses are documentation/private ranges; nothing connects) ----

def set_one():
    return [server("10.0.0.1", 11211)]


def set_two():
    return [server("10.0.0.1", 11211), server("10.0.0.2", 11211)]


def set_three():
    return [server("10.0.0.1", 11211), server("10.0.0.2", 11211), server("10.0.0.3", 11211)]


def set_ten_mixed():
    """10 servers: IPv4 literals and host names, port 11211 and others."""
    return [
        server("10.0.1.1", 11211), server("10.0.1.2", 11211), server("10.0.1.3", 12000),
        server("10.0.1.4", 11212), server("cache1.example.com", 11211),
        server("cache2.example.com", 11311), server("192.168.100.7", 11211),
        server("172.16.5.9", 21211), server("mc-10.internal", 11211), server("10.0.1.10", 11211),
    ]


def set_equal(n, base="10.1", port=11211, port_cycle=1):
    """n IPv4 literals base.X.Y, ports port .. port+port_cycle-1 in turn."""
    out = []
    for i in range(n):
        out.append(server("%s.%d.%d" % (base, i // 250, i % 250 + 1), port + (i % port_cycle)))
    return out


def set_skewed():
    """8 servers with weights spread over 1..1000."""
    weights = [1, 10, 100, 1000, 50, 3, 500, 7]
    return [server("10.3.0.%d" % (i + 1), 11211 + (i % 2), w) for i, w in enumerate(weights)]


def set_libketama_weights():
    """libketama's bundled ketama.servers weights on 10.0.1.1..8:11211."""
    weights = [600, 300, 200, 350, 1000, 800, 950, 100]
    return [server("10.0.1.%d" % (i + 1), 11211, w) for i, w in enumerate(weights)]


def set_three_weighted():
    """Weights {1680, 308, 1212} (formula edge case in COMPAT 3.1)."""
    return [server("10.4.0.1", 11211, 1680), server("10.4.0.2", 11211, 308),
            server("10.4.0.3", 11211, 1212)]


# ---- writer ----

def _dump_list(items):
    if not items:
        return "[]"
    return "[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in items) + "\n]"


def write_vector(filename, source, generator, keys, expect, profile=None, hash_name=None,
                 servers=None, kind="locate", n=None):
    """Write one vector file in the schema of tests/vectors/README.md, deterministically."""
    assert len(keys) == len(expect), (filename, len(keys), len(expect))
    parts = ['"source": ' + json.dumps(source, ensure_ascii=False),
             '"generator": ' + json.dumps(generator)]
    parts.append('"kind": ' + json.dumps(kind))
    if kind != "hash":
        parts.append('"profile": ' + json.dumps(profile))
    parts.append('"hash": ' + json.dumps(hash_name))
    if servers is not None:
        parts.append('"servers": ' + _dump_list(servers))
    if n is not None:
        parts.append('"n": %d' % n)
    parts.append('"keys": ' + _dump_list(keys))
    parts.append('"expect": ' + _dump_list(expect))
    text = "{\n" + ",\n".join(parts) + "\n}\n"
    json.loads(text)  # sanity
    path = os.path.join(VECTORS, filename)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    labels = set(s["label"] for s in servers) if servers else set()
    if kind == "locate":
        bad = [e for e in expect if e is not None and e not in labels]
        assert not bad, (filename, bad[:3])
    print("wrote %s (%d servers, %d keys, %d bytes)" % (
        filename, len(servers or []), len(keys), len(text.encode("utf-8"))))
    return path
