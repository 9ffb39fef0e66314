#!/usr/bin/env python3
"""Writes every binding's and port's generated files from the two spec files:

- the error classes, from spec/errors.json (errors.py: Python, Go, Java, JavaScript, PHP, Ruby);
- the knob vocabulary, from spec/profiles.json "knobs" (knobs.py: Go, Java, JavaScript);
- Java's profile and hash tables, from spec/profiles.json (java_table.py).

    python3 tests/gen/ports.py            write them (and delete generated files no longer made)
    python3 tests/gen/ports.py --check    fail, naming each one, when a committed file is stale

tests/gen-tables.sh runs it after writing the spec files; every file it writes starts with a
line saying so.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import errors
import java_table
import knobs
from common import MARK

ROOT = Path(__file__).resolve().parents[2]

# Folders whose generated files are all made here (a file there carrying MARK that this run
# does not make is stale: its error or knob is gone).
OWNED_DIRS = [
    "java/core/src/main/java/org/ketama",
    "ffi-c/php/src/Exception",
]


def load(path: str) -> dict:
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


def outputs() -> dict[str, str]:
    errs = load("spec/errors.json")["errors"]
    spec = load("spec/profiles.json")
    out: dict[str, str] = {}
    out.update(errors.files(errs))
    out.update(knobs.files(spec))
    out.update(java_table.files(spec))
    return out


def stale_generated(out: dict[str, str]) -> list[str]:
    """Generated files in the owned folders that this run no longer makes."""
    gone = []
    for d in OWNED_DIRS:
        folder = ROOT / d
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            rel = f.relative_to(ROOT).as_posix()
            if f.is_file() and rel not in out and MARK in f.read_text(encoding="utf-8")[:300]:
                gone.append(rel)
    return gone


def main(argv: list[str]) -> int:
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        print(__doc__, file=sys.stderr)
        return 2
    out = outputs()
    stale = [p for p, text in out.items() if not (ROOT / p).is_file() or (ROOT / p).read_text(encoding="utf-8") != text]
    gone = stale_generated(out)
    if check:
        for p in stale:
            print(f"stale: {p} (run bash tests/gen-tables.sh)", file=sys.stderr)
        for p in gone:
            print(f"no longer generated: {p} (run bash tests/gen-tables.sh)", file=sys.stderr)
        return 1 if stale or gone else 0
    for p in stale:
        (ROOT / p).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / p).write_text(out[p], encoding="utf-8")
    for p in gone:
        (ROOT / p).unlink()
    print(f"gen/ports: {len(out)} generated files, {len(stale)} written, {len(gone)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
