"""Checks the placement specs written in tests/oracles/FAMILIES-NOTES.md against the vectors the
real clients recorded (dalli, nginx, whalin, folsom, memjs, xmemcached-gwhalin). This is OUR model
of each algorithm, kept only to prove the notes exact: it never writes a vector, and the
Rust/C/Python/PHP suites test the real profiles on the vectors themselves. mcrouter is checked by
core/tests/family_hashes.rs. Usage: python3 tests/oracles/lib/spec_check.py [dir]
(default: tests/vectors/pending, then tests/vectors). Standard library only.
"""
import bisect
import glob
import hashlib
import ipaddress
import json
import math
import os
import sys
import urllib.parse
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def u16(s):
    b = s.encode("utf-16-le")
    return [b[i] | (b[i + 1] << 8) for i in range(0, len(b), 2)]


def java_hash(s):
    h = 0
    for c in u16(s):
        h = (31 * h + c) & 0xffffffff
    return h - (1 << 32) if h >= 1 << 31 else h


def old_compat(s):
    h = 0
    for c in u16(s):
        h = (33 * h + c) & 0xffffffffffffffff
    return h - (1 << 64) if h >= 1 << 63 else h


def i32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >= 1 << 31 else x


def murmur3_32(data, seed=0):
    rot = lambda x, r: ((x << r) | (x >> (32 - r))) & 0xffffffff  # noqa: E731
    c1, c2, h, n = 0xcc9e2d51, 0x1b873593, seed, len(data)
    for i in range(0, n // 4 * 4, 4):
        k = (rot((int.from_bytes(data[i:i + 4], "little") * c1) & 0xffffffff, 15) * c2) & 0xffffffff
        h = (rot(h ^ k, 13) * 5 + 0xe6546b64) & 0xffffffff
    tail = data[n // 4 * 4:]
    if tail:
        h ^= (rot((int.from_bytes(tail, "little") * c1) & 0xffffffff, 15) * c2) & 0xffffffff
    h ^= n
    h ^= h >> 16
    h = (h * 0x85ebca6b) & 0xffffffff
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & 0xffffffff
    return h ^ (h >> 16)


def ceiling(sorted_keys, h):
    i = bisect.bisect_left(sorted_keys, h)
    return sorted_keys[0] if i == len(sorted_keys) else sorted_keys[i]


def dalli(d):
    S = d["servers"]
    n, tw = len(S), sum(s["weight"] for s in S)
    pts = []
    for s in S:
        name = "%s:%d" % (s["host"], s["port"])  # IPv6 without brackets
        for j in range(math.floor(float(n * 160 * s["weight"]) / float(tw))):
            pts.append((int(hashlib.sha1(("%s:%d" % (name, j)).encode()).hexdigest()[:8], 16), s["label"]))
    pts.sort(key=lambda p: p[0])
    vals = [p[0] for p in pts]
    for k in d["keys"]:
        if k == "":
            yield None
            continue
        if n == 1:
            yield S[0]["label"]
            continue
        if len(k) > 250:  # characters
            k = k[:212] + ":md5:" + hashlib.md5(k.encode()).hexdigest()
        i = bisect.bisect_right(vals, zlib.crc32(k.encode())) - 1  # -1 -> last
        yield pts[i][1]


def nginx(d):
    S = d["servers"]
    pts = []
    for s in S:
        host, _, port = s["label"].rpartition(":")
        base, prev = zlib.crc32(host.encode() + b"\0" + port.encode()), b"\0\0\0\0"
        for _ in range(160 * s["weight"]):
            h = zlib.crc32(prev, base)
            pts.append((h, s["label"]))
            prev = h.to_bytes(4, "little")
    pts.sort(key=lambda p: p[0])  # stable: equal points keep server order
    kept = []
    for p in pts:
        if not kept or kept[-1][0] != p[0]:
            kept.append(p)
    vals = [p[0] for p in kept]
    for k in d["keys"]:
        if len(S) == 1:
            yield S[0]["label"]
            continue
        yield kept[bisect.bisect_left(vals, zlib.crc32(k.encode())) % len(kept)][1]


def whalin(d):
    p = d["profile"]
    S = d["servers"]
    n, tw = len(S), sum(s["weight"] for s in S)
    buckets = [s["label"] for s in S for _ in range(s["weight"])]
    ring = {}
    for s in S:
        for j in range(max(0, math.floor(i32(s["weight"] * 40 * n) / float(tw)))):
            dg = hashlib.md5(("%s-%d" % (s["label"], j)).encode()).digest()
            for h in range(4):
                ring[int.from_bytes(dg[4 * h:4 * h + 4], "little")] = s["label"]  # later wins
    keys = sorted(ring)
    for k in d["keys"]:
        if p.endswith("-sanitized"):
            k = urllib.parse.quote_plus(k, safe="*-._")
        if p.startswith("whalin-consistent"):
            yield ring[ceiling(keys, int.from_bytes(hashlib.md5(k.encode()).digest()[:4], "little"))] if ring else None
            continue
        if p == "whalin-native":
            h = java_hash(k)
        elif p == "whalin-old-compat":
            h = old_compat(k)
        else:
            h = (zlib.crc32(k.encode()) >> 16) & 0x7fff
        yield buckets[abs(h) % len(buckets)] if buckets else None


def folsom(d):
    S = d["servers"]
    ring = {}
    for s in S:
        hp = ("[%s]" % s["host"] if ":" in s["host"] else s["host"]) + ":%d" % s["port"]
        b = bytes(ord(c) & 0xff for c in hp)
        for _ in range(100):
            h = murmur3_32(b)
            b = h.to_bytes(4, "little")
            ring[i32(h)] = s["label"]  # later wins
    keys = sorted(ring)
    for k in d["keys"]:
        kb = k.encode()
        if not kb or len(kb) > 250 or any(0 <= c <= 32 for c in kb):
            yield None
        elif len(S) == 1:
            yield S[0]["label"]
        else:
            yield ring[ceiling(keys, i32(murmur3_32(kb)))]


def memjs(d):
    S = d["servers"]
    for k in d["keys"]:
        yield S[abs(java_hash(k)) % len(S) if len(S) > 1 else 0]["label"]


def xmemcached_gwhalin(d):
    ring = {}
    for s in d["servers"]:
        h = s["host"]
        try:
            a = ipaddress.ip_address(h)
            if a.version == 6:
                h = ":".join("%x" % int(x, 16) for x in a.exploded.split(":"))
        except ValueError:
            pass
        for j in range(40 * s["weight"]):
            dg = hashlib.md5(("%s:%d-%d" % (h, s["port"], j)).encode()).digest()
            for q in range(4):
                ring.setdefault(int.from_bytes(dg[4 * q:4 * q + 4], "little"), []).append(s["label"])
    keys = sorted(ring)
    for k in d["keys"]:
        if k == "":
            yield None
            continue
        pt = ceiling(keys, int.from_bytes(hashlib.md5(k.encode()).digest()[:4], "little"))
        lst = ring[pt]
        yield lst[0] if len(set(lst)) == 1 else "TIE"


MODELS = [("dalli-", dalli), ("nginx-", nginx), ("whalin-", whalin), ("folsom-", folsom),
          ("memjs-", memjs), ("xmemcached-gwhalin-", xmemcached_gwhalin)]


def main():
    dirs = sys.argv[1:] or [os.path.join(ROOT, "tests/vectors/pending"), os.path.join(ROOT, "tests/vectors")]
    total_bad = files = keys = 0
    for prefix, model in MODELS:
        for dr in dirs:
            for f in sorted(glob.glob(os.path.join(dr, prefix + "*.json"))):
                d = json.load(open(f, encoding="utf-8"))
                if d.get("kind", "locate") != "locate":
                    continue
                got = list(model(d))
                bad = [(k, g, e) for k, g, e in zip(d["keys"], got, d["expect"]) if g != e]
                files += 1
                keys += len(got)
                if bad:
                    total_bad += len(bad)
                    print("%s: %d mismatches, e.g. %r" % (os.path.basename(f), len(bad), bad[:2]))
    print("%d files, %d keys, %d mismatches" % (files, keys, total_bad))
    sys.exit(1 if total_bad or not files else 0)


if __name__ == "__main__":
    main()
