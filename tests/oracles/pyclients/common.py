"""Inputs shared by the pyclients drivers (pymemcache, Django, python-memcached, emcache):
the key set and the server sets. Nothing here computes a placement: every `expect` value
comes from the real client (see each driver). Standard library only.
"""

import os
import sys
from importlib.metadata import version

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

V = F.vectorlib
PY = sys.version.split()[0]

# Keys that exercise the Python clients' own rules: whitespace classes (bytes.split() knows
# space, \t, \n, \v, \f, \r; python-memcached's `$` also matches before one final newline),
# quotes and backslashes (the repr of a bytes key), non-whitespace control bytes.
EXTRA_KEYS = [
    "trailing-newline\n", "two-newlines\n\n", "\n", "vt\x0bkey", "ff\x0ckey", "fs\x1ckey",
    "us\x1f", "esc\x1b[0m", "it's", 'say "hi"', "both'\"quotes", "back\\slash",
    "tab-end\t", "ümlaut", "\x7f", "key\x80", "日本", "x" * 249 + "é", "é" * 125 + "x",
    ":1:already-prefixed", "a" * 246, "a" * 247, "a" * 248,
]


def keys():
    return F.keys(extra=EXTRA_KEYS)


def label_of(s):
    return s["label"]


def sets_unweighted():
    """Server sets for the clients that take no weights."""
    return [
        ("one", V.set_one()),
        ("two", V.set_two()),
        ("ten-mixed", V.set_ten_mixed()),
        ("hostnames", F.hostname_set(6)),
        ("ipv6", F.ipv6_set()),
        ("two-hundred-fifty", V.set_equal(250, base="10.7")),
    ]


def sets_weighted():
    """Server sets with weights (python-memcached)."""
    return [
        ("one", V.set_one()),
        ("one-weighted", [F.server("10.0.0.9", 11299, 7)]),
        ("two", V.set_two()),
        ("ten-mixed", V.set_ten_mixed()),
        ("skewed", V.set_skewed()),
        ("weighted", F.weighted_set()),
        ("libketama-weights", V.set_libketama_weights()),
        ("three-weighted", V.set_three_weighted()),
        ("zero-weight", [F.server("10.6.0.1", 11211, 1), F.server("10.6.0.2", 11211, 0),
                         F.server("10.6.0.3", 11211, 2)]),
        ("two-hundred-fifty", V.set_equal(250, base="10.7")),
    ]


def write(name, source, generator, profile, servers, keys_, expect, kind="locate", n=None):
    return V.write_vector(name, source, generator, keys_, expect,
                          profile=profile, hash_name=None, servers=servers, kind=kind, n=n)


def versions(*pkgs):
    return ", ".join("%s==%s" % (p, version(p)) for p in pkgs)


def write_dead(name, source, generator, profile, servers, dead, keys_, expect):
    """A kind `dead` file in tests/vectors/extra/ (see tests/vectors/README.md)."""
    import json
    assert len(keys_) == len(expect)
    doc = {"source": source, "generator": generator, "kind": "dead", "profile": profile,
           "hash": None, "servers": servers, "dead": [servers[i]["label"] for i in dead],
           "keys": keys_, "expect": expect}
    path = os.path.join(V.VECTORS, "extra", name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(doc, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print("wrote extra/%s (%d servers, %d keys)" % (name, len(servers), len(keys_)))


def loopback(ports, weights=None):
    """Servers 127.0.0.1:port (failover recordings run real sockets on them)."""
    weights = weights or [1] * len(ports)
    return [F.server("127.0.0.1", p, w) for p, w in zip(ports, weights)]
