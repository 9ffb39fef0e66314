#!/usr/bin/env python3
"""Prints the agreement table of docs/compat.md from the committed vector files: per profile
(or hash family), how many files and keys the real clients produced, which client and version,
and the server counts covered. The suites (Rust, C, Python, PHP) must match every one."""
import collections
import json
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent
rows = collections.defaultdict(lambda: {"files": 0, "keys": 0, "servers": set(), "hashes": set(), "clients": set()})
for f in sorted(here.glob("*.json")):
    v = json.loads(f.read_text())
    kind = v.get("kind", "locate")
    name = v.get("profile") if kind != "hash" else "hash " + re.sub(r"-.*", "", f.stem.replace("java-hash-", "java-"))
    r = rows[(name, kind)]
    r["files"] += 1
    r["keys"] += len(v["keys"])
    if kind != "hash":
        r["servers"].add(len(v["servers"]))
    r["hashes"].add(v.get("hash") or "default")
    client = re.split(r"[;(,]| on | via ", v["source"], maxsplit=1)[0].strip()
    r["clients"].add(client[:70])

print("| profile | kind | files | keys | server counts | hashes | real client |")
print("|---|---|---|---|---|---|---|")
for (name, kind), r in sorted(rows.items()):
    counts = ", ".join(str(n) for n in sorted(r["servers"])) or "-"
    hashes = ", ".join(sorted(r["hashes"]))
    print(f"| `{name}` | {kind} | {r['files']} | {r['keys']} | {counts} | {hashes} | {'; '.join(sorted(r['clients']))} |")
