"""Per-key lookup time of ketama's Ring.get and Ring.get_many beside uhashring's get_node,
same nodes, same keys, same placement (checked first), measured in one run.

    python python/bench/bench.py [--servers 10] [--keys 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from typing import Any, Callable

import ketama

try:
    import uhashring
except ImportError:  # pragma: no cover - the bench needs it
    raise SystemExit("pip install uhashring==2.5 first") from None


def best_ns_per_key(fn: Callable[[], object], n_keys: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter_ns()
        fn()
        best = min(best, time.perf_counter_ns() - t)
    return best / n_keys


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--servers", type=int, default=10)
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    rng = random.Random(1)
    nodes = [f"10.0.{i // 250}.{i % 250 + 1}:11211" for i in range(args.servers)]
    keys = [f"user:{rng.randrange(10**12)}:{rng.random():.6f}" for _ in range(args.keys)]
    print(f"ketama {ketama.__version__}, uhashring {getattr(uhashring, '__version__', '2.5')}, "
          f"CPython {platform.python_version()}, {args.servers} servers, {args.keys} keys, best of {args.repeat}")
    print(f"{'profile':<18}{'uhashring get_node':>20}{'Ring.get':>12}{'get_many':>12}{'get x faster':>14}{'many x faster':>15}")
    modes: list[tuple[str, dict[str, Any]]] = [("uhashring-ketama", {"hash_fn": "ketama"}), ("uhashring", {})]
    for profile, kwargs in modes:
        theirs = uhashring.HashRing(nodes=list(nodes), **kwargs)
        ours = ketama.Ring(nodes, profile)
        assert ours.get_many(keys) == [theirs.get_node(k) for k in keys], f"{profile}: placement differs"

        def run_theirs() -> None:
            get = theirs.get_node
            for k in keys:
                get(k)

        def run_get() -> None:
            get = ours.get
            for k in keys:
                get(k)

        def run_many() -> None:
            ours.get_many(keys)

        t_theirs = best_ns_per_key(run_theirs, len(keys), args.repeat)
        t_get = best_ns_per_key(run_get, len(keys), args.repeat)
        t_many = best_ns_per_key(run_many, len(keys), args.repeat)
        print(f"{profile:<18}{t_theirs:>17.0f} ns{t_get:>9.0f} ns{t_many:>9.0f} ns"
              f"{t_theirs / t_get:>13.1f}x{t_theirs / t_many:>14.1f}x")


if __name__ == "__main__":
    main()
