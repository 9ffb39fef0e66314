"""Every dead-server recording (tests/vectors/extra/*-dead-*.json, from the real clients with
the listed servers down) must match ``Ring.locate_alive`` on every key."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

import ketama
from conftest import VECTORS, load

DEAD = sorted((VECTORS / "extra").glob("*-dead-*.json"))


def test_dead_files_are_there() -> None:
    assert len(DEAD) >= 20, f"dead-server recordings missing ({len(DEAD)})"


def alive(ring: ketama.Ring, key: str, dead: list[str]) -> Optional[str]:
    try:
        return ring.locate_alive(key, dead)
    except ketama.KeyRejectedError:
        return None


@pytest.mark.parametrize("path", DEAD, ids=[p.name for p in DEAD])
def test_dead_file(path: Path) -> None:
    v = load(path)
    assert v["kind"] == "dead"
    servers = [(s["label"], s.get("weight", 1), s.get("name")) for s in v["servers"]]
    ring = ketama.Ring(servers, v["profile"], v["hash"])
    bad = [f"{k[:40]!r}: got {got!r}, want {want!r}"
           for k, want in zip(v["keys"], v["expect"])
           if (got := alive(ring, k, v["dead"])) != want]
    assert not bad, f"{len(bad)} of {len(v['keys'])} keys differ, e.g.\n" + "\n".join(bad[:5])


def test_unknown_dead_label_raises() -> None:
    ring = ketama.Ring(["10.0.0.1:11211", "10.0.0.2:11211"], "dalli")
    with pytest.raises(ketama.KetamaError):
        ring.locate_alive("k", ["10.0.0.9:11211"])
    assert ring.locate_alive("k", []) == ring.get("k")
