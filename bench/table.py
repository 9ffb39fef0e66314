"""The ratio table (ours against each real client) from the rows bench/compare.sh collected (Markdown on stdout).

    python3 bench/table.py bench/out/results.tsv

Rows are `path servers anchor_ns ours_ns`; lines starting with `#` carry the machine facts.
Ratio = anchor / ours (higher is faster for us). Standard library only.
"""

from __future__ import annotations

import sys
from typing import Dict, List, Optional, Tuple

# (path, servers, what, anchor, goal ratio or None, goal text)
TABLE: List[Tuple[str, int, str, str, Optional[float], str]] = [
    ("c_lookup_oaat", 100, "C `ketama_ring_lookup`, unweighted ring (one_at_a_time)",
     "libmemcached `memcached_generate_hash`", 2.5, ">= 2.5x"),
    ("c_lookup_md5", 100, "C `ketama_ring_lookup`, weighted md5 ring (php-memcached)",
     "libmemcached `memcached_generate_hash`", 1.5, ">= 1.5x"),
    ("c_lookup_index_md5", 100, "C `ketama_ring_lookup_index`, weighted md5",
     "libmemcached `memcached_generate_hash`", None, "(no goal)"),
    ("c_lookup_many_md5", 100, "C `ketama_ring_lookup_many`, weighted md5 (per key)",
     "libmemcached `memcached_generate_hash`", 4.0, ">= 4x"),
    ("c_lookup_packed_md5", 100, "C `ketama_ring_lookup_packed`, weighted md5 (per key)",
     "libmemcached `memcached_generate_hash`", None, "(no goal)"),
    ("change_add", 1000, "one server added, 1,000 servers", "a fresh build of that ring", 20.0, ">= 20x"),
    ("change_remove", 1000, "one server removed, 1,000 servers", "a fresh build of that ring", 20.0, ">= 20x"),
    ("change_add_first", 1000, "one server added right after a fresh build, 1,000 servers",
     "a fresh build of that ring", None, "(no goal)"),
    ("change_remove_first", 1000, "one server removed right after a fresh build (and an add), 1,000 servers",
     "a fresh build of that ring", None, "(no goal)"),
    ("py_get", 100, "Python `Ring.get`", "uhashring 2.5 `get_node` (hash_fn='ketama')", 10.0, ">= 10x"),
    ("py_get_many", 100, "Python `Ring.get_many` (per key)", "uhashring 2.5 `get_node` (hash_fn='ketama')", 50.0,
     ">= 50x"),
    ("php_get", 100, "PHP `Ketama\\Ring::get` (FFI)", "php-memcached `getServerByKey`", 1.0, ">= 1.0x"),
    ("php_get_many", 100, "PHP `Ketama\\Ring::getMany` (per key)", "php-memcached `getServerByKey`", 3.0, ">= 3x"),
    ("c_libketama_get_server", 100, "libketama drop-in `ketama_get_server` (C)", "the original libketama (last.fm)",
     1.0, ">= 1.0x"),
]

# (path, servers, what, goal in ms)
ABSOLUTE: List[Tuple[str, int, str, float]] = [
    ("build", 1000, "build, 1,000 servers (weighted md5, 160,000 points)", 15.0),
    ("build", 10000, "build, 10,000 servers (1,600,000 points)", 150.0),
    ("change_add", 10000, "one server added, 10,000 servers", 10.0),
    ("change_remove", 10000, "one server removed, 10,000 servers", 10.0),
    ("change_add_first", 10000, "one server added right after a fresh build, 10,000 servers", 10.0),
    ("change_remove_first", 10000, "one server removed right after a fresh build (and an add), 10,000 servers", 10.0),
]


# Per key, in ns: (path, servers, what, goal in ns)
ABSOLUTE_NS: List[Tuple[str, int, str, float]] = [
    ("c_lookup_many_md5", 100, "C `ketama_ring_lookup_many`, weighted md5, 100 servers (per key)", 25.0),
]

# Large rings, per family: (tag, what), at these sizes; against the reference search.
LARGE_FAMILIES: List[Tuple[str, str]] = [
    ("md5", "md5 ring (libketama)"),
    ("oaat", "one-hash ring (libmemcached, one_at_a_time)"),
    ("wide", "128-bit positions (uhashring)"),
    ("ties", "tie runs (xmemcached)"),
]
LARGE_SIZES: List[int] = [100, 1000, 10000, 50000]

# What the C boundary adds: (tag, what)
FLOOR: List[Tuple[str, str]] = [("oaat", "unweighted one_at_a_time"), ("md5", "weighted md5")]


def load(path: str) -> Tuple[Dict[str, str], Dict[Tuple[str, int], Tuple[Optional[float], float]]]:
    facts: Dict[str, str] = {}
    rows: Dict[Tuple[str, int], Tuple[Optional[float], float]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            if line.startswith("#"):
                facts[parts[0].lstrip("# ").strip()] = parts[1] if len(parts) > 1 else ""
                continue
            name, servers, anchor, ours = parts
            rows[(name, int(servers))] = (None if anchor == "-" else float(anchor), float(ours))
    return facts, rows


def ns(v: float) -> str:
    if v >= 1e6:
        return f"{v / 1e6:,.2f} ms"
    if v >= 1e4:
        return f"{v / 1e3:,.1f} us"
    return f"{v:,.0f} ns"


def large_table(rows: Dict[Tuple[str, int], Tuple[Optional[float], float]]) -> None:
    """Large rings: the reference search (the ring's key hash, then an Eytzinger search with
    prefetch over the same points) against ours, one key per call (goal: as fast, >= 1.0x)
    and batched (goal: twice as fast per key, >= 2x)."""
    if not any((f"large_{tag}", n) in rows for tag, _ in LARGE_FAMILIES for n in LARGE_SIZES):
        return
    print()
    print("| large ring | servers | reference | ours, one key | ratio (>= 1.0x) | ours, batched (packed) "
          "| ratio (>= 2x) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for tag, what in LARGE_FAMILIES:
        for n in LARGE_SIZES:
            one, packed = rows.get((f"large_{tag}", n)), rows.get((f"large_packed_{tag}", n))
            if one is None or packed is None or one[0] is None:
                continue
            ref = one[0]
            r1, r2 = ref / one[1], ref / packed[1]
            mark1 = "" if r1 >= 1.0 else " (no)"
            mark2 = "" if r2 >= 2.0 else " (no)"
            print(f"| {what} | {n:,} | {ns(ref)} | {ns(one[1])} | {r1:.2f}x{mark1} | {ns(packed[1])} "
                  f"| {r2:.2f}x{mark2} |")


def main() -> int:
    facts, rows = load(sys.argv[1])

    def large() -> None:
        large_table(rows)

    for k in ("date", "machine", "load average before", "load average after", "versions"):
        if k in facts:
            print(f"- {k}: {facts[k]}")
    print()
    print("| path | anchor | anchor | ours | ratio | goal | met |")
    print("|---|---|---:|---:|---:|---|---|")
    for name, servers, what, anchor, goal, goal_text in TABLE:
        r = rows.get((name, servers))
        a_ns = None if r is None else r[0]
        if r is None or a_ns is None:
            print(f"| {what} | {anchor} | - | - | - | {goal_text} | not measured |")
            continue
        a, o = a_ns, r[1]
        ratio = a / o
        met = "-" if goal is None else ("yes" if ratio >= goal else "no")
        print(f"| {what} | {anchor} | {ns(a)} | {ns(o)} | {ratio:.2f}x | {goal_text} | {met} |")
    print()
    print("| absolute | ours | goal | met |")
    print("|---|---:|---|---|")
    for name, servers, what, goal_ms in ABSOLUTE:
        r = rows.get((name, servers))
        if r is None:
            print(f"| {what} | - | <= {goal_ms:g} ms | not measured |")
            continue
        o_ms = r[1] / 1e6
        print(f"| {what} | {o_ms:,.2f} ms | <= {goal_ms:g} ms | {'yes' if o_ms <= goal_ms else 'no'} |")
    for name, servers, what, goal_ns in ABSOLUTE_NS:
        r = rows.get((name, servers))
        if r is None:
            print(f"| {what} | - | <= {goal_ns:g} ns | not measured |")
            continue
        print(f"| {what} | {r[1]:,.1f} ns | <= {goal_ns:g} ns | {'yes' if r[1] <= goal_ns else 'no'} |")
    large()
    print()
    print("| C boundary, 100 servers | Rust core `locate_index` | + snapshot load | C `ketama_ring_lookup` "
          "| C `ketama_ring_lookup_index` |")
    print("|---|---:|---:|---:|---:|")
    for tag, what in FLOOR:
        cells = []
        for row in (f"rust_locate_index_{tag}", f"rust_shared_locate_index_{tag}", f"c_lookup_{tag}",
                    f"c_lookup_index_{tag}"):
            r = rows.get((row, 100))
            cells.append(ns(r[1]) if r else "-")
        print(f"| {what} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
