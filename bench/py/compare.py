"""Side-by-side speed of ketama's Python Ring.get / Ring.get_many and uhashring 2.5's
get_node (hash_fn="ketama", the same ring: profile uhashring-ketama), same servers, same keys,
one process; part of bench/compare.sh.

    python bench/py/compare.py SERVERS [SERVERS ...] [--keys 20000] [--budget 0.3] [--anchor-max 100]

Prints one tab-separated line per measurement: `path servers anchor_ns ours_ns`. Placement is
compared on every key first (a difference exits 1). uhashring is measured up to
`--anchor-max` servers (anchor `-` above): it inserts each of its 160 points per server into a
sorted list one by one, so building its ring grows with the square of the points (about 20 s
for 1,000 servers on the shared 2-core VM, hours for 10,000). Each timed call computes its answer (no
cache in either library). Times: the best of many short runs of 500 keys, anchor and ours
alternating, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, List

import ketama

try:
    import uhashring  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - bench/compare.sh installs it
    raise SystemExit("pip install uhashring==2.5 first") from None

CHUNK = 500


def labels(n: int) -> List[str]:
    return [f"10.{i // 62500}.{i // 250 % 250}.{i % 250 + 1}:11211" for i in range(n)]


def race(runs: List[Callable[[List[str]], object]], chunks: List[List[str]], budget: float) -> List[float]:
    """Best ns/key of each run over the chunks, alternating, for about `budget` seconds."""
    best = [float("inf")] * len(runs)
    start = time.perf_counter()
    r = 0
    clock = time.perf_counter_ns
    while r < 2 * len(chunks) or time.perf_counter() - start < budget:
        chunk = chunks[r % len(chunks)]
        for i, run in enumerate(runs):
            t = clock()
            run(chunk)
            dt = (clock() - t) / len(chunk)
            if dt < best[i]:
                best[i] = dt
        r += 1
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("servers", type=int, nargs="+")
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--budget", type=float, default=0.3)
    ap.add_argument("--anchor-max", type=int, default=100)
    args = ap.parse_args()
    keys = [f"user:{i}:profile" for i in range(args.keys)]
    chunks = [keys[i : i + CHUNK] for i in range(0, len(keys), CHUNK)]
    for n in args.servers:
        nodes = labels(n)
        theirs = uhashring.HashRing(nodes=list(nodes), hash_fn="ketama") if n <= args.anchor_max else None
        ours = ketama.Ring(nodes, "uhashring-ketama")
        want = [ours.get(k) for k in keys] if theirs is None else [theirs.get_node(k) for k in keys]
        if ours.get_many(keys) != want or [ours.get(k) for k in keys] != want:
            print(f"compare.py: placement differs from uhashring ({n} servers)", file=sys.stderr)
            return 1

        def run_theirs(chunk: List[str]) -> object:
            get = theirs.get_node  # type: ignore[union-attr]
            for k in chunk:
                get(k)
            return None

        def run_get(chunk: List[str]) -> object:
            get = ours.get
            for k in chunk:
                get(k)
            return None

        def run_many(chunk: List[str]) -> object:
            return ours.get_many(chunk)

        if theirs is None:
            t_get, t_many = race([run_get, run_many], chunks, args.budget)
            anchor = "-"
        else:
            t_theirs, t_get, t_many = race([run_theirs, run_get, run_many], chunks, args.budget)
            anchor = f"{t_theirs:.1f}"
        print(f"py_get\t{n}\t{anchor}\t{t_get:.1f}", flush=True)
        print(f"py_get_many\t{n}\t{anchor}\t{t_many:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
