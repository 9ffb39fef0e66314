"""A ring shared between threads: readers never see a torn ring while a writer adds and
removes servers. The writer flips between two known states A and B, so every single answer
must be A's or B's for that key, and every ``get_many`` batch must be wholly A's or wholly
B's (one snapshot)."""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable

import pytest

import ketama

BASE = [f"10.0.0.{i}:11211" for i in range(1, 9)]
EXTRA = "10.0.0.100:11211"
SECONDS = 2.0


@pytest.mark.parametrize("profile", ["libketama", "php-memcached", "spymemcached", "modula", "uhashring"])
def test_no_torn_reads_while_writing(profile: str) -> None:
    keys = [f"key:{i}" for i in range(2000)]
    state_a = ketama.Ring(BASE, profile)
    state_b = ketama.Ring(BASE + [EXTRA], profile)
    want_a, want_b = state_a.get_many(keys), state_b.get_many(keys)
    assert want_a != want_b
    ring = ketama.Ring(BASE, profile)
    stop = threading.Event()
    errors: list[str] = []
    counts = {"single": 0, "batch": 0, "writes": 0}

    def guard(fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                fn()
            except BaseException as e:  # noqa: BLE001 - report everything
                errors.append(f"{type(e).__name__}: {e}")
                stop.set()

        return run

    @guard
    def single_reader() -> None:
        i = 0
        while not stop.is_set():
            k = i % len(keys)
            got = ring.get(keys[k])
            if got != want_a[k] and got != want_b[k]:
                raise AssertionError(f"{keys[k]} -> {got}, neither {want_a[k]} nor {want_b[k]}")
            two = ring.get_n(keys[k], 2)
            if len(set(two)) != 2 or not set(two) <= set(BASE + [EXTRA]):
                raise AssertionError(f"get_n gave {two}")
            i += 7
            counts["single"] += 1

    @guard
    def batch_reader() -> None:
        while not stop.is_set():
            got = ring.get_many(keys)  # above the threshold: runs with the GIL released
            if got != want_a and got != want_b:
                torn = sum(1 for g, a, b in zip(got, want_a, want_b) if g != a and g != b)
                raise AssertionError(f"torn batch: {torn} answers from neither state, or a mix of both")
            counts["batch"] += 1

    @guard
    def writer() -> None:
        while not stop.is_set():
            ring.add(EXTRA)  # state B
            ring.remove(EXTRA)  # state A
            counts["writes"] += 1

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=t) for t in (single_reader, single_reader, batch_reader, batch_reader, writer)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline and not stop.is_set():
            time.sleep(0.05)
        stop.set()
        for t in threads:
            t.join(timeout=30)
            assert not t.is_alive(), "a thread hung"
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors[:3]
    print(profile, counts)
    assert counts["writes"] > 0 and counts["batch"] > 0 and counts["single"] > 0, counts
    assert ring.servers == BASE
