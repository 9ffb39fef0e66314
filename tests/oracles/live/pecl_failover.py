#!/usr/bin/env python3
"""Records pecl memcache's failover with servers that do not answer (run by
pecl_failover.sh): every server is 127.0.0.1:PORT, a live one a real memcached daemon, a dead one
a port that refuses connections. Each key is stored through the client (default
memcache.allow_failover = 1, max_failover_attempts = 20) and read back from each live daemon
alone: expect = the daemon holding it, or null when set() failed (key refused, or the client gave
up). Writes tests/vectors/extra/pecl-memcache[-standard]-dead-*.json (kind dead).
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pyclients"))
import common as C  # noqa: E402

GEN = "tests/oracles/live/pecl_failover.sh"
SETS = {
    "five": C.loopback(range(22301, 22306)),
    "weighted": C.loopback(range(22311, 22314), [1, 2, 3]),
    "ten": C.loopback(range(22321, 22331)),
    "one": C.loopback([22341]),
}
DEAD = [("five-one-dead", "five", [1]), ("five-three-dead", "five", [0, 2, 4]),
        ("weighted-heaviest-dead", "weighted", [2]), ("ten-nine-dead", "ten", list(range(1, 10))),
        ("five-all-dead", "five", [0, 1, 2, 3, 4]), ("one-dead", "one", [0])]
STRATEGIES = [("consistent", "pecl-memcache"), ("standard", "pecl-memcache-standard")]


def refused(port):
    s = socket.socket()
    try:
        s.connect(("127.0.0.1", port))
        return False
    except ConnectionRefusedError:
        return True
    finally:
        s.close()


def run(strategy, servers, dead, keys, token):
    live = [i for i in range(len(servers)) if i not in dead]
    procs = []
    try:
        for i in live:
            procs.append(subprocess.Popen(
                ["memcached", "-l", "127.0.0.1", "-p", str(servers[i]["port"]), "-U", "0",
                 "-m", "64", "-t", "1"] + (["-u", "nobody"] if os.geteuid() == 0 else []), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.time() + 10
        for i in live:
            while refused(servers[i]["port"]):
                if time.time() > deadline:
                    raise SystemExit("memcached on %d did not start" % servers[i]["port"])
                time.sleep(0.05)
        for i in dead:
            if not refused(servers[i]["port"]):
                raise SystemExit("port %d answers: cannot stand for a dead server" % servers[i]["port"])
        with tempfile.TemporaryDirectory() as d:
            jp, op = os.path.join(d, "job.json"), os.path.join(d, "out.json")
            with open(jp, "w", encoding="utf-8") as f:
                json.dump({"servers": servers, "live": live, "keys": keys, "token": token}, f,
                          ensure_ascii=False)
            subprocess.run(["php", "-d", "memcache.hash_strategy=" + strategy,
                            "-d", "memcache.hash_function=crc32",
                            os.path.join(HERE, "pecl_failover.php"), jp, op], check=True,
                           timeout=600)
            with open(op, encoding="utf-8") as f:
                out = json.load(f)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
    return out


def main():
    ver = subprocess.run(["php", "-r", "echo phpversion('memcache');"], check=True,
                         capture_output=True, text=True).stdout.strip()
    deb = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "php8.2-memcache"],
                         capture_output=True, text=True).stdout.strip()
    keys = C.keys()
    for strategy, profile in STRATEGIES:
        for name, set_, dead in DEAD:
            servers = SETS[set_]
            token = "t-%s-%s-%d" % (strategy, name, os.getpid())
            out = run(strategy, servers, dead, keys, token)
            ini = out["ini"]
            src = ("pecl memcache %s (Debian php8.2-memcache %s): Memcache::addServer("
                   "'127.0.0.1', port, false, weight, 1, 15) per server, memcache.hash_strategy=%s, "
                   "hash_function=%s, allow_failover=%s, max_failover_attempts=%s; a live server is "
                   "memcached (Debian) on 127.0.0.1, a dead one a port that refuses connections; "
                   "servers %s dead: every key set() through the pool and read back from each live "
                   "server alone; expect = the one holding it; null = set() failed (key refused, or "
                   "no live server within the client's tries)" % (
                       ver, deb, ini["memcache.hash_strategy"], ini["memcache.hash_function"],
                       ini["memcache.allow_failover"], ini["memcache.max_failover_attempts"],
                       [servers[i]["label"] for i in dead]))
            expect = [None if r is None else servers[r]["label"] for r in out["results"]]
            C.write_dead("%s-dead-%s.json" % (profile, name), src, GEN, profile, servers, dead,
                         keys, expect)


if __name__ == "__main__":
    main()
