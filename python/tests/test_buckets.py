"""``ketama.bucket``: every tests/vectors/buckets/*.json file (recorded from Guava, hash4j,
go-jump, go-maglev, go-mpchash and the fliphash crate) must match, and bad arguments raise
the typed errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ketama
from conftest import VECTORS

BUCKET_DIR = VECTORS / "buckets"
FILES = sorted(BUCKET_DIR.glob("*.json"))
TABLE_ALGORITHMS = {"maglev-go", "mpchash-go"}


def test_every_algorithm_has_a_file() -> None:
    algorithms = {json.loads(f.read_text(encoding="utf-8"))["algorithm"] for f in FILES}
    assert algorithms == {name for name, _ in ketama.bucket_algorithms()}


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_bucket_vectors(path: Path) -> None:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    algorithm = doc["algorithm"]
    cases = doc["cases"]
    # maglev-go and mpchash-go rebuild their table per call: check a 1-in-8 sample.
    step = 8 if algorithm in TABLE_ALGORITHMS else 1
    bad = []
    for input_text, buckets, want in cases[::step]:
        got = ketama.bucket(algorithm, int(input_text), buckets)
        if got != want:
            bad.append((input_text, buckets, got, want))
    assert not bad, f"{len(bad)} of {len(cases[::step])} differ, e.g. {bad[:5]}"
    assert len(cases[::step]) >= 300


def test_guava_example_and_limits() -> None:
    assert ketama.bucket("guava", 2687259751451158933, 807) == 195
    assert ketama.bucket("jump", 2687259751451158933, 807) == 576
    assert ketama.bucket("fliphash", 2**64 - 1, 2**31 - 1) < 2**31 - 1
    with pytest.raises(ketama.UnknownAlgorithmError):
        ketama.bucket("nope", 1, 3)
    with pytest.raises(ValueError):
        ketama.bucket("Jump", 1, 3)
    for n in (0, -1):
        with pytest.raises(ketama.ZeroBucketsError):
            ketama.bucket("jump", 1, n)
    for n in (2**31, 2**40):
        with pytest.raises(ketama.TooManyBucketsError):
            ketama.bucket("jump", 1, n)
    with pytest.raises(ketama.TooManyBucketsError):
        ketama.bucket("maglev-go", 1, 65538)
    with pytest.raises(ketama.TooManyBucketsError):
        ketama.bucket("mpchash-go", 1, 65537)
    with pytest.raises(OverflowError):
        ketama.bucket("jump", -1, 3)
    with pytest.raises(OverflowError):
        ketama.bucket("jump", 2**64, 3)
    with pytest.raises(TypeError):
        ketama.bucket("jump", "1", 3)  # type: ignore[arg-type]
