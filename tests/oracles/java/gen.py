#!/usr/bin/env python3
"""Writes tests/vectors/{spymemcached,xmemcached,java-hash}-*.json from the REAL Java clients.

Called by generate.sh (which compiles SpyOracle.java / XmcOracle.java and passes the classpaths).
This script only chooses keys and server sets and formats JSON; every hash value, server choice and
sequence comes from the clients' own classes, run by the two Java drivers.

usage: gen.py OUT_DIR SPY_JAVA_CMD... -- XMC_JAVA_CMD...   (see generate.sh)
"""
import hashlib
import json
import os
import subprocess
import sys

GENERATOR = "tests/oracles/java/generate.sh"
TIE_KEYS = 30   # per ring with tied points: extra keys "tie:<i>" whose lookup ends on one

# --------------------------------------------------------------------------- keys

WORDS = [
    "apple", "banana", "cherry", "foo", "bar", "baz", "qux", "hello", "hello world!", "world",
    "a", "b", "z", "A", "Z", "key", "keys", "test", "memcached", "ketama", "dustin", "VDEAAAAA",
    "user:1", "user:1000", "user:42:profile", "session:3f2a9c", "cache/obj/77", "item-0",
    "item-1", "The quick brown fox jumps over the lazy dog", "0123456789", "-", "_", ".",
    "key with space", "tab\tkey", "new\nline", "~!@#$%^&*()_+{}|:\"<>?", "CamelCaseKey",
    "UPPER", "lower", "mIxEd", "1234567890123456789012345678901234567890",
]
NUMBERS = [str(i) for i in range(100)] + [
    "999", "1000", "4294967295", "4294967296", "-1", "-2147483648", "2147483647",
    "18446744073709551615", "3.14159", "1e10",
]
NON_ASCII = [
    "é", "café", "été", "naïve", "Ünïcödé", "ß", "Ω", "€uro", "ñandú", "ÿ", "\u00ff\u00fe",
    "\u0080", "\u07ff", "\u0800", "\uffff", "日本語", "日本語キー", "中文:42", "한국어", "ключ",
    "Ελληνικά", "עברית", "العربية", "😀", "emoji😀x", "😀😀😀", "a😀b", "🎉party", "𝄞music",
    "\U0010ffff", "\U00010000", "mixé😀日本", "user:é:1", "key-ß-😀",
]
LONG = [
    "a" * 250,
    "x" * 249 + "y",
    "0123456789" * 25,
    "é" * 125,                      # 125 chars, 250 UTF-8 bytes
    "😀" * 62 + "ab",               # 250 UTF-8 bytes, 126 UTF-16 units
    "日" * 83 + "a",                # 250 UTF-8 bytes
    "é" * 250,                      # 250 chars, 500 bytes
    "😀" * 250,                     # 250 code points, 1000 bytes, 500 UTF-16 units
    "k" * 1000,                     # beyond the protocol limit: locators still place it
]
EMPTY = ["", " ", "\t "]   # empty and whitespace-only keys (xmemcached throws on the empty one only)


def random_keys(count, tag):
    """Deterministic random-looking keys (md5-derived, lengths 1..48)."""
    out = []
    i = 0
    while len(out) < count:
        d = hashlib.md5(("%s-%d" % (tag, i)).encode()).hexdigest()
        d2 = hashlib.sha1(("%s-%d" % (tag, i)).encode()).hexdigest()
        form = int(d[0], 16) % 4
        length = 1 + int(d[1:3], 16) % 48
        if form == 0:
            k = (d + d2)[:length]
        elif form == 1:
            k = "user:%d" % int(d[:8], 16)
        elif form == 2:
            k = "obj/%s/%d" % (d2[:6], int(d[8:12], 16))
        else:
            k = "k" + (d2 + d)[:length]
        out.append(k)
        i += 1
    return out


def dedupe(keys):
    seen, out = set(), []
    for k in keys:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


FIXED = WORDS + NUMBERS + NON_ASCII + LONG + EMPTY
KEYS_MAIN = dedupe(FIXED + random_keys(900, "main"))      # big rings, default algorithms
KEYS_SMALL = dedupe(FIXED + random_keys(250, "small"))     # the many variant files
KEYS_HASH = dedupe(FIXED + random_keys(400, "hash"))       # kind "hash"
KEYS_SEQ = dedupe(WORDS + NON_ASCII + LONG + EMPTY + random_keys(250, "seq"))

# --------------------------------------------------------------------------- servers


def srv(host, port, weight=1, kind=None):
    if kind is None:
        kind = "ip" if (host.replace(".", "").isdigit() or ":" in host) else "name"
    label = ("[%s]:%d" % (host, port)) if ":" in host else ("%s:%d" % (host, port))
    return {"host": host, "port": port, "weight": weight, "label": label, "_kind": kind}


def ipv4(n, ports="11211"):
    """n IPv4 literals in private/documentation ranges (nothing connects to them)."""
    out = []
    for i in range(n):
        if n <= 250:
            host = "10.0.%d.%d" % (1 + i // 250, 1 + i % 250)
        else:
            host = "10.%d.%d.%d" % (1 + i // 62500, (i // 250) % 250, 1 + i % 250)
        if ports == "11211":
            port = 11211
        elif ports == "mixed":          # 11211 on every third server, other ports elsewhere
            port = 11211 if i % 3 == 0 else 11211 + i
        else:
            port = int(ports)
        out.append(srv(host, port))
    return out


def names(n, ports="mixed"):
    out = []
    for i in range(n):
        port = 11211 if (ports == "11211" or i % 2 == 0) else 12000 + i
        host = ["cache%02d.example.lan" % (i + 1), "mc%d" % (i + 1), "memcache-%d.internal" % (i + 1)][i % 3]
        out.append(srv(host, port))
    return out


def mixed(n):
    """IPv4 literals and host names interleaved, various ports."""
    out = []
    for i in range(n):
        if i % 2 == 0:
            out.append(srv("192.0.2.%d" % (10 + i), 11211 if i % 4 == 0 else 11300 + i))
        else:
            out.append(srv("node%d.cache.example.com" % i, 11211 if i % 3 == 0 else 11400 + i))
    return out


def weighted(servers, weights):
    return [dict(s, weight=w) for s, w in zip(servers, weights)]


LIBKETAMA8 = [srv("10.0.1.%d" % i, 11211) for i in range(1, 9)]
LIBKETAMA8_W = weighted(LIBKETAMA8, [600, 300, 200, 350, 1000, 800, 950, 100])
UPSTREAM_SEQ4 = [srv("127.0.0.1", 10000 + i) for i in range(4)]
UPSTREAM_SEQ5 = [srv("127.0.0.1", 10000 + i) for i in range(5)]
UPSTREAM_KEYS = ["dustin", "noelani", "some other key", "V5XS8C8N", "8KR2DKR2", "L9KH6X4X",
                 "36", "10037", "22051", "49044"]
NGINX_UPSTREAM3 = [srv("127.0.0.1", 11211), srv("127.0.0.1", 11212), srv("127.0.0.1", 11213)]
SAMEHOST10 = [srv("10.0.0.1", 11211 + i) for i in range(10)]
IPV6 = [srv("2001:db8::1", 11211), srv("2001:db8::2", 11212), srv("2001:db8:0:1::a", 11211),
        srv("fd00::10", 12000), srv("::1", 11213)]
SKEW10 = weighted(ipv4(10, "mixed"), [1, 5, 10, 50, 100, 200, 500, 1000, 3, 7])
ZERO5 = weighted(ipv4(5, "mixed"), [1, 0, 3, 1, 2])

SPY_ALGS = ["NATIVE_HASH", "CRC_HASH", "FNV1_64_HASH", "FNV1A_64_HASH", "FNV1_32_HASH",
            "FNV1A_32_HASH", "KETAMA_HASH"]
XMC_ALGS = ["NATIVE_HASH", "CRC32_HASH", "FNV1_64_HASH", "FNV1A_64_HASH", "FNV1_32_HASH",
            "FNV1A_32_HASH", "KETAMA_HASH", "MYSQL_HASH", "ELF_HASH", "RS_HASH", "LUA_HASH",
            "ELECTION_HASH", "ONE_AT_A_TIME"]


def short(alg):
    return alg.replace("_HASH", "").lower().replace("_", "")

# --------------------------------------------------------------------------- tasks


class Task:
    def __init__(self, client, fname, kind, profile, alg, servers, keys, fmt="SPYMEMCACHED",
                 weighted=False, nginx=False, note=""):
        self.__dict__.update(locals())
        del self.__dict__["self"]


def spy_tasks():
    t = []
    add = t.append
    # kind hash
    for alg in SPY_ALGS:
        add(Task("spy", "java-hash-spy-%s" % alg, "hash", "spymemcached", alg, [], KEYS_HASH))
    # spymemcached: default format, unweighted
    P = "spymemcached"
    add(Task("spy", "spymemcached-ketama-ipv4-1", "locate", P, "KETAMA_HASH", ipv4(1), KEYS_SMALL))
    add(Task("spy", "spymemcached-ketama-ipv4-2", "locate", P, "KETAMA_HASH",
             [srv("192.0.2.1", 11211), srv("192.0.2.2", 11212)], KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-ipv4-10-mixedports", "locate", P, "KETAMA_HASH", ipv4(10, "mixed"), KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-libketama8", "locate", P, "KETAMA_HASH", LIBKETAMA8, KEYS_MAIN,
             note="servers of upstream KetamaNodeLocatorTest.testLibKetamaCompat* (10.0.1.1-8:11211)"))
    add(Task("spy", "spymemcached-ketama-ipv4-25", "locate", P, "KETAMA_HASH", ipv4(25), KEYS_SMALL))
    add(Task("spy", "spymemcached-ketama-ipv4-100", "locate", P, "KETAMA_HASH", ipv4(100, "mixed"), KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-ipv4-250", "locate", P, "KETAMA_HASH", ipv4(250), KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-ipv4-1000", "locate", P, "KETAMA_HASH", ipv4(1000, "mixed"), KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-names-10", "locate", P, "KETAMA_HASH", names(10), KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-mixed-20", "locate", P, "KETAMA_HASH", mixed(20), KEYS_MAIN))
    add(Task("spy", "spymemcached-ketama-ipv6-5", "locate", P, "KETAMA_HASH", IPV6, KEYS_SMALL))
    for alg in SPY_ALGS[:-1]:
        add(Task("spy", "spymemcached-%s-ipv4-10-mixedports" % short(alg), "locate", P, alg, ipv4(10, "mixed"), KEYS_SMALL))
        add(Task("spy", "spymemcached-%s-names-12" % short(alg), "locate", P, alg, names(12), KEYS_SMALL))
        add(Task("spy", "spymemcached-%s-ipv4-100" % short(alg), "locate", P, alg, ipv4(100), KEYS_SMALL))
    add(Task("spy", "spymemcached-native-samehost-10", "locate", P, "NATIVE_HASH", SAMEHOST10, KEYS_SMALL))
    # LIBMEMCACHED format, unweighted
    P = "spymemcached-libmemcached-format"
    for alg in SPY_ALGS:
        add(Task("spy", "spymemcached-libmemcached-format-%s-mixed-20" % short(alg), "locate", P, alg, mixed(20),
                 KEYS_MAIN if alg == "KETAMA_HASH" else KEYS_SMALL, fmt="LIBMEMCACHED"))
    add(Task("spy", "spymemcached-libmemcached-format-ketama-ipv4-10-mixedports", "locate", P, "KETAMA_HASH",
             ipv4(10, "mixed"), KEYS_MAIN, fmt="LIBMEMCACHED"))
    add(Task("spy", "spymemcached-libmemcached-format-ketama-names-10", "locate", P, "KETAMA_HASH",
             names(10), KEYS_SMALL, fmt="LIBMEMCACHED"))
    add(Task("spy", "spymemcached-libmemcached-format-ketama-ipv4-100", "locate", P, "KETAMA_HASH",
             ipv4(100), KEYS_SMALL, fmt="LIBMEMCACHED"))
    add(Task("spy", "spymemcached-libmemcached-format-ketama-ipv6-5", "locate", P, "KETAMA_HASH",
             IPV6, KEYS_SMALL, fmt="LIBMEMCACHED"))
    # weighted, both formats
    for fmt, P in (("SPYMEMCACHED", "spymemcached-weighted"),
                   ("LIBMEMCACHED", "spymemcached-weighted-libmemcached-format")):
        for n in (10, 25, 47, 50, 100, 200):
            add(Task("spy", "%s-ketama-equal-%d" % (P, n), "locate", P, "KETAMA_HASH",
                     ipv4(n, "mixed"), KEYS_MAIN if n in (10, 100) else KEYS_SMALL, fmt=fmt, weighted=True))
        add(Task("spy", "%s-ketama-libketama8" % P, "locate", P, "KETAMA_HASH", LIBKETAMA8_W, KEYS_MAIN,
                 fmt=fmt, weighted=True, note="libketama's ketama.servers weights"))
        add(Task("spy", "%s-ketama-skewed-10" % P, "locate", P, "KETAMA_HASH", SKEW10, KEYS_MAIN, fmt=fmt, weighted=True))
        add(Task("spy", "%s-ketama-zero-weight-5" % P, "locate", P, "KETAMA_HASH", ZERO5, KEYS_SMALL, fmt=fmt, weighted=True))
        add(Task("spy", "%s-ketama-names-skewed-12" % P, "locate", P, "KETAMA_HASH",
                 weighted(names(12), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000]), KEYS_SMALL, fmt=fmt, weighted=True))
        for alg in ("FNV1A_32_HASH", "CRC_HASH", "NATIVE_HASH"):
            add(Task("spy", "%s-%s-skewed-10" % (P, short(alg)), "locate", P, alg, SKEW10, KEYS_SMALL,
                     fmt=fmt, weighted=True, note="points stay md5 whatever the key hash"))
    # sequences
    add(Task("spy", "spymemcached-sequence-ketama-upstream4", "sequence", "spymemcached", "KETAMA_HASH",
             UPSTREAM_SEQ4, dedupe(UPSTREAM_KEYS + KEYS_SEQ),
             note="servers and keys of upstream KetamaNodeLocatorTest (4 nodes 127.0.0.1:10000-10003; it asserts "
                  "dustin 0,2,1,2; noelani 2,1,1,3; 'some other key' 0; V5XS8C8N, 8KR2DKR2, L9KH6X4X 3 (wrap)); "
                  "all reproduced"))
    add(Task("spy", "spymemcached-sequence-ketama-upstream5", "sequence", "spymemcached", "KETAMA_HASH",
             UPSTREAM_SEQ5, dedupe(UPSTREAM_KEYS + KEYS_SEQ),
             note="servers of upstream testLibKetamaCompat / testClusterResizing (5 nodes 127.0.0.1:10000-10004; "
                  "it asserts 36 2, 10037 3, 22051 1, 49044 4, dustin 0, noelani 2, 'some other key' 4); reproduced"))
    add(Task("spy", "spymemcached-sequence-fnv1a32-upstream5", "sequence", "spymemcached", "FNV1A_32_HASH",
             UPSTREAM_SEQ5, dedupe(UPSTREAM_KEYS + KEYS_SEQ),
             note="servers of upstream testFNV1A_32 (5 nodes 127.0.0.1:10000-10004; it asserts noelani "
                  "1,2,2,2,3; dustin 2, noelani 1, 'some other key' 4); reproduced"))
    add(Task("spy", "spymemcached-sequence-ketama-libketama8", "sequence", "spymemcached", "KETAMA_HASH", LIBKETAMA8, KEYS_SEQ))
    add(Task("spy", "spymemcached-sequence-fnv1a32-ipv4-10-mixedports", "sequence", "spymemcached", "FNV1A_32_HASH",
             ipv4(10, "mixed"), KEYS_SEQ))
    add(Task("spy", "spymemcached-sequence-crc-names-12", "sequence", "spymemcached", "CRC_HASH", names(12), KEYS_SEQ))
    add(Task("spy", "spymemcached-sequence-native-ipv4-10", "sequence", "spymemcached", "NATIVE_HASH", ipv4(10), KEYS_SEQ))
    add(Task("spy", "spymemcached-weighted-libmemcached-format-sequence-ketama-skewed-10", "sequence",
             "spymemcached-weighted-libmemcached-format", "KETAMA_HASH", SKEW10, KEYS_SEQ, fmt="LIBMEMCACHED", weighted=True))
    return t


def xmc_tasks():
    t = []
    add = t.append
    for alg in XMC_ALGS:
        add(Task("xmc", "java-hash-xmc-%s" % alg, "hash", "xmemcached", alg, [], KEYS_HASH))
    P = "xmemcached"
    add(Task("xmc", "xmemcached-ketama-ipv4-1", "locate", P, "KETAMA_HASH", ipv4(1), KEYS_SMALL))
    add(Task("xmc", "xmemcached-ketama-ipv4-2", "locate", P, "KETAMA_HASH",
             [srv("192.0.2.1", 11211), srv("192.0.2.2", 11212)], KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-ipv4-10-mixedports", "locate", P, "KETAMA_HASH", ipv4(10, "mixed"), KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-libketama8", "locate", P, "KETAMA_HASH", LIBKETAMA8, KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-ipv4-100", "locate", P, "KETAMA_HASH", ipv4(100, "mixed"), KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-ipv4-250", "locate", P, "KETAMA_HASH", ipv4(250), KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-names-10", "locate", P, "KETAMA_HASH", names(10), KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-mixed-20", "locate", P, "KETAMA_HASH", mixed(20), KEYS_SMALL))
    add(Task("xmc", "xmemcached-ketama-ipv6-5", "locate", P, "KETAMA_HASH", IPV6, KEYS_SMALL))
    add(Task("xmc", "xmemcached-ketama-weights-1to10", "locate", P, "KETAMA_HASH",
             weighted(ipv4(10, "mixed"), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), KEYS_MAIN))
    add(Task("xmc", "xmemcached-ketama-skewed-10", "locate", P, "KETAMA_HASH", SKEW10, KEYS_MAIN))
    for alg in XMC_ALGS:
        if alg == "KETAMA_HASH":
            continue
        add(Task("xmc", "xmemcached-%s-ipv4-10-mixedports" % short(alg), "locate", P, alg, ipv4(10, "mixed"), KEYS_SMALL))
        add(Task("xmc", "xmemcached-%s-names-12-weighted" % short(alg), "locate", P, alg,
                 weighted(names(12), [1, 1, 2, 1, 3, 1, 1, 5, 1, 1, 2, 1]), KEYS_SMALL))
    for alg in ("CRC32_HASH", "FNV1A_32_HASH", "ONE_AT_A_TIME", "ELECTION_HASH", "NATIVE_HASH", "ELF_HASH", "LUA_HASH"):
        add(Task("xmc", "xmemcached-%s-ipv4-100" % short(alg), "locate", P, alg, ipv4(100), KEYS_SMALL))
    add(Task("xmc", "xmemcached-crc32-ipv4-250", "locate", P, "CRC32_HASH", ipv4(250), KEYS_SMALL))
    add(Task("xmc", "xmemcached-election-skewed-10", "locate", P, "ELECTION_HASH", SKEW10, KEYS_SMALL))
    add(Task("xmc", "xmemcached-native-samehost-10", "locate", P, "NATIVE_HASH", SAMEHOST10, KEYS_SMALL))
    P = "xmemcached-nginx"
    add(Task("xmc", "xmemcached-nginx-ketama-ipv4-10-mixedports", "locate", P, "KETAMA_HASH", ipv4(10, "mixed"), KEYS_MAIN, nginx=True))
    add(Task("xmc", "xmemcached-nginx-ketama-ipv4-100", "locate", P, "KETAMA_HASH", ipv4(100), KEYS_MAIN, nginx=True))
    add(Task("xmc", "xmemcached-nginx-ketama-libketama8", "locate", P, "KETAMA_HASH", LIBKETAMA8, KEYS_SMALL, nginx=True))
    add(Task("xmc", "xmemcached-nginx-ketama-skewed-10", "locate", P, "KETAMA_HASH", SKEW10, KEYS_SMALL, nginx=True))
    add(Task("xmc", "xmemcached-nginx-ketama-upstream3", "locate", P, "KETAMA_HASH", NGINX_UPSTREAM3, KEYS_SMALL,
             nginx=True, note="servers of upstream KetamaMemcachedSessionLocatorNginxUpstreamConsistentUnitTest "
                              "(its keys are the point strings, included below)"))
    add(Task("xmc", "xmemcached-nginx-ketama-ipv6-5", "locate", P, "KETAMA_HASH", IPV6, KEYS_SMALL, nginx=True))
    for alg in ("CRC32_HASH", "FNV1A_32_HASH", "ONE_AT_A_TIME", "NATIVE_HASH", "ELECTION_HASH"):
        add(Task("xmc", "xmemcached-nginx-%s-ipv4-10-mixedports" % short(alg), "locate", P, alg, ipv4(10, "mixed"), KEYS_SMALL, nginx=True))
    # sequences (the rehash walk of getSessionByKey; see XmcOracle.java)
    P = "xmemcached"
    add(Task("xmc", "xmemcached-sequence-ketama-ipv4-10-mixedports", "sequence", P, "KETAMA_HASH", ipv4(10, "mixed"), KEYS_SEQ))
    add(Task("xmc", "xmemcached-sequence-crc32-names-12", "sequence", P, "CRC32_HASH", names(12), KEYS_SEQ))
    add(Task("xmc", "xmemcached-sequence-fnv1a32-skewed-10", "sequence", P, "FNV1A_32_HASH", SKEW10, KEYS_SEQ))
    return t

# --------------------------------------------------------------------------- running


def run_java(cmd, tasks):
    lines = []
    for i, t in enumerate(tasks):
        tie = 0 if t.kind == "hash" else TIE_KEYS
        if t.client == "spy":
            lines.append("T %d %s %s %s %d %d" % (i, t.kind, t.alg, t.fmt, 1 if t.weighted else 0, tie))
        else:
            lines.append("T %d %s %s %d %d" % (i, t.kind, t.alg, 1 if t.nginx else 0, tie))
        for s in t.servers:
            lines.append("S %s %s %d %d" % (s["_kind"], s["host"], s["port"], s["weight"]))
        for k in t.keys:
            lines.append("K " + k.encode("utf-8").hex())
        lines.append("E")
    p = subprocess.run(cmd, input=("\n".join(lines) + "\n").encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    err = p.stderr.decode("utf-8", "replace")
    err = "\n".join(l for l in err.splitlines() if not l.startswith("SLF4J:"))
    if p.returncode != 0:
        sys.stderr.write(err)
        raise SystemExit("java failed: %s" % cmd)
    if err.strip():
        sys.stderr.write(err + "\n")
    out = p.stdout.decode("utf-8").split("\n")
    results, pos = {}, 0
    while pos < len(out):
        if not out[pos]:
            pos += 1
            continue
        assert out[pos].startswith("R "), out[pos]
        tid = int(out[pos][2:])
        pos += 1
        res = {"nodes": [], "ring": None, "rows": [], "extra": [], "on_ties": None}
        while out[pos] != "D":
            l = out[pos]
            if l.startswith("N "):
                _, _, h = l.split(" ", 2)
                res["nodes"].append(bytes.fromhex(h).decode("utf-8"))
            elif l.startswith("P "):
                res["ring"] = [int(x) for x in l.split()[1:]]
            elif l.startswith("X "):
                res["extra"].append(bytes.fromhex(l[2:]).decode("utf-8"))
            elif l.startswith("Q "):
                res["on_ties"] = int(l[2:])
            else:
                res["rows"].append(l)
            pos += 1
        pos += 1
        results[tid] = res
    return results


def dump(path, doc):
    """Deterministic JSON: header fields pretty, one server / key / expectation per line."""
    head = {k: v for k, v in doc.items() if k not in ("servers", "keys", "expect")}
    parts = []
    for k, v in head.items():
        parts.append("  %s: %s" % (json.dumps(k), json.dumps(v, ensure_ascii=False)))
    if "servers" in doc:
        parts.append('  "servers": [\n' + ",\n".join(
            "    " + json.dumps(s, ensure_ascii=False) for s in doc["servers"]) + "\n  ]")
    for k in ("keys", "expect"):
        parts.append('  "%s": [\n' % k + ",\n".join(
            "    " + json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in doc[k]) + "\n  ]")
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")


def main():
    argv = sys.argv[1:]
    outdir = argv[0]
    sep = argv.index("--")
    spy_cmd, xmc_cmd = argv[1:sep], argv[sep + 1:]
    meta = json.loads(os.environ["JAVA_ORACLE_META"])
    spy_ver, xmc_ver, jdk = meta["spy"], meta["xmc"], meta["jdk"]

    written = []
    for client, cmd, tasks in (("spy", spy_cmd, spy_tasks()), ("xmc", xmc_cmd, xmc_tasks())):
        results = run_java(cmd, tasks)
        for i, t in enumerate(tasks):
            r = results[i]
            n_servers = len(t.servers)
            if r["extra"]:
                t.keys = t.keys + r["extra"]
            if t.kind == "hash":
                expect = []
                for row in r["rows"]:
                    if row == "x":
                        expect.append(None)
                    else:
                        v = int(row)
                        if not 0 <= v < 2 ** 32:
                            raise SystemExit("%s: hash outside u32: %d" % (t.fname, v))
                        expect.append(v)
            elif t.kind == "locate":
                expect = [None if row == "x" else t.servers[int(row)]["label"] for row in r["rows"]]
            else:
                # keys on which the hash throws (xmemcached: empty key) are left out of the file
                dropped = [k for k, row in zip(t.keys, r["rows"]) if row == "x"]
                if dropped:
                    t.keys = [k for k, row in zip(t.keys, r["rows"]) if row != "x"]
                    t.note = (t.note + ". " if t.note else "") + \
                        "Left out: %d key(s) on which hash() throws (%s)" % (len(dropped), ", ".join(map(repr, dropped)))
                    r["rows"] = [row for row in r["rows"] if row != "x"]
                expect = [[t.servers[int(x)]["label"] for x in row.split(",")] for row in r["rows"]]
            assert len(expect) == len(t.keys), t.fname
            src = describe(client, t, r, spy_ver, xmc_ver, jdk)
            doc = {"source": src, "generator": GENERATOR, "kind": t.kind}
            if t.profile:
                doc["profile"] = t.profile
            doc["hash"] = t.alg
            if t.kind != "hash":
                doc["servers"] = [{k: v for k, v in s.items() if not k.startswith("_")} for s in t.servers]
            if t.kind == "sequence":
                doc["n"] = len(expect[0])
                assert all(len(e) == doc["n"] for e in expect)
            doc["keys"] = t.keys
            doc["expect"] = expect
            path = os.path.join(outdir, t.fname + ".json")
            dump(path, doc)
            written.append((t.fname, t.profile or "-", t.alg, n_servers, len(t.keys),
                            os.path.getsize(path), r["ring"]))
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors-index.txt"), "w") as f:
        f.write("# file\tprofile\thash\tservers\tkeys\tbytes\tring(size puts [ties distinct-ties])\n")
        for w in written:
            f.write("\t".join(str(x) for x in w[:6]) + "\t" + (" ".join(map(str, w[6])) if w[6] else "-") + "\n")
    total = sum(w[5] for w in written)
    print("wrote %d files, %d bytes" % (len(written), total))


def describe(client, t, r, spy_ver, xmc_ver, jdk):
    keynote = ("Keys are Java Strings decoded from the listed UTF-8. ")
    if client == "spy":
        head = ("spymemcached %s (Debian libspymemcached-java %s, /usr/share/java/spymemcached.jar) on OpenJDK %s. "
                % (spy_ver["upstream"], spy_ver["debian"], jdk))
        if t.kind == "hash":
            return head + ("net.spy.memcached.DefaultHashAlgorithm.%s.hash(key); null = it threw. " % t.alg) + keynote
        if t.weighted:
            call = ("new KetamaNodeLocator(nodes, DefaultHashAlgorithm.%s, KetamaNodeKeyFormatter.Format.%s, weights) "
                    "with weights = Map<InetSocketAddress,Integer> of every server's weight" % (t.alg, t.fmt))
        elif t.fmt == "LIBMEMCACHED":
            call = ("new KetamaNodeLocator(nodes, DefaultHashAlgorithm.%s, KetamaNodeKeyFormatter.Format.LIBMEMCACHED, "
                    "new HashMap<>()) (empty weight map = unweighted)" % t.alg)
        else:
            call = "new KetamaNodeLocator(nodes, DefaultHashAlgorithm.%s) (SPYMEMCACHED format, no weights)" % t.alg
        nodes = ("Nodes: stand-in MemcachedNode proxies, in server order, whose getSocketAddress() is "
                 "new InetSocketAddress(ip, port) for IP literals (what AddrUtil.getAddresses builds; no DNS)"
                 if t.fmt == "SPYMEMCACHED" else
                 "Nodes: stand-in MemcachedNode proxies, in server order, whose getSocketAddress() is an "
                 "InetSocketAddress over InetAddress.getByAddress(getHostAddress(), bytes) for IP literals, so that "
                 "getHostName() returns the IP text without a reverse-DNS query (= the real client for an IP "
                 "without a forward-confirmed PTR record)")
        nodes += " and InetSocketAddress.createUnresolved(host, port) for host names. "
        op = ("getPrimary(key) per key; expect = that node's label. The locator accepts every key, "
              "including those MemcachedClient's key validation refuses (empty, > 250 bytes, whitespace). "
              if t.kind == "locate" else
              "getSequence(key) per key: all 7 nodes its KetamaIterator yields, in order (the first = "
              "getPrimary(key), checked). ")
        size, puts, tied = r["ring"]
        ring = ("Ring: %d distinct points from %d TreeMap.put calls; %d points are produced by 2+ servers "
                "(ties: the later put wins); %d of the keys end on one. (Puts and tied points of KETAMA_HASH and "
                "weighted rings: read from the locator's own debug log; other rings: 160 puts per node, tied "
                "points found by building one single-node locator per server with the same constructor.) "
                % (size, puts, tied, r["on_ties"]))
    else:
        head = ("xmemcached %s (Maven Central com.googlecode.xmemcached:xmemcached:%s, slf4j-api 1.7.21) on OpenJDK %s. "
                % (xmc_ver, xmc_ver, jdk))
        if t.kind == "hash":
            return head + ("net.rubyeye.xmemcached.HashAlgorithm.%s.hash(key); null = it threw. " % t.alg) + keynote
        call = ("new KetamaMemcachedSessionLocator(HashAlgorithm.%s, %s) then updateSessions(sessions)"
                % (t.alg, "true" if t.nginx else "false"))
        nodes = ("Sessions: stand-in MemcachedSession proxies, in server order, with getRemoteSocketAddress() = "
                 "new InetSocketAddress(ip, port) for IP literals (no DNS) or InetSocketAddress.createUnresolved(host, port) "
                 "for host names, getWeight() = the server's weight, and a real InetSocketAddressWrapper(addr, order, "
                 "weight, null, resolve=false) whose remote-address string is String.valueOf(addr), as "
                 "MemcachedConnector sets it at first connect (pool size 1). ")
        op = ("getSessionByKey(key) per key, all sessions open; null = it threw or returned null. "
              if t.kind == "locate" else
              "Per key the failover walk getSessionByKey makes over closed sessions, via the locator's public "
              "methods: getSessionByHash(h0 = hash(key)), then h_t = nextHash(h_{t-1}, key, t), t = 1..min(6, "
              "#sessions) (getSessionByKey does at most #sessions rehashes); checked against getSessionByKey with "
              "the first entry closed. In the real client a closed session is normally removed and the ring "
              "rebuilt, so this walk only shows while that has not happened yet. ")
        ring = "Ring: %d distinct points from %d points (160 x weight each); %d points shared by 2+ entries, " \
               "%d of them by 2+ distinct servers (owner = list sorted by node string, [point %% size]; one " \
               "entry per point put, so a server that hit the point twice is in the list twice: %d such " \
               "lists); %d of the keys end on a point shared by 2+ distinct servers. " \
               % (tuple(r["ring"]) + (r["on_ties"],))
    ex = "; ".join("%r" % s for s in r["nodes"][:3])
    strings = "Node strings hashed (first %d): %s. " % (min(3, len(r["nodes"])), ex)
    note = (t.note + ". ") if t.note else ""
    exact = [k for k in r["extra"] if not k.startswith("tie:")]
    ties = [k for k in r["extra"] if k.startswith("tie:")]
    if exact:
        note += ("%d keys after the fixed set are point strings '<node string>-<j>' (j = 0, 1, 39) of the first "
                 "servers, added by the oracle from the node strings the client hashes (exact point hits). " % len(exact))
    if ties:
        note += ("The last %d keys (tie:<i>, i ascending, the first whose lookup ends on a point produced by "
                 "2+ servers) were picked by the oracle with the client's hash and ring to pin the tie rule. " % len(ties))
    return head + call + ". " + nodes + op + ring + strings + note + keynote + \
        "Labels = host:port as listed ([v6]:port for IPv6)."


if __name__ == "__main__":
    main()
