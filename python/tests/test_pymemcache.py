"""pymemcache's HashClient with our hasher, against three real memcached processes on
127.0.0.1: keys are stored through HashClient, then every server is asked directly (plain
``pymemcache.client.base.Client``) which keys it holds; each key must be on exactly the server
our Ring names, and nowhere else."""

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

HOST = "127.0.0.1"  # loopback only


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def wait_listening(port: int, proc: subprocess.Popen[bytes], deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"memcached on port {port} exited with {proc.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"memcached on port {port} did not start")


@pytest.fixture(scope="module")
def memcached() -> Iterator[list[int]]:
    binary = shutil.which("memcached") or ("/usr/bin/memcached" if os.path.exists("/usr/bin/memcached") else None)
    if binary is None:
        if os.environ.get("KETAMA_REQUIRE_MEMCACHED"):
            pytest.fail("memcached is not installed (apt-get install memcached)")
        pytest.skip("memcached is not installed")
    procs: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    try:
        for _ in range(3):
            port = free_port()
            cmd = [binary, "-l", HOST, "-p", str(port), "-U", "0", "-m", "16", "-t", "1", "-c", "64"]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                cmd += ["-u", "root"]  # memcached refuses to run as root otherwise
            procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            ports.append(port)
        deadline = time.monotonic() + 10
        for port, proc in zip(ports, procs):
            wait_listening(port, proc, deadline)
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


def direct_clients(ports: list[int]) -> dict[str, Client]:
    return {f"{HOST}:{p}": Client((HOST, p), connect_timeout=2, timeout=2, allow_unicode_keys=True) for p in ports}


def where_stored(clients: dict[str, Client], keys: list[str]) -> dict[str, list[str]]:
    """For each key, the servers that hold it (asked directly)."""
    found: dict[str, list[str]] = {k: [] for k in keys}
    for label, c in clients.items():
        for k in c.get_many(keys):
            found[k if isinstance(k, str) else k.decode()].append(label)
    return found


def flush(clients: dict[str, Client]) -> None:
    for c in clients.values():
        c.flush_all()


_rng = random.Random(7)
# Random-looking keys: sequential ones ("user:1", "user:2", ...) cluster under some hashes
# (twemproxy's fnv1a_64), which could leave a server without keys.
KEYS = [f"{_rng.randrange(16**12):012x}:{i}" for i in range(400)] + ["apple", "banana", "a" * 250, "é-key", "日本語", "😀"]
PROFILES = ["libketama", "php-memcached", "libmemcached", "twemproxy", "spymemcached", "uhashring-ketama", "pecl-memcache", "modula"]


@pytest.mark.parametrize("profile", PROFILES)
def test_hashclient_places_keys_where_the_ring_says(memcached: list[int], profile: str) -> None:
    clients = direct_clients(memcached)
    flush(clients)
    labels = list(clients)
    ring = ketama.Ring(labels, profile)
    client = HashClient([(HOST, p) for p in memcached], hasher=ketama.hasher(profile), allow_unicode_keys=True, connect_timeout=2, timeout=2)
    for k in KEYS:
        assert client.set(k, b"v", noreply=False), k
    placed = where_stored(clients, KEYS)
    want = ring.get_many(KEYS)
    bad = [(k, placed[k], w) for k, w in zip(KEYS, want) if placed[k] != [w]]
    assert not bad, f"{len(bad)} of {len(KEYS)} keys misplaced, e.g. {bad[:3]}"
    assert len(set(want)) >= 2  # keys were spread (the test would be empty otherwise)
    # ... and HashClient reads them back through the same hasher.
    assert client.get_many(KEYS) == {k: b"v" for k in KEYS}
    client.close()


def test_remove_server_moves_only_its_keys(memcached: list[int]) -> None:
    clients = direct_clients(memcached)
    flush(clients)
    labels = list(clients)
    client = HashClient([(HOST, p) for p in memcached], hasher=ketama.hasher("php-memcached"), connect_timeout=2, timeout=2)
    keys = [f"k{i}" for i in range(300)]
    before = ketama.Ring(labels, "php-memcached").get_many(keys)
    # HashClient.remove_server() only works for a server it already marked failed (it pops
    # it from _failed_clients); what it then does is this call on the hasher.
    client.hasher.remove_node(f"{HOST}:{memcached[0]}")
    for k in keys:
        client.set(k, b"v", noreply=False)
    placed = where_stored(clients, keys)
    after = ketama.Ring(labels[1:], "php-memcached").get_many(keys)
    for k, b, a in zip(keys, before, after):
        assert placed[k] == [a]
        if b != labels[0]:
            assert a == b, "a key moved although its server stayed"
    client.close()


def test_hasher_protocol_without_servers() -> None:
    cls = ketama.hasher("php-memcached")
    h = cls()  # HashClient calls it with no arguments
    assert h.get_node("k") is None
    h.add_node("127.0.0.1:11211")
    h.add_node("127.0.0.1:11211")  # already there: ignored, as RendezvousHash does
    assert h.get_node("k") == "127.0.0.1:11211"
    h.remove_node("127.0.0.1:11211")
    assert h.get_node("k") is None
    with pytest.raises(KeyError):
        h.remove_node("127.0.0.1:11211")
    assert ketama.hasher("php-memcached") is cls
    assert ketama.hasher() is ketama.KetamaHasher


def test_ipv6_nodes_from_pymemcache() -> None:
    # HashClient names ("::1", 11212) "::1:11212"; we place it as [::1]:11212 and answer
    # with pymemcache's name.
    h = ketama.hasher("php-memcached")()
    h.add_node("::1:11212")
    h.add_node("127.0.0.1:11211")
    assert h.servers == ["[::1]:11212", "127.0.0.1:11211"]
    ring = ketama.Ring(["[::1]:11212", "127.0.0.1:11211"], "php-memcached")
    for i in range(200):
        k = f"k{i}"
        assert h.get_node(k) == {"[::1]:11212": "::1:11212"}.get(ring.get(k), ring.get(k))
    h.remove_node("::1:11212")
    assert h.servers == ["127.0.0.1:11211"]
