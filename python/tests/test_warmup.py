"""``ketama.pymemcache.WarmupClient`` on real memcached processes (127.0.0.1): 3 servers
grow to 4 while the warm-up client serves; every key written before stays readable, the new
owners are warmed, newer values on the new owner win, writes go to the new owner, deletes
reach both."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from typing import Iterator

import pytest

import ketama

pymemcache = pytest.importorskip("pymemcache")
from pymemcache.client.base import Client  # noqa: E402
from pymemcache.client.hash import HashClient  # noqa: E402

from ketama.pymemcache import WarmupClient  # noqa: E402

HOST = "127.0.0.1"  # loopback only
PROFILE = "libmemcached-weighted"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def fleet() -> Iterator[list[int]]:
    binary = shutil.which("memcached") or ("/usr/bin/memcached" if os.path.exists("/usr/bin/memcached") else None)
    if binary is None:
        if os.environ.get("KETAMA_REQUIRE_MEMCACHED"):
            pytest.fail("memcached is not installed (apt-get install memcached)")
        pytest.skip("memcached is not installed")
    procs: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    try:
        for _ in range(4):
            port = free_port()
            cmd = [binary, "-l", HOST, "-p", str(port), "-U", "0", "-m", "16", "-t", "1"]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                cmd += ["-u", "root"]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            deadline = time.monotonic() + 10
            while True:
                try:
                    with socket.create_connection((HOST, port), timeout=0.2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            ports.append(port)
        yield ports
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(timeout=5)


def test_warmup_reads_every_key_while_the_fleet_grows(fleet: list[int]) -> None:
    old = [(HOST, p) for p in fleet[:3]]
    new = [(HOST, p) for p in fleet]
    for p in fleet:
        Client((HOST, p)).flush_all()
    rng = random.Random(3)
    keys = [f"{rng.randrange(16**10):010x}:{i}" for i in range(600)]
    writer = HashClient(old, hasher=ketama.hasher(PROFILE), connect_timeout=2, timeout=2)
    for k in keys:
        assert writer.set(k, f"v:{k}".encode(), noreply=False)
    plain_new = HashClient(new, hasher=ketama.hasher(PROFILE), connect_timeout=2, timeout=2)
    moved = [k for k in keys if plain_new.get(k) is None]
    assert 50 < len(moved) < 300, len(moved)  # about a quarter moves to the fourth server

    newer = moved[0]
    assert plain_new.set(newer, b"newer", noreply=False)  # a client already on the new placement
    w = WarmupClient(old, new, PROFILE, connect_timeout=2, timeout=2)
    got = w.get_many(keys[:300])
    got.update({k: w.get(k) for k in keys[300:]})
    assert all(got[k] == (b"newer" if k == newer else f"v:{k}".encode()) for k in keys)
    # The new owners were warmed: a plain client on the new ring finds every key.
    assert all(plain_new.get(k) is not None for k in keys)
    assert plain_new.get(newer) == b"newer"

    # Writes go to the new owner only; deletes reach both owners.
    k = moved[1]
    assert w.set(k, b"fresh")
    assert plain_new.get(k) == b"fresh"
    assert writer.get(k) == f"v:{k}".encode()
    assert w.delete(k)
    assert plain_new.get(k) is None and writer.get(k) is None
    assert w.get(k, default="gone") == "gone"
    w.close()
