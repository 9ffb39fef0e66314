"""``Ring.from_points``: a ring rebuilt from another ring's own points places keys as it does;
a callable hashes keys in Python for the native search; bad input and changes are refused."""

from __future__ import annotations

import pickle
import zlib
from typing import Any

import pytest

import ketama
from ketama import Ring

SERVERS = {"10.0.0.1:11211": 1, "10.0.0.2:11211": 2, "cache-3.example:11211": 1}
KEYS = [f"key:{i}" for i in range(300)]


@pytest.mark.parametrize("profile", ["libketama", "libmemcached", "flexihash", "dalli", "spymemcached", "folsom"])
def test_points_given_back_make_the_same_ring(profile: str) -> None:
    built = Ring(SERVERS, profile)
    flip = 0x80000000 if profile == "folsom" else 0  # signed search: stored sign-flipped
    given = Ring.from_points([(p ^ flip, s) for p, s in built.points()], profile=profile, servers=list(SERVERS))
    assert given.points() == built.points() and given.servers == built.servers
    assert given.explicit and not built.explicit
    assert [given.get(k) for k in KEYS] == [built.get(k) for k in KEYS]
    assert [given.get_n(k, 2) for k in KEYS] == [built.get_n(k, 2) for k in KEYS]
    assert given.get_many(KEYS) == built.get_many(KEYS)
    copy = pickle.loads(pickle.dumps(given))
    assert copy.points() == given.points() and copy.get_many(KEYS) == built.get_many(KEYS)


def crc(key: Any) -> int:
    return zlib.crc32(str(key).encode())


def test_callable_hash_searches_by_the_profiles_rule() -> None:
    # flexihash's rule: first point above the hash, wrapping; the later server wins a tie
    ring = Ring.from_points([(100, "a:1"), (200, "b:1"), (200, "c:1"), (300, "a:1")], hash=int, profile="flexihash")
    assert [ring.get(k) for k in ("50", "150", "250", "300")] == ["a:1", "c:1", "a:1", "a:1"]
    assert ring.get_node(150) == "c:1"  # the key goes to the callable as it is
    # b:1's only point is c:1's (a tie flexihash's map gives the later server): no walk meets b:1
    assert ring.get_n("150", 5) == ["c:1", "a:1"]
    assert ring.get_many(["50", "150"]) == ["a:1", "c:1"]
    assert ring.key_hash("7") == 7 and ring.hash == "callable" and ring.hash_fn is int
    assert "hash='callable'" in repr(ring)
    with pytest.raises(OverflowError):
        ring.get("-1")
    with pytest.raises(TypeError):
        Ring.from_points([(1, "a:1")], hash=lambda k: "x").get("k")  # type: ignore[arg-type, return-value]
    # the same points with a named hash: crc32a is zlib's crc32
    named = Ring.from_points([(p, s) for p, s in ring.points()], hash="crc32a", profile="flexihash")
    by_fn = Ring.from_points([(p, s) for p, s in ring.points()], hash=crc, profile="flexihash")
    assert [named.get(k) for k in KEYS] == [by_fn.get(k) for k in KEYS]
    assert pickle.loads(pickle.dumps(by_fn)).get_many(KEYS) == by_fn.get_many(KEYS)


def test_node_lookup_returns_values_on_a_fixed_snapshot() -> None:
    ring = Ring(SERVERS, "libketama")
    lookup = ring._node_lookup(["one", "two", "three"])
    names = dict(zip(ring.servers, ["one", "two", "three"]))
    assert [lookup(k) for k in KEYS] == [names[ring.get(k)] for k in KEYS]
    assert lookup.get(b"x") == names[ring.get("b'x'")]  # non-str keys as str(key), uhashring's rule
    ring.remove("10.0.0.1:11211")
    assert [lookup(k) for k in KEYS[:5]] == [lookup.get(k) for k in KEYS[:5]]  # still the old snapshot
    with pytest.raises(TypeError):
        ring._node_lookup(["only one"])
    fn = Ring.from_points([(10, "a:1")], hash=lambda k: -1 if k == "odd" else 5)
    assert fn._node_lookup(["A"], fallback=lambda k: ("fallback", k))("odd") == ("fallback", "odd")
    assert fn._node_lookup(["A"])("even") == "A"


def test_bad_input_and_changes_are_refused() -> None:
    with pytest.raises(ketama.EmptyRingError):
        Ring.from_points([])
    with pytest.raises(ketama.MissingServerError):
        Ring.from_points([(1, "a:1")], servers=["b:1"])
    with pytest.raises(ketama.NotAContinuumError):
        Ring.from_points([(1, "a:1")], profile="uhashring")
    with pytest.raises(ketama.NotAContinuumError):
        Ring.from_points([(1, "a:1")], profile="modula")
    with pytest.raises(ValueError):
        Ring.from_points([(2**32, "a:1")])
    with pytest.raises(TypeError):
        Ring.from_points([(1, 2)])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        Ring.from_points([(1, "a:1")], hash=3)  # type: ignore[arg-type]
    with pytest.raises(ketama.DuplicateServerError):
        Ring.from_points([(1, "a:1")], servers=["a:1", "a:1"])
    with pytest.raises(ketama.BadLabelError):
        Ring.from_points([(1, "a:1:2:x")])
    ring = Ring.from_points([(1, "a:1"), (2, "b:1")])
    with pytest.raises(ketama.FixedPointsError, match="takes no changes"):
        ring.add("c:1")
    with pytest.raises(ketama.FixedPointsError):
        ring.remove("a:1")
    with pytest.raises(ketama.FixedPointsError):
        ring.set_weight("a:1", 2)
    assert ring.points() == [(1, "a:1"), (2, "b:1")]
