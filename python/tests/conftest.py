"""Shared helpers for the ketama Python tests."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
VECTORS = Path(os.environ.get("KETAMA_VECTORS", REPO / "tests" / "vectors"))


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data
