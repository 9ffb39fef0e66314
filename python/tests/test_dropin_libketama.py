"""libketama's old Python binding API (``ketama.Continuum``, ``ketama.hashi``): the recorded
libketama vector files, the binding's own test values (RJ/ketama ``python_ketama/tests.py``),
the server-file quirks, and agreement with uhashring's ketama mode."""

from __future__ import annotations

import random
from bisect import bisect_left
from pathlib import Path

import pytest

import ketama
from conftest import load, vector_files

FILES = [p for p in vector_files() if p.name.startswith("libketama-")]


def write(tmp_path: Path, text: str, name: str = "servers") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return str(path)


def test_there_are_libketama_vector_files() -> None:
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_vector_file(path: Path, tmp_path: Path) -> None:
    v = load(path)
    # The vectors were recorded by writing this file for the real libketama.
    text = "".join(f"{s['label']}\t{s['weight']}\n" for s in v["servers"])
    cont = ketama.Continuum(write(tmp_path, text))
    got = [cont.get_server(k)[1] for k in v["keys"]]
    bad = [(k, g, w) for k, g, w in zip(v["keys"], got, v["expect"]) if g != w]
    assert not bad, f"{len(bad)} keys differ, e.g. {bad[:3]}"


VALID = "127.0.0.1:11211\t600\n127.0.0.1:11212\t400\n"


def test_the_binding_s_own_test_values(tmp_path: Path) -> None:
    # python_ketama/tests.py: test_valid, test_hashing, test_hashi, test_points.
    cont = ketama.Continuum(write(tmp_path, VALID))
    assert type(cont) is ketama.Continuum
    assert cont.get_server("test") == (3454255383, "127.0.0.1:11211")
    assert ketama.hashi("test") == 3446378249
    assert len(cont.get_points()) == 160 * 2
    # test_invalid_null, test_invalid_data
    with pytest.raises(ketama.KetamaError):
        ketama.Continuum("/dev/null")
    with pytest.raises(ketama.KetamaError):
        ketama.Continuum(write(tmp_path, "127.0.0.1:11211 600\n127.0.0.1:11212 two\n", "bad"))


def test_get_server_is_the_first_point_at_or_after_the_hash(tmp_path: Path) -> None:
    cont = ketama.Continuum(write(tmp_path, "10.0.0.1:11211\t1\n10.0.0.2:11211\t3\n10.0.0.3:11211\t2\n"))
    points = cont.get_points()
    assert points == sorted(points, key=lambda p: p[0])
    positions = [p for p, _ in points]
    rng = random.Random(3)
    keys = [str(rng.randrange(10**9)) for _ in range(2000)] + ["", "é"]
    for key in keys:
        i = bisect_left(positions, ketama.hashi(key))
        assert cont.get_server(key) == points[i % len(points)], key


def test_agrees_with_uhashring_ketama_mode(tmp_path: Path) -> None:
    uhashring = pytest.importorskip("uhashring")
    cont = ketama.Continuum(write(tmp_path, VALID))
    ring = uhashring.HashRing(nodes={"127.0.0.1:11211": 600, "127.0.0.1:11212": 400}, hash_fn="ketama")
    assert ring.get_points() == cont.get_points()
    assert ring.hashi("test") == ketama.hashi("test")
    for i in range(1000):
        key = str(random.Random(i).randint(1, 10000))
        assert ring.get_server(key) == cont.get_server(key)


def test_file_quirks_like_libketama(tmp_path: Path) -> None:
    two = "10.0.0.1:11211\t100\n10.0.0.2:11211\t100\n"
    base = ketama.Continuum(write(tmp_path, two)).get_points()
    # comments, short lines and CRLF are fine; a space separates as well as a tab
    same = "# a comment\n\n10.0.0.1:11211 100\r\n\n10.0.0.2:11211\t100\n"
    assert ketama.Continuum(write(tmp_path, same, "same")).get_points() == base
    # no newline after the last memory: libketama reads "100" as "10"
    cut = ketama.Continuum(write(tmp_path, "10.0.0.1:11211\t100\n10.0.0.2:11211\t100", "cut"))
    ten = ketama.Continuum(write(tmp_path, "10.0.0.1:11211\t100\n10.0.0.2:11211\t10\n", "ten"))
    assert cut.get_points() == ten.get_points() != base
    for bad in [
        "10.0.0.1:11211\n",  # no memory
        "10.0.0.1:11211\t0\n",  # memory 0
        "10.0.0.1:11211\t-5\n",
        "10.0.0.1:11211\t5",  # one digit, no newline: nothing left
        "a-very-long-host-name.example.com:11211\t1\n",  # over 23 characters
    ]:
        with pytest.raises(ketama.KetamaError):
            ketama.Continuum(write(tmp_path, bad, "bad"))
    # the same address twice: two servers, each with its own points (as libketama)
    twice = ketama.Continuum(write(tmp_path, "10.0.0.1:11211\t1\n10.0.0.1:11211\t2\n", "twice"))
    assert len(twice.get_points()) == 4 * (26 + 53)
    assert {a for _, a in twice.get_points()} == {"10.0.0.1:11211"}
    with pytest.raises(ketama.KetamaError, match="Invalid filename"):
        ketama.Continuum(str(tmp_path / "missing"))
    with pytest.raises(ValueError):
        ketama.Continuum("x" * 256)
    assert repr(ketama.Continuum(write(tmp_path, two))).startswith("<ketama.Continuum from ")
