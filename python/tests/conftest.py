"""Shared helpers for the ketama Python tests."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
VECTORS = Path(os.environ.get("KETAMA_VECTORS", REPO / "tests" / "vectors"))


def vector_files() -> list[Path]:
    """The top level's files, then options/ (files recorded with client options)."""
    return sorted(VECTORS.glob("*.json")) + sorted(VECTORS.glob("options/*.json"))


def sampled(files: list[Path]) -> list[Path]:
    """`files`, or with KETAMA_VECTOR_SAMPLE=1 the smallest file of each (kind, profile,
    hash-for-hash-files) group: python/test-wheel.sh checks the vector files that way on each
    extra interpreter (the same sources passed every file in python/test.sh)."""
    if os.environ.get("KETAMA_VECTOR_SAMPLE") != "1":
        return files
    best: dict[tuple[Any, ...], Path] = {}
    for f in files:
        d = load(f)
        kind = d.get("kind", "locate")
        key = (kind, d.get("profile"), d.get("hash") if kind == "hash" else None,
               bool(d.get("options")))
        if key not in best or f.stat().st_size < best[key].stat().st_size:
            best[key] = f
    return sorted(best.values())


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data
