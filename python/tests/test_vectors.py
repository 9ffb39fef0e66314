"""Every shared vector file (recorded from the real clients) must match 100%.

One test per file; a failure message says how many keys differ and shows a few.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

import pytest

import ketama
from conftest import load, sampled, vector_files

FILES = sampled(vector_files())
Answer = Union[str, list[str], int, None]


def test_vector_files_are_there() -> None:
    assert len(FILES) >= 4, f"no vector files found ({len(FILES)})"


def test_options_are_checked_and_pickled() -> None:
    import pickle

    servers = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"]
    ring = ketama.Ring(servers, "twemproxy", hash_tag="{}")
    assert ring.get("{user:1}:cart") == ring.get("user:1")
    again = pickle.loads(pickle.dumps(ring))
    assert all(again.get(k) == ring.get(k) for k in ("{a}x", "{b}y", "c{d}"))
    with pytest.raises(ketama.BadOptionError):
        ketama.Ring(servers, "libketama", hash_tag="{}")
    with pytest.raises(ketama.BadOptionError):
        ketama.Ring(servers, "twemproxy", hash_tag="«»")
    with pytest.raises(ketama.BadOptionError):
        ketama.Ring(servers, "php-memcached", prefix_key="x" * 128)
    with pytest.raises(TypeError):
        ketama.Ring(servers, "php-memcached", prefix_key=3)  # type: ignore[arg-type]
    hashed = ketama.Ring(servers, "php-memcached", prefix_key=b"p:", hash_with_prefix=True)
    plain = ketama.Ring(servers, "php-memcached")
    assert all(hashed.get(f"k{i}") == plain.get(f"p:k{i}") for i in range(50))


def servers_of(v: dict[str, Any]) -> list[tuple[str, int, Optional[str]]]:
    return [(s["label"], s.get("weight", 1), s.get("name")) for s in v.get("servers", [])]


def locate(ring: ketama.Ring, kind: str, key: str, n: int) -> Answer:
    """What the client would answer; None where our ring refuses (as the client did)."""
    try:
        return ring.failover(key, n) if kind == "sequence" else ring.get(key)
    except ketama.KetamaError:
        return None


def hash_answer(v: dict[str, Any], key: str, want: Answer) -> Answer:
    name = v["hash"]
    if v.get("profile"):
        try:
            return ketama.Ring([], v["profile"], name).key_hash(key)
        except ketama.KeyRejectedError:
            return None
    return ketama.hash(key, name)


def check(path: Path) -> tuple[int, list[str]]:
    v = load(path)
    kind = v.get("kind", "locate")
    keys: list[str] = v["keys"]
    expect: list[Answer] = v["expect"]
    assert len(keys) == len(expect), "keys and expect differ in length"
    bad: list[str] = []

    def compare(key: str, got: Answer, want: Answer, how: str) -> None:
        if got != want:
            bad.append(f"{how} {key[:40]!r}: got {got!r}, want {want!r}")

    if kind == "hash":
        for key, want in zip(keys, expect):
            compare(key, hash_answer(v, key, want), want, "hash")
        return len(keys), bad
    assert kind in ("locate", "sequence"), f"unknown kind {kind}"
    n = int(v.get("n", 1))
    servers = servers_of(v)
    # Built two ways: in one pass, and server by server with add(); the file's options as
    # keyword arguments.
    options: dict[str, Any] = v.get("options", {})
    fresh = ketama.Ring(servers, v["profile"], v["hash"], **options)
    stepwise = ketama.Ring([], v["profile"], v["hash"], **options)
    for label, weight, name in servers:
        stepwise.add(label, weight, name)
    assert fresh.servers == stepwise.servers == [s[0] for s in servers]
    for ring, how in ((fresh, "fresh"), (stepwise, "stepwise")):
        for key, want in zip(keys, expect):
            compare(key, locate(ring, kind, key, n), want, how)
    if kind == "locate" and None not in expect:
        # The batch path (GIL released above the threshold) must agree key for key.
        for key, got, want in zip(keys, fresh.get_many(keys), expect):
            compare(key, got, want, "get_many")
        encoded = fresh.get_many([k.encode() for k in keys])
        for key, got, want in zip(keys, encoded, expect):
            compare(key, got, want, "get_many(bytes)")
    return len(keys), bad


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_vector_file(path: Path) -> None:
    total, bad = check(path)
    keys = {line.split(" ", 1)[1].split(": got", 1)[0] for line in bad}
    assert not bad, f"{len(keys)} of {total} keys differ, e.g.\n" + "\n".join(bad[:5])
