"""The shared bad-input matrix (tests/bad-input.json) through the Python binding:
each case raises its typed error (or succeeds), names the input where the table says so, and a
failed call leaves the ring as it was. The same table is read by the Rust, C and PHP tests."""

from __future__ import annotations

import builtins
import json
from typing import Any

import pytest

import ketama
from conftest import REPO

TABLE = json.loads((REPO / "tests" / "bad-input.json").read_text(encoding="utf-8"))
CASES = [c for c in TABLE["cases"] if "python" in c.get("langs", ["python"])]


def raw(v: Any) -> bytes:
    if isinstance(v, str):
        return v.encode()
    if "hex" in v:
        return bytes.fromhex(str(v["hex"]))
    return str(v["repeat"] * v["times"] + v.get("then", "")).encode()


def text(v: Any) -> str:
    if isinstance(v, dict) and "surrogate" in v:
        return str(v["surrogate"]) + "\ud800"
    return raw(v).decode()


def key(v: Any) -> Any:
    """A key: an int as it is (a wrong type), a string holding a surrogate as str, else bytes."""
    if isinstance(v, int):
        return v
    if isinstance(v, dict) and "surrogate" in v:
        return text(v)
    return raw(v)


def servers(v: Any) -> list[Any]:
    if isinstance(v, dict) and "count" in v:
        return [v["format"].replace("{i}", str(i)) for i in range(1, v["count"] + 1)]
    out: list[Any] = []
    for e in v:
        if isinstance(e, list):
            out.append((text(e[0]), e[1]))
        elif isinstance(e, (str, dict)):
            out.append(text(e))
        else:
            out.append(e)  # a wrong type, passed as is
    return out


def snapshot(r: ketama.Ring) -> Any:
    return (r.servers, r.weights, r.points())


def run(case: dict[str, Any]) -> None:
    profile = text(case.get("profile", "libketama"))
    hash = case.get("hash")
    hash = None if hash is None else text(hash)
    initial = servers(case.get("servers", TABLE["base"]))
    op = case["op"]
    if op == "create":
        ketama.Ring(case.get("servers_arg", initial), profile, hash)
        return
    ring = ketama.Ring(initial, profile, hash)
    before = snapshot(ring)
    try:
        if op == "lookup":
            ring.get(key(case["key"]))
        elif op == "add":
            ring.add(text(case["label"]), case["weight"])
        elif op == "remove":
            ring.remove(text(case["label"]))
        elif op == "set_weight":
            ring.set_weight(text(case["label"]), case["weight"])
        elif op == "add_many":
            ketama.Ring(initial + servers(case["add"]), profile, hash)
        else:
            raise AssertionError(f"unknown op {op}")
    except BaseException:
        assert snapshot(ring) == before, f"{case['id']}: ring changed"
        raise


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_input(case: dict[str, Any]) -> None:
    name = case.get("expect", {}).get("python", case["error"])
    if name is None:
        run(case)
        return
    cls = getattr(builtins, name, None) or getattr(ketama, f"{name}Error")
    with pytest.raises(cls) as info:
        run(case)
    assert type(info.value) is cls, info.value
    if "names" in case:
        assert case["names"] in str(info.value)
