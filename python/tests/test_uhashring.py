"""Agreement with the real uhashring 2.5 (PyPI), key for key: its default mode is our profile
``uhashring``, ``hash_fn="ketama"`` is ``uhashring-ketama``. Random (seeded) servers, weights
and keys, plus add/remove sequences."""

from __future__ import annotations

import random
from typing import Any, Union

import pytest

import ketama

uhashring = pytest.importorskip("uhashring")

MODES: list[tuple[str, dict[str, Any]]] = [("uhashring", {}), ("uhashring-ketama", {"hash_fn": "ketama"})]


def random_label(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}:{rng.choice([11211, rng.randrange(1024, 65536)])}"
    if kind == 1:
        return f"cache-{rng.randrange(10**6)}.example.com:{rng.randrange(1024, 65536)}"
    if kind == 2:
        return f"node{rng.randrange(10**6)}"
    return f"192.0.2.{rng.randrange(1, 255)}"


def random_key(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return str(rng.randrange(10**9))
    if kind == 1:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz:_-0123456789") for _ in range(rng.randrange(1, 40)))
    if kind == 2:
        return "".join(chr(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0xA0, 0x800), rng.randrange(0x3000, 0xD000), rng.randrange(0x1F300, 0x1F650)])) for _ in range(rng.randrange(1, 12)))
    if kind == 3:
        return "x" * rng.randrange(200, 260)
    return f"user:{rng.randrange(10**6)}:session"


def servers(rng: random.Random, count: int, weighted: bool) -> dict[str, int]:
    out: dict[str, int] = {}
    while len(out) < count:
        out[random_label(rng)] = rng.choice([1, 1, 2, 3, 5, 10, 100]) if weighted else 1
    return out


def agree(ours: ketama.Ring, theirs: Any, keys: list[str]) -> None:
    got = ours.get_many(keys)
    want = [theirs.get_node(k) for k in keys]
    bad = [(k, g, w) for k, g, w in zip(keys, got, want) if g != w]
    assert not bad, f"{len(bad)} of {len(keys)} keys differ, e.g. {bad[:3]}"


CASES = [(profile, kwargs, seed, count, weighted) for profile, kwargs in MODES for seed, count, weighted in [(1, 1, False), (2, 2, False), (3, 10, False), (4, 10, True), (5, 50, True), (6, 200, False)]]


@pytest.mark.parametrize("profile,kwargs,seed,count,weighted", CASES, ids=[f"{c[0]}-{c[3]}{'-weighted' if c[4] else ''}" for c in CASES])
def test_random_rings_agree(profile: str, kwargs: dict[str, Any], seed: int, count: int, weighted: bool) -> None:
    rng = random.Random(seed)
    nodes = servers(rng, count, weighted)
    keys = [random_key(rng) for _ in range(3000)] + ["", "é", "日本語", "😀"]
    theirs = uhashring.HashRing(nodes=dict(nodes) if weighted else list(nodes), **kwargs)
    ours = ketama.Ring(nodes, profile)
    agree(ours, theirs, keys)


@pytest.mark.parametrize("profile,kwargs", MODES, ids=[m[0] for m in MODES])
def test_add_remove_sequences_agree(profile: str, kwargs: dict[str, Any]) -> None:
    rng = random.Random(42)
    keys = [random_key(rng) for _ in range(1000)]
    theirs = uhashring.HashRing(nodes=[], **kwargs)
    ours = ketama.Ring([], profile)
    pool = servers(rng, 30, True)
    for step in range(40):
        present = ours.servers
        if present and (rng.random() < 0.35 or len(present) > 20):
            node = rng.choice(present)
            theirs.remove_node(node)
            ours.remove_node(node)
        else:
            node = rng.choice([n for n in pool if n not in ours])
            theirs.add_node(node, {"weight": pool[node]})
            ours.add_node(node, {"weight": pool[node]})
        assert sorted(ours.servers) == sorted(theirs.get_nodes()), f"step {step}"
        agree(ours, theirs, keys)


@pytest.mark.parametrize("profile,kwargs", MODES, ids=[m[0] for m in MODES])
def test_non_str_keys_like_uhashring(profile: str, kwargs: dict[str, Any]) -> None:
    nodes = ["node1", "node2", "node3", "node4"]
    theirs = uhashring.HashRing(nodes=nodes, **kwargs)
    ours = ketama.Ring(nodes, profile)
    keys: list[Union[int, float, tuple[int, int]]] = [1, 2, 12345, -7, 3.5, (1, 2)]
    for k in keys:
        assert ours.get_node(k) == theirs.get_node(k), k
