"""The drop-in ``ketama.uhashring.HashRing`` beside the real uhashring 2.5, same machine, one
run: ring construction and per-key ``get_node`` / ``get`` / ``range`` (first node), in both
uhashring modes and with a callable ``hash_fn`` (``zlib.crc32``, searched natively through
``Ring.from_points``). Placement is checked equal first. Prints the load average: the
ratios are only comparable within one run. Also ``ketama.Continuum`` (libketama's
binding API) per-key ``get_server``, which has no installable original to compare with.

    python python/bench/dropin.py [--servers 10] [--keys 20000] [--repeat 9]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
import zlib
from typing import Any, Callable

import ketama
from ketama.uhashring import HashRing as DropIn

try:
    import uhashring
except ImportError:  # pragma: no cover - the bench needs it
    raise SystemExit("pip install uhashring==2.5 first") from None


def best_ns(fn: Callable[[], object], per: int, repeat: int) -> float:
    """Best of ``repeat`` runs of ``fn``, in ns per item (``per`` items a run)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter_ns()
        fn()
        best = min(best, time.perf_counter_ns() - t)
    return best / per


def pair_ns(theirs: Callable[[], object], ours: Callable[[], object], per: int, repeat: int) -> tuple[float, float]:
    """Best of ``repeat`` runs of each, interleaved (theirs, ours, theirs, ...) so that both
    see the same load on a shared machine; ns per item."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, fn in enumerate((theirs, ours)):
            t = time.perf_counter_ns()
            fn()
            best[i] = min(best[i], time.perf_counter_ns() - t)
    return best[0] / per, best[1] / per


def row(what: str, theirs: float, ours: float) -> None:
    print(f"{what:<42} {theirs:>12,.0f} {ours:>12,.0f} {theirs / ours:>8.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--servers", type=int, default=10)
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()

    rng = random.Random(1)
    nodes = {f"10.0.{i // 250}.{i % 250 + 1}:11211": rng.choice([1, 1, 2, 3]) for i in range(args.servers)}
    keys = [f"user:{rng.randrange(10**9)}" for _ in range(args.keys)]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{args.servers} weighted nodes, {args.keys} keys, best of {args.repeat}, load average {load}")
    print(f"{'ns per key (construction: ns per ring)':<42} {'uhashring':>12} {'ketama':>12} {'speed-up':>9}")
    def crc(key: Any) -> int:
        return zlib.crc32(str(key).encode())

    modes: list[tuple[str, dict[str, Any]]] = [
        ("default", {}),
        ("hash_fn='ketama'", {"hash_fn": "ketama"}),
        ("hash_fn=crc32 callable", {"hash_fn": crc}),
    ]
    for mode, kwargs in modes:
        theirs: Any = uhashring.HashRing(nodes, **kwargs)
        ours = DropIn(nodes, **kwargs)
        assert [theirs.get_node(k) for k in keys] == [ours.get_node(k) for k in keys], "placement differs"
        row(f"{mode}: HashRing(nodes)", *pair_ns(lambda: uhashring.HashRing(nodes, **kwargs),
                                                  lambda: DropIn(nodes, **kwargs), 1, args.repeat))
        calls: list[tuple[str, Callable[[Any], object]]] = [
            ("get_node(key)", lambda r: [r.get_node(k) for k in keys]),
            ("get(key) (conf dict)", lambda r: [r.get(k) for k in keys]),
            ("next(range(key)) (monkey's use)", lambda r: [next(r.range(k)) for k in keys]),
        ]
        for name, call in calls:
            row(f"{mode}: {name}", *pair_ns(lambda: call(theirs), lambda: call(ours), len(keys), args.repeat))

    fd, path = tempfile.mkstemp()
    try:
        os.write(fd, "".join(f"{n}\t{w * 100}\n" for n, w in nodes.items()).encode())
        os.close(fd)
        cont = ketama.Continuum(path)
        ns = best_ns(lambda: [cont.get_server(k) for k in keys], len(keys), args.repeat)
        print(f"{'ketama.Continuum.get_server(key)':<42} {'(no original)':>12} {ns:>12,.0f}")
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
