"""Inputs shared by the later client families (dalli, nginx, whalin, folsom, memjs,
mcrouter, xmemcached-gwhalin): key sets, server sets, and a runner that hands a job file to
a family's real-client driver and reads back what the client answered.

Nothing here computes a placement: every `expect` value comes from the driver's output.
Vector files go to tests/vectors/pending/ until the profiles exist in core.
Standard library only.
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import vectorlib  # noqa: E402  (key and server sets, JSON writer)
from vectorlib import server  # noqa: E402,F401

PENDING = "pending/"

# Keys whose Java/JS String.hashCode() is -2^31 (abs() of it stays 2^31 / negative).
MIN_INT_HASHCODE_KEYS = ["polygenelubricants", "GydZG_", "DESIGNING WORKHOUSES"]


def long_char_keys():
    """Keys longer than 250 characters or bytes (dalli rewrites >250 *characters*)."""
    return [
        "k" * 251, "k" * 300, "L" * 1000, "x" * 249 + "é",  # 250 chars, 251 bytes
        "é" * 126,  # 126 chars, 252 bytes
        "é" * 251,  # 251 chars
        "日本語" * 84,  # 252 chars
        "😀" * 200,  # 200 chars (400 UTF-16 units), 800 bytes
        "prefix:" + "0123456789" * 30,
    ]


def odd_keys():
    """Keys with bytes 0..32 or 127 (rejected by some clients)."""
    return ["has space", "tab\tin", "nl\nin", "cr\rin", "\x00nul", "ctl\x01", "\x1f", " ",
            "trailing ", "del\x7f", "x" * 250]


def keys(random_count=400, seed=20261130, extra=()):
    """~1000 deterministic keys, no duplicates; the empty key is included."""
    base = vectorlib.standard_keys(random_count=random_count, seed=seed)
    out, seen = [], set()
    for k in list(base) + MIN_INT_HASHCODE_KEYS + long_char_keys() + odd_keys() + list(extra):
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def hostname_set(n=6, port=11211):
    names = ["cache1.example.com", "cache2.example.com", "mc-a.internal", "memcache-03.prod.example.net",
             "localhost", "node6.example.org", "x", "cache-eight.example.com"]
    return [server(names[i], port + (i % 3)) for i in range(n)]


def ipv6_set():
    return [server("2001:db8::1", 11211, label="[2001:db8::1]:11211"),
            server("2001:db8::2", 11211, label="[2001:db8::2]:11211"),
            server("fd00::a:b", 11311, label="[fd00::a:b]:11311"),
            server("10.9.0.4", 11211)]


def weighted_set():
    """Small uneven weights."""
    return [server("10.5.0.1", 11211, 1), server("10.5.0.2", 11211, 2),
            server("10.5.0.3", 11211, 3), server("10.5.0.4", 11212, 5)]


def run_driver(cmd, jobs, cwd=None):
    """Write `jobs` (a JSON list) to a temp file, run `cmd + [path]`, return its JSON stdout."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(jobs, f, ensure_ascii=False)
        path = f.name
    try:
        out = subprocess.run(list(cmd) + [path], check=True, stdout=subprocess.PIPE, cwd=cwd)
    finally:
        os.unlink(path)
    res = json.loads(out.stdout.decode("utf-8"))
    assert len(res) == len(jobs), (len(res), len(jobs))
    for job, r in zip(jobs, res):
        assert len(r) == len(job["keys"]), (len(r), len(job["keys"]))
    return res


def write(name, source, generator, profile, servers, keys_, expect, kind="locate", hash_name=None):
    return vectorlib.write_vector(PENDING + name, source, generator, keys_, expect,
                                  profile=profile, hash_name=hash_name, servers=servers, kind=kind)


def _hex(s):
    return s.encode("utf-8").hex()


def run_line_driver(cmd, jobs):
    """Line protocol for the Java drivers (no JSON parser in the JDK). Per job:
    `T <params...>`, `S <hex field> ...` per server, `K <hex of the key's UTF-8>` per key, `E`.
    The driver answers per job `R`, one line per key (`x` = refused / threw), then `D`.
    Returns per job the list of answers (strings, None for `x`)."""
    lines = []
    for job in jobs:
        lines.append("T " + " ".join(str(p) for p in job.get("params", [])))
        for s in job["servers"]:
            lines.append("S " + " ".join(_hex(str(x)) for x in s))
        for k in job["keys"]:
            lines.append("K " + _hex(k))
        lines.append("E")
    data = ("\n".join(lines) + "\n").encode("utf-8")
    out = subprocess.run(list(cmd), input=data, check=True, stdout=subprocess.PIPE).stdout
    out = out.decode("utf-8").split("\n")
    res, cur = [], None
    for line in out:
        if line == "R":
            cur = []
        elif line == "D":
            res.append(cur)
            cur = None
        elif cur is not None:
            cur.append(None if line == "x" else line)
    assert len(res) == len(jobs), (len(res), len(jobs))
    for job, r in zip(jobs, res):
        assert len(r) == len(job["keys"]), (len(r), len(job["keys"]))
    return res
