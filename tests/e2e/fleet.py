#!/usr/bin/env python3
"""A mixed-language fleet on real memcached servers (127.0.0.1 only).

Called by tests/e2e/test.sh, which builds the pieces. Standard library only.

1. php-memcached (OPT_LIBKETAMA_COMPATIBLE) writes 3,000 keys to 4 servers; our Python
   package (pymemcache HashClient + ketama.hasher), a C program on libketama.so, PHP
   (Ketama\\Client over Ketama\\Ring, both backends) and Node (memjs with our JavaScript
   ring as its getServer) read every key back from the server our
   ring names, profile php-memcached: 100% hits. `ketama audit --detect` ranks
   libmemcached-weighted (md5) first with 100% agreement; `audit --profile` of another
   client names exactly the keys it would miss.
2. One server is stopped: exactly its keys miss, and `ketama audit` exits 3 naming it.
3. The same with spymemcached (Java, KetamaConnectionFactory) as the writer, read with
   profile spymemcached. Then a server is stopped and spymemcached writes new keys: it
   redistributes them along its own failover sequence, and all readers find every key by
   walking our failover(key) to the first live server (the rare key whose 7 tries all land
   on the stopped server fails to store: exactly the keys our walk strands).

Every memcached started here is killed by its PID at the end (also on error or signal).
KETAMA_E2E_KEYS sets the keys per writer (default 3,000; 20,000 makes stranded keys likely).
"""

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"
NKEYS = int(os.environ.get("KETAMA_E2E_KEYS", "3000"))  # keys per writer
STARTED: list[subprocess.Popen] = []


def fail(msg: str) -> None:
    raise SystemExit(f"e2e: FAIL: {msg}")


def start_daemon(binary: str, host: str = HOST, port: int = 0) -> tuple[str, subprocess.Popen]:
    """A memcached on `host`:`port` (0: a free port on 127.0.0.1), started by us."""
    for _ in range(5):
        if port == 0:
            host = HOST
            s = socket.socket()
            s.bind((HOST, 0))
            port_ = s.getsockname()[1]
            s.close()
        else:
            port_ = port
        cmd = [binary, "-l", host, "-p", str(port_), "-U", "0", "-m", "32", "-t", "1"]
        if os.geteuid() == 0:
            cmd += ["-u", "root"]
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        STARTED.append(p)
        deadline = time.time() + 10
        while time.time() < deadline and p.poll() is None:
            try:
                with socket.create_connection((host, port_), timeout=1) as c:
                    c.settimeout(5)
                    c.sendall(b"stats\r\n")
                    buf = b""
                    while not buf.endswith(b"END\r\n"):
                        chunk = c.recv(65536)
                        if not chunk:
                            break
                        buf += chunk
                    if f"STAT pid {p.pid}\r\n".encode() in buf:
                        return f"{host}:{port_}", p
                    break  # someone else's server on that port
            except OSError:
                time.sleep(0.02)
        stop(p)
        if port != 0:
            raise OSError(f"memcached did not start on {host}:{port}")
    fail("memcached did not start")
    raise AssertionError


def stop(p: subprocess.Popen) -> None:
    if p.poll() is None:
        p.kill()
    p.wait(timeout=10)


def write_lines(path: str, lines: list[str]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(x + "\n" for x in lines))


def run(cmd: list[str], env: dict | None = None, ok_codes: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if r.returncode not in ok_codes:
        fail(f"{' '.join(cmd)} exited {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return r


class Tools:
    def __init__(self, a: argparse.Namespace) -> None:
        self.a = a
        self.php_env = dict(os.environ, KETAMA_LIB=a.ketama_lib)

    def readers(self) -> dict[str, list[str]]:
        a = self.a
        readers = {
            "python (pymemcache HashClient + ketama.hasher)": [a.python, os.path.join(a.here, "py_reader.py")],
            "C (libketama.so)": [a.c_reader],
            "PHP Ketama\\Client (php-memcached)": [a.php, "-d", "ffi.enable=1", os.path.join(a.here, "php_reader.php"), "memcached"],
            "PHP Ketama\\Client (pecl memcache)": [a.php, "-d", "ffi.enable=1", os.path.join(a.here, "php_reader.php"), "memcache"],
            "Java spymemcached + org.ketama ProfileNodeLocator": [a.java, "-cp", a.java_cp, "SpyReader"],
            "Node (memjs + our ring as getServer)": [a.node, os.path.join(a.here, "node_reader.js")],
        }
        if a.go_reader:
            readers["Go (gomemcache + ketama NewServerSelector)"] = [a.go_reader]
        return readers

    def read(self, name: str, profile: str, servers: str, keys: str, dead: str | None = None) -> tuple[int, int, list[str]]:
        cmd = self.readers()[name] + [profile, servers, keys] + ([dead] if dead else [])
        out = run(cmd, env=self.php_env).stdout.splitlines()
        head = dict(x.split("=") for x in out[0].split())
        return int(head["hits"]), int(head["total"]), out[1:]

    def stranded(self, profile: str, servers: str, keys_file: str, dead: str) -> list[str]:
        """The keys whose failover(key, 7) walk (our Python package) names only `dead`."""
        code = (
            "import sys, ketama\n"
            "labels = [l.strip() for l in open(sys.argv[2]) if l.strip()]\n"
            "ring = ketama.Ring(labels, sys.argv[1])\n"
            "for k in (l.rstrip('\\n') for l in open(sys.argv[3]) if l.strip()):\n"
            "    if all(s == sys.argv[4] for s in ring.failover(k, 7)):\n"
            "        print(k)\n"
        )
        return sorted(run([self.a.python, "-c", code, profile, servers, keys_file, dead]).stdout.splitlines())

    def lookup(self, profile: str, servers: str, keys: list[str]) -> list[str]:
        r = subprocess.run([self.a.ketama, "lookup", "-p", profile, "-s", servers], input="".join(k + "\n" for k in keys),
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            fail(f"ketama lookup: {r.stderr}")
        return r.stdout.splitlines()

    def audit(self, servers: str, *args: str, code: int = 0) -> tuple[dict, str]:
        r = run([self.a.ketama, "audit", "-s", servers, "--format", "json", *args], ok_codes=(code,))
        return json.loads(r.stdout), r.stderr


def keyset(rng: random.Random, tag: str) -> list[str]:
    keys = [f"{tag}:{rng.randrange(16**10):010x}:{i}" for i in range(NKEYS - 6)]
    keys += [f"{tag}:user:1", f"{tag}:a{{b}}c", f"{tag}:x/y.z?q=1", f"{tag}:" + "k" * 200, f"{tag}:~!@#$%^&*()", f"{tag}:UPPER"]
    return keys


def check_all_hit(t: Tools, profile: str, servers: str, keys_file: str, dead: str | None = None) -> None:
    for name in t.readers():
        hits, total, missed = t.read(name, profile, servers, keys_file, dead)
        if hits != total or missed:
            fail(f"{name}, profile {profile}: {hits}/{total} hits, e.g. missed {missed[:3]}")
        print(f"  {name}: {hits}/{total} hits (100%)")


def check_only_dead_miss(t: Tools, profile: str, servers: str, keys_file: str, keys: list[str], dead: str) -> None:
    owners = t.lookup(profile, servers, keys)
    want = sorted(k for k, o in zip(keys, owners) if o == dead)
    if not want:
        fail("the stopped server held no keys")
    for name in t.readers():
        hits, total, missed = t.read(name, profile, servers, keys_file)
        if sorted(missed) != want:
            fail(f"{name}: {len(missed)} misses, expected exactly the {len(want)} keys of {dead}")
        print(f"  {name}: {hits}/{total} hits; the {len(missed)} misses are exactly the keys of {dead}")


def check_detect(
    t: Tools, servers: str, nkeys: int, profile: str, hash_: str, first: bool = False
) -> list[dict]:
    d, _ = t.audit(servers, "--detect")
    if d["keys"] != nkeys:
        fail(f"audit saw {d['keys']} keys, expected {nkeys}")
    ranked = d["profiles"]
    top = ranked[0]["agree"]
    mine = [p for p in ranked if p["profile"] == profile and p["hash"] == hash_]
    if top != 1.0 or not mine or mine[0]["agree"] != 1.0:
        fail(f"audit --detect: best {ranked[:3]}, {profile}/{hash_}: {mine}")
    if first and (ranked[0]["profile"], ranked[0]["hash"]) != (profile, hash_):
        fail(f"audit --detect: {profile}/{hash_} is not ranked first: {ranked[:3]}")
    tied = [f"{p['profile']}/{p['hash']}" for p in ranked if p["agree"] == 1.0]
    print(f"  audit --detect: {nkeys} keys; 100% agreement: {', '.join(tied)}")
    shown = {}
    for p in ranked:
        shown.setdefault(p["profile"], p)
    print("  best hash per profile: " + ", ".join(f"{k} {v['hash']} {v['agree']:.2%}" for k, v in shown.items()))
    return ranked


def main() -> int:
    ap = argparse.ArgumentParser()
    for opt in ("ketama", "ketama-lib", "c-reader", "python", "php", "java", "java-cp", "memcached", "work", "node"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--go-reader", help="the Go reader (tests/e2e/go_reader), optional")
    a = ap.parse_args()
    a.here = os.path.dirname(os.path.abspath(__file__))
    t = Tools(a)
    rng = random.Random(12)
    w = a.work

    # ---- 1. php-memcached writes ------------------------------------------------------------
    print("== php-memcached (OPT_LIBKETAMA_COMPATIBLE) writes, every client reads")
    # Port 11211 on four loopback addresses: libmemcached leaves the default port out of its
    # point strings, which sets php-memcached apart from the clients that keep it (libketama,
    # spymemcached, ...); on free ports their continua are identical and audit cannot tell.
    try:
        fleet = [start_daemon(a.memcached, f"127.0.0.{i + 2}", 11211) for i in range(4)]
        distinct = True
    except OSError as e:
        print(f"  note: {e}; using free ports, where several profiles tie")
        fleet = [start_daemon(a.memcached) for _ in range(4)]
        distinct = False
    labels = [label for label, _ in fleet]
    servers = os.path.join(w, "php.servers")
    write_lines(servers, labels)
    keys = keyset(rng, "php")
    keys_file = os.path.join(w, "php.keys")
    write_lines(keys_file, keys)
    print("  " + run([a.php, os.path.join(a.here, "php_writer.php"), servers, keys_file]).stdout.strip())
    check_all_hit(t, "php-memcached", servers, keys_file)
    check_detect(t, servers, len(keys), "libmemcached-weighted", "md5", first=distinct)
    d, _ = t.audit(servers, "--profile", "php-memcached")
    if d["profiles"][0]["agree"] != 1.0 or d["misplaced"]:
        fail(f"audit --profile php-memcached: {d['profiles']}, {len(d['misplaced'])} misplaced")
    # Another client's view: the misplaced keys are exactly those it places elsewhere.
    d, _ = t.audit(servers, "--profile", "libmemcached")
    other = t.lookup("libmemcached", servers, keys)
    mine = t.lookup("php-memcached", servers, keys)
    want = {k: (m, o) for k, m, o in zip(keys, mine, other) if m != o}
    got = {m["key"]: (m["on"], m["expected"]) for m in d["misplaced"]}
    if got != want or not want:
        fail(f"audit --profile libmemcached: {len(got)} misplaced reported, {len(want)} expected")
    print(f"  audit --profile libmemcached: agreement {d['profiles'][0]['agree']:.2%}, "
          f"{len(got)} misplaced keys, each with the server libmemcached would ask")

    print("== one server stopped")
    dead_label, dead_proc = fleet[1]
    stop(dead_proc)
    check_only_dead_miss(t, "php-memcached", servers, keys_file, keys, dead_label)
    d, err = t.audit(servers, "--detect", code=3)
    if dead_label not in err or not d["partial"] or d["profiles"][0]["agree"] != 1.0:
        fail(f"partial audit: {err!r} {d['profiles'][:1]}")
    alive_keys = len(keys) - sum(1 for o in t.lookup("php-memcached", servers, keys) if o == dead_label)
    if d["keys"] != alive_keys:
        fail(f"partial audit listed {d['keys']} keys, the live servers hold {alive_keys}: {d['servers']}")
    print(f"  audit --detect: exit 3 (partial), stderr names {dead_label}; {d['keys']} keys on the others, still 100% for the best")
    for _, p in fleet:
        stop(p)

    # ---- 2. spymemcached writes -------------------------------------------------------------
    print("== spymemcached (Java, KetamaConnectionFactory) writes, every client reads")
    fleet = [start_daemon(a.memcached) for _ in range(4)]
    labels = [label for label, _ in fleet]
    servers = os.path.join(w, "spy.servers")
    write_lines(servers, labels)
    keys = keyset(rng, "spy")
    keys_file = os.path.join(w, "spy.keys")
    write_lines(keys_file, keys)
    java = [a.java, "-cp", a.java_cp, "SpyWriter"]
    print("  " + run(java + [servers, keys_file, "4"]).stdout.strip())
    check_all_hit(t, "spymemcached", servers, keys_file)
    check_detect(t, servers, len(keys), "spymemcached", "md5")

    print("== one server stopped; spymemcached writes new keys and fails over")
    dead_label, dead_proc = fleet[2]
    stop(dead_proc)
    check_only_dead_miss(t, "spymemcached", servers, keys_file, keys, dead_label)
    fo_keys = keyset(rng, "fo")
    fo_file = os.path.join(w, "fo.keys")
    write_lines(fo_file, fo_keys)
    # spymemcached puts a key whose primary is down on the first live server of its 7 failover
    # tries; when all 7 land on the down server it leaves the key there, and the write fails.
    # Those keys, a few in 10,000 here, are exactly the ones our failover(key, 7) walk finds
    # no live server for: the writer's failures and every reader's misses must be that set.
    out = run(java + [servers, fo_file, "3"], ok_codes=(0, 1)).stdout.splitlines()
    print("  " + out[0])
    failed = sorted(line.split(" ", 1)[1] for line in out[1:] if line.startswith("failed-key "))
    stranded = t.stranded("spymemcached", servers, fo_file, dead_label)
    if failed != stranded:
        fail(f"spymemcached failed to store {failed[:5]} ({len(failed)}), failover() strands {stranded[:5]} ({len(stranded)})")
    moved = sum(1 for o in t.lookup("spymemcached", servers, fo_keys) if o == dead_label)
    if moved == 0:
        fail("no key had the stopped server as primary")
    for name in t.readers():
        hits, total, missed = t.read(name, "spymemcached", servers, fo_file, dead_label)
        if sorted(missed) != stranded:
            fail(f"{name}: {hits}/{total} hits, missed {missed[:3]}, expected to miss only {stranded[:3]}")
        print(f"  {name}: {hits}/{total} hits" + (f" (the {len(stranded)} misses: no live server in 7 tries)" if stranded else " (100%)"))
    print(f"  ({moved} of the keys had {dead_label} as primary: found where failover() says spymemcached puts them;"
          f" {len(stranded)} stranded on it, as failover() predicts)")
    for _, p in fleet:
        stop(p)
    print("e2e: mixed-language fleet: all checks passed")
    return 0


if __name__ == "__main__":
    def on_signal(signum: int, _frame: object) -> None:
        raise SystemExit(f"e2e: stopped by signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    try:
        sys.exit(main())
    finally:
        for proc in STARTED:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
