"""Inputs shared by the client-side sharding oracles (predis, phpredis, redis-rb, redis-shard,
perl-memcached): key sets that exercise every hash-tag shape, server sets, and a runner for a
driver that reads a job file. Nothing here computes a placement: every `expect` value comes
from the real client. Standard library only.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import families as F  # noqa: E402

V = F.vectorlib
server = F.server
run_driver = F.run_driver

# Hash-tag shapes: the clients differ on empty tags, tags not at the start, several tags,
# nested or unbalanced braces, and on newline and NUL bytes around them.
TAG_SHAPES = [
    "{}", "a{}b", "{}{42}", "{}x", "x{}", "{a}{b}", "pre{tag}mid{other}post", "}42{", "a{b",
    "{a{b}", "{{x}}", "{x}}", "user:{42}:profile", "{42}:profile", "profile:{42}",
    "{user1000}.following", "{user1000}.followers", "foo{bar}{zap}", "foo{}{bar}", "foo{{bar}}zap",
    "{", "}", "{}}", "{{}", "{{}}", "}{", "}{}", "{}{", "{{", "}}", "{}{}", "{a}", "a{b}",
    "a{b}c", "{a}b", "x{y}z{w}v", "{a}{}", "{}{a}{b}", "{{a}{b}}", "{a{b{c}}}", "a{{b}}c",
    "{42}x", "x{42}", "x{42}y", "{ {42} }", "{ }", "{\t}", "{-}", "{:}", "{{}}{42}",
    "{abc", "abc}", "ab}c{d", "a}b{c}d", "{x}y}z", "{x{y}z", "{x}{y}{z}", "{}}{42}",
    # newline: `.` stops there in Ruby and Python regexps, and Ruby's `^` matches after it
    "a\n{b}c", "\n{42}", "{a\nb}c", "{a}\nb", "x\n{}{42}", "{\n}", "line1\n{tag}line2",
    "{42}\n{43}", "a{b}\n{c}d", "\n", "{x\n}{y}",
    # NUL: C string functions stop there
    "a\x00{b}c", "{a\x00b}c", "{a}\x00b", "\x00{42}", "{\x00}", "{42}\x00",
    # non-ASCII inside and around tags (chars above U+00FF cannot be latin-1 encoded)
    "ключ:{42}", "{ключ}:x", "{42}:ключ", "{é}x", "x{é}", "{日本}語", "日{本}語", "{ÿ}",
    "é{a}", "{€}", "{😀}x", "x{😀}", "{a}😀", "😀{a}", "{é}{ж}", "{ж}{é}", "ÿ{}ÿ", "{ÿ}{}",
]


def tag_keys(random_count=1000, seed=31031):
    """The tag shapes, each shape with a few tag values, and random strings over an alphabet
    rich in braces (every rule is then decided by many keys)."""
    out = list(TAG_SHAPES)
    for tag in ("42", "user:1000", "", "é", "x" * 40):
        for shape in ("{%s}", "{%s}rest", "head{%s}", "head{%s}tail", "{%s}{other}",
                      "{other}{%s}", "a{b}{%s}c"):
            out.append(shape % tag)
    rng = random.Random(seed)
    alphabet = ["{", "}", "{", "}", "a", "b", "4", "2", ":", "\n", "é", "ж", " "]
    for _ in range(random_count):
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12))))
    return out


def random_keys(count, seed):
    """`count` more random keys in the common shapes (ids, uuids, paths, session ids)."""
    return V._random_keys(count, seed)


def long_keys():
    """Keys of 250 bytes and more, some with a tag."""
    return ["{42}" + "x" * 300, "x" * 300 + "{42}", "p" * 1000, "{" + "t" * 260 + "}rest",
            "ключ" * 80, "k" * 4096]


def _dedupe(keys):
    out, seen = [], set()
    for k in keys:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def keys_small():
    """The common key list (tests/oracles/lib/families.py) with the tag shapes and 1,000
    random brace-rich keys (~2,200 keys)."""
    return _dedupe(F.keys() + tag_keys() + long_keys())


def keys_full():
    """keys_small() plus 2,000 more random keys (~4,200 keys)."""
    return _dedupe(keys_small() + random_keys(2000, 77031))


# ---- server sets ----

def ten_mixed(port=6379):
    """10 servers: IPv4 literals and host names; ports `port`, 11211 and others."""
    return [
        server("10.0.1.1", port), server("10.0.1.2", 11211), server("10.0.1.3", 6380),
        server("10.0.1.4", 7000), server("cache1.example.com", port),
        server("cache2.example.com", 11311), server("192.168.100.7", port),
        server("172.16.5.9", 26379), server("mc-10.internal", 11211), server("10.0.1.10", 1),
    ]


def hostnames(port=6379):
    return F.hostname_set(6, port=port)


def ipv6(port=6379):
    return [server("2001:db8::1", port, label="[2001:db8::1]:%d" % port),
            server("2001:db8::2", port, label="[2001:db8::2]:%d" % port),
            server("fd00::a:b", port + 1, label="[fd00::a:b]:%d" % (port + 1)),
            server("10.9.0.4", port)]


def many(n=150, port=6379, base="10.8"):
    """n IPv4 servers <base>.x.y, three ports in turn."""
    return V.set_equal(n, base=base, port=port, port_cycle=3)


def same_host(port=6379):
    """8 ports of one host (only the port tells them apart)."""
    return [server("10.2.0.1", port + i) for i in range(8)]


def weighted_sets(port=6379):
    """(name, servers) sets with weights: small, skewed, a 0, large, libketama's."""
    return [
        ("weighted", [server("10.5.0.1", port, 1), server("10.5.0.2", port, 2),
                      server("10.5.0.3", port, 3), server("10.5.0.4", port + 1, 5)]),
        ("skewed", [server("10.3.0.%d" % (i + 1), port + (i % 2), w)
                    for i, w in enumerate([1, 10, 100, 1000, 50, 3, 500, 7])]),
        ("zero-weight", [server("10.6.0.1", port, 1), server("10.6.0.2", port, 0),
                         server("10.6.0.3", port, 2), server("10.6.0.4", port, 0)]),
        ("libketama-weights", [server("10.0.1.%d" % (i + 1), port, w) for i, w in
                               enumerate([600, 300, 200, 350, 1000, 800, 950, 100])]),
        ("three-weighted", [server("10.4.0.1", port, 1680), server("10.4.0.2", port, 308),
                            server("10.4.0.3", port, 1212)]),
    ]


def write(name, source, generator, profile, servers, keys_, expect):
    """Write tests/vectors/<name> (top level) in the README's schema."""
    return V.write_vector(name, source, generator, keys_, expect, profile=profile,
                          hash_name=None, servers=servers)
