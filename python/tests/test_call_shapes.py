"""The per-key methods (`Ring.get`, `get_node`, `get_many`, the drop-in's native lookup) take
a vectorcall path on CPython 3.10+ for the one-positional-argument call; every other call
shape must behave exactly as the plain method: keywords, wrong counts, wrong receivers,
introspection, subclasses, and batches whose keys run Python code."""

from __future__ import annotations

import inspect
from typing import Any, List, Union

import pytest

import ketama

SERVERS = [f"10.0.0.{i}:11211" for i in range(1, 6)]


def test_keyword_and_positional_calls_agree() -> None:
    ring = ketama.Ring(SERVERS, "uhashring-ketama")
    keys: List[Union[str, bytes]] = ["a", "user:1:profile", "ü", b"bytes-key"]
    for key in keys:
        label = ring.get(key)
        assert ring.get(key=key) == label
        assert ketama.Ring.get(ring, key) == label
        assert ring.get_node(key=key) == label
        assert ring.get_many(keys=[key]) == [label]
        assert ketama.Ring.get_many(ring, [key, key]) == [label, label]


@pytest.mark.parametrize("name", ["get", "get_node", "get_many"])
def test_wrong_call_shapes_raise_type_error(name: str) -> None:
    ring = ketama.Ring(SERVERS)
    method = getattr(ring, name)
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        method()
    with pytest.raises(TypeError, match="positional"):
        method("a", "b")
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        method(nope="a")
    with pytest.raises(TypeError):
        getattr(ketama.Ring, name)(object(), ["a"])  # not a Ring


@pytest.mark.parametrize("name", ["get", "get_node", "get_many"])
def test_signature_and_doc_are_kept(name: str) -> None:
    method = getattr(ketama.Ring, name)
    params = list(inspect.signature(method).parameters)
    assert params[0] == "self" and len(params) == 2
    doc = method.__doc__
    assert doc and "key" in doc and not doc.startswith(name + "(")  # the header became the signature


def test_subclass_methods_and_overrides() -> None:
    class Mine(ketama.Ring):
        def get_node(self, key: Any) -> Any:
            return "mine"

    ring = Mine(SERVERS)
    plain = ketama.Ring(SERVERS)
    assert ring.get("k") == plain.get("k")
    assert ring.get_many(["k", "j"]) == plain.get_many(["k", "j"])
    assert ring.get_node("k") == "mine"


def test_batch_key_running_python_code_that_shrinks_the_list() -> None:
    ring = ketama.Ring(SERVERS)
    keys: List[Any] = []

    class Shrinking(bytearray):
        def __bytes__(self) -> bytes:
            del keys[1:]
            return b"x"

    keys.extend(["a", Shrinking(b"x"), "b", "c"])
    got = ring.get_many(keys)
    assert got == ring.get_many(["a", "x"])  # the walk stops at the list's new end


def test_batch_of_str_subclasses_and_mixed_keys() -> None:
    class S(str):
        pass

    ring = ketama.Ring(SERVERS)
    keys: List[Union[str, bytes, bytearray, memoryview]] = [S("a"), "b", b"c", bytearray(b"d"), memoryview(b"e")]
    assert ring.get_many(keys) == [ring.get(str(k)) for k in ["a", "b", "c", "d", "e"]]
    assert ring.get_many(tuple(keys)) == ring.get_many(keys)
    with pytest.raises(TypeError):
        ring.get_many(["a", 5])  # type: ignore[list-item]


def test_drop_in_lookup_call_shapes() -> None:
    from ketama.uhashring import HashRing

    ring = HashRing(nodes=list(SERVERS), hash_fn="ketama")
    label = ring.get_node("k")
    assert ring.get_node(key="k") == label
    with pytest.raises(TypeError):
        ring.get_node()  # type: ignore[call-arg]
