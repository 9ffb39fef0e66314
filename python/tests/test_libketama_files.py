"""The hostile libketama servers files of tests/dropin/libketama-files.json through
``ketama.Continuum``, checked against what the real libketama did with each
(tests/vectors/dropin/libketama-files.json) and against the answer both drop-ins must give
(the same cases run through C's ``ketama_roll`` in ffi-c/tests/c/test_libketama_files.c)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

import ketama
from conftest import REPO, VECTORS, load

CASES = load(REPO / "tests" / "dropin" / "libketama-files.json")
RECORDED = {c["name"]: c["libketama"] for c in load(VECTORS / "dropin" / "libketama-files.json")["cases"]}


def test_every_case_was_recorded_from_the_real_libketama() -> None:
    assert [c["name"] for c in CASES["cases"]] == list(RECORDED)


def place(case: dict[str, Any], tmp_path: Path) -> str:
    """The path to read for a case: a written file, or what its ``path`` names."""
    kind = case.get("path")
    if kind is None:
        data = bytes.fromhex(case["hex"]) if "hex" in case else case["text"].encode("utf-8")
        p = tmp_path / "servers"
        p.write_bytes(data)
        return str(p)
    if kind == "directory":
        (tmp_path / "servers.d").mkdir()
        return str(tmp_path / "servers.d")
    if kind == "fifo":
        os.mkfifo(tmp_path / "servers.fifo")
        return str(tmp_path / "servers.fifo")
    if kind == "missing":
        return str(tmp_path / "no-such-servers")
    return str(kind)


def ip(address: str) -> bytes:
    """An address as libketama's ``mcs.ip`` holds it (at most 22 bytes)."""
    return address.encode("utf-8", "surrogateescape")[:22]


def same_as_recorded(cont: ketama.Continuum, rec: dict[str, Any]) -> None:
    points = cont.get_points()
    assert len(points) == rec["numpoints"]
    text = b"".join(b"%d %s\n" % (p, ip(a)) for p, a in points)
    assert hashlib.md5(text).hexdigest() == rec["points_md5"]
    got = [ip(cont.get_server(k)[1]).hex() for k in CASES["keys"]]
    wrong = [k for k, g, w in zip(CASES["keys"], got, rec["expect_hex"]) if g != w]
    assert not wrong, f"{len(wrong)} keys differ from libketama's, e.g. {wrong[:3]}"


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_case(case: dict[str, Any], tmp_path: Path) -> None:
    rec = RECORDED[case["name"]]
    dropin = case["dropin"]
    path = place(case, tmp_path)
    if dropin == "same":
        # libketama's continuum and answers, bit for bit
        assert rec["outcome"] == "ok" and "why" not in case
        same_as_recorded(ketama.Continuum(path), rec)
    elif "error" in dropin:
        with pytest.raises(ketama.KetamaError) as e:
            ketama.Continuum(path)
        assert str(e.value) == dropin["error"].replace("FILE", path)
        # where libketama did not refuse the file too, the case says why we differ
        assert rec["outcome"] == "refused" or "why" in case
    else:
        # accepted where libketama crashed
        assert "why" in case and rec["outcome"] != "ok"
        assert len(ketama.Continuum(path).get_points()) == case["points"]
