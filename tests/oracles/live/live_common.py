"""What both live oracles share: the deterministic key sets, the memcached daemons on
127.0.0.0/8 (started on demand, stopped by their own pids), bounded socket reads, asking each
daemon which keys it holds, and writing a vector file. Used by live.py."""

import hashlib
import json
import os
import random
import socket
import subprocess
import shutil
import time

# nutcracker lives in /usr/sbin, which a non-root PATH may lack
NUTCRACKER = shutil.which("nutcracker") or "/usr/sbin/nutcracker"

GENERATOR = "tests/oracles/live/generate.sh"
HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------------------------
# key sets (deterministic)
# --------------------------------------------------------------------------------------------

WORDS = [
    "apple", "banana", "cherry", "date", "elderberry", "fig", "grape", "hello", "world", "foo",
    "bar", "baz", "qux", "key", "test", "memcached", "ketama", "twemproxy", "nutcracker", "pecl",
    "user:1", "user:2", "user:1000", "session:abc123", "cache/page/index.html", "a", "b", "c",
    "A", "Z", "_", "-", ".", ":", "/", "0x00", "{user1}:profile", "{}", "a{b}c", "{x}{y}",
    "foo-bar", "foo_bar", "FooBar", "server1-8", "hello_world!", "!@#$%^&*()", "~", "key0",
    "key1", "key2", "key9", "key10", "key99", "key100", "-1", "3.14", "1e10", "NaN", "null",
    "true", "false", "%s%d", "\\", "'", '"', "<tag>", "é", "café", "naïve", "Ünïcödé", "Ωmega",
    "日本語", "中文键", "한국어", "ключ", "ελληνικά", "مفتاح", "עברית", "😀", "emoji😀x",
    "🎉🎊🎈", "a😀b", "𝄞music", "👨\u200d👩\u200d👧", "ÿ", "\u0080x", "\u00a0nbsp", "\ufeffbom",
    "ﬁ", "\u07ff\u0800\uffff", "\U0010ffff", "\x7fdel", "x\x7f",
] + [str(i) for i in range(100)]

LONG_OK = [  # exactly 250 UTF-8 bytes (the memcached / pecl / twemproxy maximum) and a bit less
    "k" * 250,
    "é" * 125,
    "日" * 83 + "a",
    "😀" * 62 + "ab",
    "long-key-" + "0123456789" * 24 + "x",
    "m" * 249,
    "n" * 200,
]

# pecl memcache rewrites bytes <= 0x20 to '_' and truncates to 250 bytes; recorded as given
PECL_SPECIAL = [
    "", "hello world!", "a b", "a_b", " lead", "trail ", "tab\tkey", "nl\nkey", "cr\rkey",
    "crlf\r\nkey", "\x01ctrl", "\x1fus", "nul\x00byte", "multi   spaces", "  ", " ",
    "x" * 248 + " y", "y" * 251, "z" * 300, "x" * 249 + "é", "é" * 126, "日本 語", "😀 😀",
]

# twemproxy: no space / CR / LF possible in a memcache ASCII key. "" and > 250 bytes are
# refused by nutcracker itself (it closes the connection): recorded as null.
TWEM_SPECIAL = ["", "tab\tkey", "\x01ctrl", "\x1fus", "y" * 251, "z" * 300]

UNI_RANGES = [
    (0x61, 0x7A), (0xA1, 0xFF), (0x100, 0x17F), (0x391, 0x3C9), (0x400, 0x44F), (0x5D0, 0x5EA),
    (0x3041, 0x3096), (0x4E00, 0x4FFF), (0xAC00, 0xAD00), (0x1F300, 0x1F3FF), (0x1F600, 0x1F64F),
]
PRINTABLE = "".join(chr(c) for c in range(33, 127))
HEX = "0123456789abcdef"


def rand_key(rng, pecl):
    t = rng.random()
    if t < 0.25:
        k = "key:%d" % rng.randrange(10 ** rng.randint(1, 12))
    elif t < 0.45:
        k = "".join(rng.choice(HEX) for _ in range(rng.randint(1, 40)))
    elif t < 0.65:
        k = "".join(rng.choice(PRINTABLE) for _ in range(rng.randint(1, 40)))
    elif t < 0.75:
        k = "user:%d:%s" % (rng.randrange(1, 10 ** 6), rng.choice(["name", "cart", "prefs", "é"]))
    elif t < 0.94:
        out = []
        for _ in range(rng.randint(1, 12)):
            lo, hi = rng.choice(UNI_RANGES)
            out.append(chr(rng.randint(lo, hi)))
        k = "".join(out)
    else:
        k = "".join(rng.choice(PRINTABLE) for _ in range(rng.randint(100, 250)))
    if pecl and rng.random() < 0.03:  # a few keys pecl rewrites
        i = rng.randint(0, len(k))
        k = k[:i] + rng.choice([" ", "\t", "\x01", "\n"]) + k[i:]
    return k


def make_keys(name, count, pecl, extra=()):
    seed = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")
    rng = random.Random(seed)
    keys = []
    seen = set()

    def add(k):
        if k not in seen:
            seen.add(k)
            keys.append(k)

    for k in list(extra) + WORDS + LONG_OK + (PECL_SPECIAL if pecl else TWEM_SPECIAL):
        add(k)
    for _ in range(count * 20):
        if len(keys) >= count:
            break
        add(rand_key(rng, pecl))
    assert len(keys) == count, name
    return keys


def pecl_wire_key(key):
    """The key pecl memcache 4.0.5.2 sends (mmc_prepare_key_ex): bytes <= 0x20 -> '_', 250 max."""
    b = key.encode("utf-8")[:250]
    return bytes(c if c > 0x20 else 0x5F for c in b)


# --------------------------------------------------------------------------------------------
# memcached daemons on loopback
# --------------------------------------------------------------------------------------------

def daemon_table():
    """(label host, listen ip, port) for every daemon the vectors may use; index = position."""
    t = []
    for i in range(200):  # 127.0.0.2 .. 127.0.0.201, every third on port 11211
        t.append(("127.0.0.%d" % (2 + i), "127.0.0.%d" % (2 + i),
                  11211 if i % 3 == 0 else 20000 + 13 * i))
    for i in range(10):  # second daemon on the same hosts as 0..9
        t.append(("127.0.0.%d" % (2 + i), "127.0.0.%d" % (2 + i), 11300 + i))
    for i in range(3):  # host name (pecl only): localhost -> 127.0.0.1
        t.append(("localhost", "127.0.0.1", 23001 + i))
    return t


DAEMONS = daemon_table()
SAME_HOST = 200   # index of the first same-host extra daemon
LOCALHOST = 210   # index of the first localhost daemon


class Procs:
    def __init__(self, work):
        self.work = work
        self.pidfile = os.path.join(work, "pids")
        self.procs = {}
        self.is_root = os.geteuid() == 0

    def register(self, p):
        with open(self.pidfile, "a") as f:
            f.write("%d\n" % p.pid)

    def ensure(self, idxs):
        new = []
        for i in sorted(set(idxs)):
            if i in self.procs:
                continue
            _, ip, port = DAEMONS[i]
            cmd = ["memcached", "-l", ip, "-p", str(port), "-U", "0", "-m", "64", "-t", "1",
                   "-c", "256"]
            if self.is_root:
                cmd += ["-u", "root"]
            log = open(os.path.join(self.work, "memcached-%d.log" % i), "wb")
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            log.close()
            self.register(p)
            self.procs[i] = p
            new.append(i)
        for i in new:
            _, ip, port = DAEMONS[i]
            p = self.procs[i]
            deadline = time.time() + 10
            while True:
                if p.poll() is not None:
                    raise SystemExit("memcached %s:%d exited (port busy?)" % (ip, port))
                try:
                    st = mc_stats(ip, port)
                    break
                except OSError:
                    if time.time() > deadline:
                        raise SystemExit("memcached %s:%d did not come up" % (ip, port))
                    time.sleep(0.05)
            if int(st[b"pid"]) != p.pid:
                raise SystemExit("%s:%d is answered by another process" % (ip, port))

    def check_no_evictions(self):
        for i in sorted(self.procs):
            _, ip, port = DAEMONS[i]
            st = mc_stats(ip, port)
            if int(st[b"evictions"]) != 0 or int(st[b"reclaimed"]) != 0:
                raise SystemExit("memcached %s:%d evicted items" % (ip, port))

    def stop_all(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
        for p in self.procs.values():
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        self.procs = {}


def read_line(sock, buf, deadline):
    for _ in range(100000):
        i = buf.find(b"\r\n")
        if i >= 0:
            line = bytes(buf[:i])
            del buf[:i + 2]
            return line
        if time.time() > deadline:
            raise SystemExit("timeout reading from a daemon")
        d = sock.recv(65536)
        if not d:
            raise SystemExit("connection closed by a daemon")
        buf += d
    raise SystemExit("line too long")


def read_exact(sock, buf, n, deadline):
    for _ in range(100000):
        if len(buf) >= n:
            data = bytes(buf[:n])
            del buf[:n]
            return data
        if time.time() > deadline:
            raise SystemExit("timeout reading from a daemon")
        d = sock.recv(65536)
        if not d:
            raise SystemExit("connection closed by a daemon")
        buf += d
    raise SystemExit("value too long")


def mc_stats(ip, port):
    with socket.create_connection((ip, port), timeout=5) as s:
        s.sendall(b"stats\r\n")
        buf = bytearray()
        deadline = time.time() + 10
        st = {}
        for _ in range(1000):
            line = read_line(s, buf, deadline)
            if line == b"END":
                return st
            parts = line.split(b" ")
            if parts[0] != b"STAT":
                raise OSError("unexpected stats reply %r" % line)
            st[parts[1]] = parts[2]
        raise SystemExit("stats did not end")


def present_keys(ip, port, wire_keys, token):
    """Subset of wire_keys the daemon holds with value == token (pipelined ASCII get)."""
    lines = []
    cur, size = [], 0
    for k in wire_keys:
        if cur and size + len(k) + 1 > 1500:
            lines.append(b"get " + b" ".join(cur) + b"\r\n")
            cur, size = [], 0
        cur.append(k)
        size += len(k) + 1
    if cur:
        lines.append(b"get " + b" ".join(cur) + b"\r\n")
    found = set()
    with socket.create_connection((ip, port), timeout=10) as s:
        buf = bytearray()
        for j in range(0, len(lines), 32):
            group = lines[j:j + 32]
            s.sendall(b"".join(group))
            deadline = time.time() + 60
            ends = 0
            for _ in range(100000):
                if ends == len(group):
                    break
                line = read_line(s, buf, deadline)
                if line == b"END":
                    ends += 1
                    continue
                parts = line.split(b" ")
                if parts[0] != b"VALUE" or len(parts) != 4:
                    raise SystemExit("unexpected get reply %r from %s:%d" % (line, ip, port))
                data = read_exact(s, buf, int(parts[3]) + 2, deadline)[:-2]
                if data == token:
                    found.add(parts[1])
            else:
                raise SystemExit("get replies did not end")
    return found


def locate_stored(servers, wire_keys, token):
    """wire key -> list of server positions (in `servers`) holding it with this token."""
    where = {}
    for pos, s in enumerate(servers):
        _, ip, port = DAEMONS[s["daemon"]]
        for k in present_keys(ip, port, wire_keys, token):
            where.setdefault(k, []).append(pos)
    return where


# --------------------------------------------------------------------------------------------
# vectors
# --------------------------------------------------------------------------------------------

def server_objs(idxs, weights=None, names=None):
    out = []
    for j, i in enumerate(idxs):
        host, _, port = DAEMONS[i]
        o = {"daemon": i, "host": host, "port": port,
             "weight": 1 if weights is None else weights[j],
             "label": "%s:%d" % (host, port)}
        if names is not None and names[j] is not None:
            o["name"] = names[j]
        out.append(o)
    return out


def skewed(name, n, lo, hi):
    rng = random.Random("weights:" + name)
    w = [rng.randint(lo, hi) for _ in range(n)]
    w[0] = lo
    if n > 1:
        w[-1] = hi
    return w


def write_vector(outdir, fname, source, profile, hash_name, servers, keys, expect, options=None):
    obj = {
        "source": source,
        "generator": GENERATOR,
        "kind": "locate",
        "profile": profile,
        "hash": hash_name,
    }
    if options is not None:
        obj["options"] = options
    obj.update({
        "servers": [{k: v for k, v in s.items() if k != "daemon"} for s in servers],
        "keys": keys,
        "expect": expect,
    })
    if options is not None:  # files with client options live in options/
        outdir = os.path.join(outdir, "options")
        os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, fname + ".json")
    parts = []
    for k, v in obj.items():  # one list element per line
        if isinstance(v, list):
            inner = ",\n  ".join(json.dumps(x, ensure_ascii=False) for x in v)
            parts.append(" %s: [\n  %s\n ]" % (json.dumps(k), inner))
        else:
            parts.append(" %s: %s" % (json.dumps(k), json.dumps(v, ensure_ascii=False)))
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")
    nl = sum(e is not None for e in expect)
    print("  wrote %s (%d servers, %d keys, %d null)" % (fname, len(servers), len(keys),
                                                         len(keys) - nl), flush=True)


def cmd_version(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    return (r.stdout.strip() or r.stderr.strip())


def dpkg_version(pkg):
    return cmd_version(["dpkg-query", "-W", "-f", "${Version}", pkg])
