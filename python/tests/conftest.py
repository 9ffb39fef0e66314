"""Shared helpers for the ketama Python tests."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
VECTORS = Path(os.environ.get("KETAMA_VECTORS", REPO / "tests" / "vectors"))


def vector_files() -> list[Path]:
    """Every vector file; with KETAMA_VECTOR_SAMPLE=1 the smallest file of each (kind,
    profile, hash-for-hash-files) group, which python/test-wheel.sh uses on each extra
    interpreter (the same sources passed every file in python/test.sh)."""
    files = sorted(VECTORS.glob("*.json"))
    if os.environ.get("KETAMA_VECTOR_SAMPLE") != "1":
        return files
    best: dict[tuple[Any, ...], Path] = {}
    for f in files:
        d = load(f)
        kind = d.get("kind", "locate")
        key = (kind, d.get("profile"), d.get("hash") if kind == "hash" else None)
        if key not in best or f.stat().st_size < best[key].stat().st_size:
            best[key] = f
    return sorted(best.values())


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data
