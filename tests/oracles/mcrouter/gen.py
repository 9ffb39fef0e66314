"""Writes tests/vectors/pending/mcrouter-*.json from mcrouter's own hashing code (README.md)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

REVS = sys.argv[1]
CMD = sys.argv[2:]
GEN = "tests/oracles/mcrouter/gen.py"
BASE = ("mcrouter %s: mcrouter/lib/fbi/hash.c, mcrouter/lib/WeightedCh3HashFunc.cpp and "
        "folly/hash/SpookyHashV2.cpp compiled from their sources (g++ -O2, x86-64) by "
        "tests/oracles/mcrouter/generate.sh" % REVS)
SRC_CH3 = BASE + "; Ch3HashFunc(n)(key) = furc_hash(key, len, n) -> servers[index]; weights ignored"
SRC_WCH3 = BASE + ("; WeightedCh3HashFunc(weights)(key) (32 tries) -> servers[index], with "
                   "weights[i] = double(w_i) / double(max w)")

V = F.vectorlib
CH3 = {
    "one": [F.server("10.0.0.1", 11211)],
    "two": V.set_two(),
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "ipv6": F.ipv6_set(),
    "two-hundred-fifty": V.set_equal(250, base="10.7"),
    "thousand": V.set_equal(1000, base="10.10", port_cycle=2),
}
WCH3 = {
    "one": [F.server("10.0.0.1", 11211, 5)],
    "two-equal": [F.server("10.0.0.1", 11211, 3), F.server("10.0.0.2", 11211, 3)],
    "skewed": V.set_skewed(),
    "weighted": F.weighted_set(),
    "three-weighted": V.set_three_weighted(),
    "libketama-weights": V.set_libketama_weights(),
    "ten-mixed": V.set_ten_mixed(),
    "two-hundred-fifty-skewed": [dict(s, weight=1 + (i * 7) % 10)
                                 for i, s in enumerate(V.set_equal(250, base="10.7"))],
    "zero-weight": [F.server("10.0.0.1", 11211, 0), F.server("10.0.0.2", 11211, 1),
                    F.server("10.0.0.3", 11211, 0)],
}
# furc_hash raw n values: n <= 1 gives 0, powers of two and their neighbours, the FURC_SHIFT limit
# 2^23 and beyond it (Ch3HashFunc refuses n > 2^23; furc_hash itself still answers)
FURC_N = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 100, 1000, 65535, 65536, 8388607, 8388608, 8388609,
          16777216, 2147483648, 4294967295]


def main():
    keys = F.keys()
    jobs, meta = [], []
    for n, servers in CH3.items():
        jobs.append({"params": ["ch3"], "servers": [[s["host"], s["port"], s["weight"]] for s in servers],
                     "keys": keys})
        meta.append(("mcrouter-ch3", n, servers, SRC_CH3))
    for n, servers in WCH3.items():
        jobs.append({"params": ["wch3"], "servers": [[s["host"], s["port"], s["weight"]] for s in servers],
                     "keys": keys})
        meta.append(("mcrouter-wch3", n, servers, SRC_WCH3))
    raw_keys = keys[:300] + [k for k in keys[300:] if len(k.encode()) > 40][:100]
    jobs.append({"params": ["raw"] + FURC_N, "servers": [], "keys": raw_keys})
    res = F.run_line_driver(CMD, jobs)
    for (profile, n, servers, src), r in zip(meta, res):
        labels = [servers[int(i)]["label"] if i is not None else None for i in r]
        F.write("%s-%s.json" % (profile, n), src, GEN, profile, servers, keys, labels)
    raw = [list(map(int, line.split())) for line in res[-1]]
    # kind "hash" file for SpookyHashV2 Hash32 seed 0 (a plain key hash)
    F.vectorlib.write_vector(F.PENDING + "mcrouter-hash-spooky32.json",
                             BASE + "; folly::hash::SpookyHashV2::Hash32(key, len, 0)", GEN,
                             raw_keys, [r[1] for r in raw], hash_name="spooky32", kind="hash")
    # everything else (u64 values as decimal strings): one custom file for unit tests
    doc = {
        "source": BASE,
        "generator": GEN,
        "kind": "mcrouter-raw",
        "columns": ["murmur_hash_64A(key, len, 4193360111)", "SpookyHashV2::Hash32(key, len, 0)",
                    "SpookyHashV2::Hash32(key, len, 0xface2014)", "SpookyHashV2::Hash64(key, len, 0)"]
                   + ["furc_hash(key, len, %d)" % n for n in FURC_N],
        "keys": raw_keys,
        "expect": [[str(v) for v in r] for r in raw],
    }
    path = os.path.join(F.vectorlib.VECTORS, "extra", "mcrouter-raw-hashes.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("{\n" + ",\n".join('"%s": %s' % (k, json.dumps(v, ensure_ascii=False)) for k, v in doc.items()
                                   if k not in ("keys", "expect")))
        f.write(',\n"keys": [\n' + ",\n".join(json.dumps(k, ensure_ascii=False) for k in raw_keys) + "\n]")
        f.write(',\n"expect": [\n' + ",\n".join(json.dumps(r) for r in doc["expect"]) + "\n]\n}\n")
    json.load(open(path, encoding="utf-8"))
    print("wrote extra/mcrouter-raw-hashes.json (%d keys)" % len(raw_keys))


if __name__ == "__main__":
    main()
