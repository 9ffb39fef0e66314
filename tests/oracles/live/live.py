#!/usr/bin/env python3
"""Live oracles: pecl memcache (PHP) and twemproxy (nutcracker).

Neither client says which server a key goes to (pecl's findServer() does, and is checked here
against live storage on every key), so every key is stored through the client into real
memcached daemons listening on loopback (127.0.0.0/8 only), then each daemon is asked directly
(ASCII `get`) which keys it holds. Every key must be found on exactly one daemon, with this
vector's unique value, else the script fails.

Called by generate.sh (which owns the trap that kills every process listed in WORK/pids).
Only the Python standard library is used.
"""

import argparse
import hashlib
import json
import os
import random
import socket
import subprocess
import sys
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


# ---------------------------------------------------------------------------- pecl memcache

def pecl_vectors():
    """(file name, strategy, hash_function, servers, key count)."""
    vs = []
    for hf in ("crc32", "fnv"):
        p = "pecl-memcache-" + hf
        vs += [
            (p + "-n1", "consistent", hf, server_objs([1]), 1000),
            (p + "-n2-equal", "consistent", hf, server_objs([0, 1]), 1000),
            (p + "-n5-equal", "consistent", hf, server_objs([0, 1, 2, 3, 4]), 1000),
            (p + "-n5-all-weight-3", "consistent", hf,
             server_objs([5, 6, 7, 8, 9], [3] * 5), 1000),
            (p + "-n5-skewed", "consistent", hf,
             server_objs([0, 1, 2, 3, 4], [1, 10, 100, 1000, 7]), 1000),
            (p + "-n10-same-hosts", "consistent", hf,
             server_objs([0, SAME_HOST, 1, SAME_HOST + 1, 2, SAME_HOST + 2, 3, SAME_HOST + 3,
                          4, SAME_HOST + 4]), 1000),
            (p + "-n10-skewed", "consistent", hf,
             server_objs(list(range(10, 20)), skewed(p + "10", 10, 1, 100)), 1000),
            (p + "-n30-equal", "consistent", hf, server_objs(list(range(30))), 1500),
            (p + "-n50-skewed", "consistent", hf,
             server_objs(list(range(20, 70)), skewed(p + "50", 50, 1, 20)), 2000),
            (p + "-localhost", "consistent", hf,
             server_objs([LOCALHOST, LOCALHOST + 1, 0, LOCALHOST + 2, 1]), 1000),
        ]
        p = "pecl-memcache-standard-" + hf
        vs += [
            (p + "-n1", "standard", hf, server_objs([2]), 1000),
            (p + "-n3-equal", "standard", hf, server_objs([0, 1, 2]), 1000),
            (p + "-n10-equal", "standard", hf, server_objs(list(range(10))), 1000),
            (p + "-n10-skewed", "standard", hf,
             server_objs(list(range(10, 20)), skewed(p + "10", 10, 1, 10)), 1000),
            (p + "-n30-skewed", "standard", hf,
             server_objs(list(range(30)), skewed(p + "30", 30, 1, 1000)), 1500),
        ]
    return vs


def run_pecl(procs, work, outdir, run_id):
    php_ver = cmd_version(["php", "-r", "echo PHP_VERSION;"])
    ext_ver = cmd_version(["php", "-r", "echo phpversion('memcache');"])
    deb_ver = dpkg_version("php8.2-memcache")
    mc_ver = cmd_version(["memcached", "-V"])
    if ext_ver != "4.0.5.2":
        print("warning: pecl memcache is %s, not 4.0.5.2" % ext_ver, file=sys.stderr)
    # one PHP process per vector: vectors share keys and daemons, so each vector is checked
    # on the daemons before the next one overwrites its keys
    for fname, strategy, hf, servers, count in pecl_vectors():
        procs.ensure(s["daemon"] for s in servers)
        keys = make_keys(fname, count, pecl=True)
        token = "%s|%s" % (run_id, fname)
        job = {"vectors": [{
            "servers": [{"host": s["host"], "port": s["port"], "weight": s["weight"]}
                        for s in servers],
            "keys": keys, "token": token}]}
        jpath = os.path.join(work, "pecl-job.json")
        opath = os.path.join(work, "pecl-out.json")
        with open(jpath, "w", encoding="utf-8") as f:
            json.dump(job, f, ensure_ascii=False)
        subprocess.run(["php", "-d", "memcache.hash_strategy=" + strategy,
                        "-d", "memcache.hash_function=" + hf,
                        os.path.join(HERE, "pecl.php"), jpath, opath],
                       check=True, timeout=900)
        with open(opath, encoding="utf-8") as f:
            out = json.load(f)
        ini = out["ini"]
        if ini["memcache.hash_strategy"] != strategy or ini["memcache.hash_function"] != hf:
            raise SystemExit("ini settings not applied: %r" % ini)
        res = out["results"][0]
        labels = [s["label"] for s in servers]
        wire = [pecl_wire_key(k) for k in keys]
        where = locate_stored(servers, sorted(set(w for w, (ok, _) in zip(wire, res) if ok)),
                              token.encode())
        expect = []
        for k, w, (ok, fs) in zip(keys, wire, res):
            if not ok:
                if fs is not None or k != "":
                    raise SystemExit("%s: set() refused %r but findServer gave %r"
                                     % (fname, k, fs))
                expect.append(None)
                continue
            loc = where.get(w, [])
            if len(loc) != 1:
                raise SystemExit("%s: key %r found on %d daemons" % (fname, k, len(loc)))
            if labels[loc[0]] != fs:
                raise SystemExit("%s: key %r stored on %s but findServer says %s"
                                 % (fname, k, labels[loc[0]], fs))
            expect.append(fs)
        hname = None if hf == "crc32" else "fnv1a_32"
        profile = "pecl-memcache" if strategy == "consistent" else "pecl-memcache-standard"
        source = (
            "pecl memcache %s (Debian php8.2-memcache %s) on PHP %s, ini "
            "memcache.hash_strategy=%s memcache.hash_function=%s (other memcache.* ini at "
            "their defaults: allow_failover=%s, protocol=%s, no key prefix); "
            "$m = new Memcache(); $m->addServer(host, port, false, weight) for each server "
            "in file order; per key $m->set(key, value, 0, 0) and $m->findServer(key). "
            "Live: every key was stored into real memcached daemons (%s) listening on "
            "127.0.0.0/8 and each daemon was asked which keys it held (ASCII get of the "
            "key pecl sends: bytes <= 0x20 replaced by '_', cut to 250 bytes); every key "
            "was found on exactly one daemon and that daemon equals findServer(key). "
            "Keys are recorded as given to the client; null = set() and findServer() "
            "refused the key (empty key). label = host:port as given to addServer."
            % (ext_ver, deb_ver, php_ver, strategy, hf, ini["memcache.allow_failover"],
               ini["memcache.protocol"], mc_ver))
        write_vector(outdir, fname, source, profile, hname, servers, keys, expect)


# ---------------------------------------------------------------------------- twemproxy

TWEM_HASHES = [  # (twemproxy name, our name)
    ("fnv1a_64", None), ("one_at_a_time", "one_at_a_time"), ("md5", "md5"),
    ("crc16", "crc16"), ("crc32", "crc"), ("crc32a", "crc32a"), ("fnv1_64", "fnv1_64"),
    ("fnv1_32", "fnv1_32"), ("fnv1a_32", "fnv1a_32"), ("hsieh", "hsieh"), ("murmur", "murmur"),
    ("jenkins", "jenkins"),
]

NAMES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
         "cache-01", "cache-02", "cache-03", "cache-04", "cache-05", "redis:1", "node_7",
         "server1", "server2", "server10"]


def twem_vectors():
    """(file name, distribution, twemproxy hash or None = omitted, our hash, servers, keys)."""
    vs = []
    for th, oh in TWEM_HASHES:
        tag = th if oh is not None else "default-fnv1a_64"
        # 10 unnamed servers, equal weights, four on port 11211, two sharing host 127.0.0.2
        vs.append(("twemproxy-%s-n10-equal" % tag, "ketama", None if oh is None else th, oh,
                   server_objs(list(range(9)) + [SAME_HOST]), 1200))
        # 8 named servers, skewed weights
        vs.append(("twemproxy-%s-n8-named-skewed" % tag, "ketama", None if oh is None else th,
                   oh, server_objs(list(range(40, 48)), skewed(th + "8", 8, 1, 1000),
                                   NAMES[:8]), 1200))
    d = "default-fnv1a_64"
    vs += [
        ("twemproxy-%s-n1" % d, "ketama", None, None, server_objs([3]), 1000),
        ("twemproxy-%s-n2-equal" % d, "ketama", None, None, server_objs([0, 1]), 1500),
        ("twemproxy-%s-n5-skewed" % d, "ketama", None, None,
         server_objs([0, 1, 2, 3, 4], [1, 10, 100, 1000, 7]), 1500),
        ("twemproxy-%s-n10-all-weight-5" % d, "ketama", None, None,
         server_objs(list(range(10, 20)), [5] * 10), 1500),
        ("twemproxy-%s-n20-mixed-names" % d, "ketama", None, None,
         server_objs(list(range(20, 40)), skewed(d + "20", 20, 1, 50),
                     [NAMES[j] if j % 2 == 0 else None for j in range(20)]), 1500),
        ("twemproxy-%s-n30-skewed" % d, "ketama", None, None,
         server_objs(list(range(60, 90)), skewed(d + "30", 30, 1, 1000)), 1500),
        ("twemproxy-%s-n50-equal" % d, "ketama", None, None, server_objs(list(range(50))), 2000),
        ("twemproxy-%s-n200-equal" % d, "ketama", None, None,
         server_objs(list(range(200))), 3000),
        ("twemproxy-md5-n50-equal", "ketama", "md5", "md5", server_objs(list(range(50))), 2000),
        ("twemproxy-md5-n30-skewed", "ketama", "md5", "md5",
         server_objs(list(range(60, 90)), skewed("md5-30", 30, 1, 1000)), 1500),
        ("twemproxy-md5-n100-equal", "ketama", "md5", "md5",
         server_objs(list(range(100, 200))), 2000),
        # modula
        ("twemproxy-modula-%s-n1" % d, "modula", None, None, server_objs([0]), 1000),
        ("twemproxy-modula-%s-n5-equal" % d, "modula", None, None,
         server_objs([0, 1, 2, 3, SAME_HOST]), 1500),
        ("twemproxy-modula-%s-n7-skewed" % d, "modula", None, None,
         server_objs(list(range(10, 17)), [1, 3, 2, 10, 1, 5, 7], NAMES[:7]), 1500),
        ("twemproxy-modula-%s-n6-mixed-lengths" % d, "modula", None, None,
         server_objs([98, 0, 150, 8, 99, 3]), 1500),
        ("twemproxy-modula-md5-n5-equal", "modula", "md5", "md5",
         server_objs(list(range(5))), 1500),
        ("twemproxy-modula-crc32a-n7-skewed", "modula", "crc32a", "crc32a",
         server_objs(list(range(20, 27)), [4, 1, 9, 2, 2, 6, 1]), 1500),
        ("twemproxy-modula-one_at_a_time-n12-skewed", "modula", "one_at_a_time",
         "one_at_a_time", server_objs(list(range(30, 42)), skewed("oaat12", 12, 1, 20)), 1500),
    ]
    return vs


# hash_tag: keys around twemproxy's rule (first open character, then the first close character
# after it; only a non-empty text between them is hashed, else the whole key)
TAG_KEYS = [
    "{user1}:profile", "{user1}:cart", "user1", "{user2}:profile", "user2", "{}", "{}x", "x{}",
    "{}{a}", "{a}{b}", "a", "b", "{a", "a}", "}a{", "}a{b}", "}{", "{{a}}", "{a}}", "{{a}",
    "{a{b}c}", "x{a}y", "{é}", "é", "{日本}語", "日本", "x{😀}y", "😀", "{", "}", "{ab", "ab}",
    "{\tt}", "\tt", "{x}" + "y" * 246, "{x}" + "y" * 247, "{x}" + "y" * 248, "{" + "z" * 248 + "}",
    ":a:", "a:b:c", "::", "::x", "a:", ":a", "a:b", "b", "x:é:y", "<a>", "a<b>c", "<>", "<a", "a>",
    "[a]", "[]", "é:x", "\u00e9", "aéb", "xé", "éé", "é\u00a9", "\u00c3\u00a9",
]


def twem_tag_vectors():
    """(file name, distribution, twemproxy hash, our hash, servers, keys, hash_tag)."""
    d = "default-fnv1a_64"
    return [
        ("twemproxy-hash-tag-braces-%s-n10-equal" % d, "ketama", None, None,
         server_objs(list(range(9)) + [SAME_HOST]), 1500, "{}"),
        ("twemproxy-hash-tag-braces-md5-n8-named-skewed", "ketama", "md5", "md5",
         server_objs(list(range(40, 48)), skewed("tag8", 8, 1, 1000), NAMES[:8]), 1200, "{}"),
        ("twemproxy-hash-tag-colons-%s-n5-skewed" % d, "ketama", None, None,
         server_objs([0, 1, 2, 3, 4], [1, 10, 100, 1000, 7]), 1200, "::"),
        ("twemproxy-hash-tag-angles-murmur-n10-equal", "ketama", "murmur", "murmur",
         server_objs(list(range(10, 20))), 1200, "<>"),
        # a 2-byte UTF-8 character is a valid 2-byte tag: its two bytes open and close it
        ("twemproxy-hash-tag-e-acute-%s-n10-equal" % d, "ketama", None, None,
         server_objs(list(range(20, 30))), 1200, "é"),
        ("twemproxy-hash-tag-braces-modula-%s-n7-skewed" % d, "modula", None, None,
         server_objs(list(range(10, 17)), [1, 3, 2, 10, 1, 5, 7], NAMES[:7]), 1200, "{}"),
        ("twemproxy-hash-tag-braces-modula-crc32a-n5-equal", "modula", "crc32a", "crc32a",
         server_objs([0, 1, 2, 3, SAME_HOST]), 1200, "{}"),
        ("twemproxy-hash-tag-braces-%s-n1" % d, "ketama", None, None, server_objs([3]), 300, "{}"),
    ]


# hash_tag values nutcracker -t is asked about (accepted or "not a valid hash tag string")
TAG_CONFIG_TESTS = ["{}", "::", "<>", "é", "{", "{}}", "«»", "ab", "  ", "\t}", '""']


LISTEN = ("127.0.0.250", 22199)
STATS = ("127.0.0.250", 22299)


def twem_config(dist, th, servers, tag=None):
    lines = ["live:", "  listen: %s:%d" % LISTEN]
    if th is not None:
        lines.append("  hash: %s" % th)
    if tag is not None:
        lines.append("  hash_tag: %s" % json.dumps(tag, ensure_ascii=False))
    lines += ["  distribution: %s" % dist, "  auto_eject_hosts: false", "  redis: false",
              "  timeout: 5000", "  servers:"]
    for s in servers:
        line = "   - %s:%d:%d" % (s["host"], s["port"], s["weight"])
        if "name" in s:
            line += " " + s["name"]
        lines.append(line)
    return "\n".join(lines) + "\n"


def twem_store_one(key, token):
    """Store one key on a fresh connection. True = STORED, False = refused by the proxy."""
    try:
        with socket.create_connection(LISTEN, timeout=5) as s:
            s.sendall(b"set %s 0 0 %d\r\n%s\r\n" % (key, len(token), token))
            buf = bytearray()
            line = read_line(s, buf, time.time() + 5)
    except (SystemExit, OSError) as e:
        return False, str(e)
    return line == b"STORED", line.decode("latin-1")


def twem_store(keys, token):
    """Pipelined sets through nutcracker; chunks that fail are redone key by key."""
    ok = {}
    why = {}
    for j in range(0, len(keys), 50):
        chunk = keys[j:j + 50]
        good = False
        try:
            with socket.create_connection(LISTEN, timeout=10) as s:
                s.sendall(b"".join(b"set %s 0 0 %d\r\n%s\r\n" % (k, len(token), token)
                                   for k in chunk))
                buf = bytearray()
                deadline = time.time() + 30
                good = all(read_line(s, buf, deadline) == b"STORED" for _ in chunk)
        except (SystemExit, OSError):
            good = False
        if good:
            for k in chunk:
                ok[k] = True
        else:
            for k in chunk:
                ok[k], why[k] = twem_store_one(k, token)
    return ok, why


def twem_tag_config_tests(work):
    """hash_tag value -> whether `nutcracker -t` accepts a pool with it (and its message)."""
    out = []
    for tag in TAG_CONFIG_TESTS + [""]:
        cpath = os.path.join(work, "nutcracker-tag.yml")
        with open(cpath, "w", encoding="utf-8") as f:
            f.write(twem_config("ketama", None, server_objs([0, 1]), tag))
        r = subprocess.run([NUTCRACKER, "-t", "-c", cpath], capture_output=True, text=True,
                           timeout=30)
        msg = (r.stdout + r.stderr).strip().splitlines()
        last = msg[-1] if msg else ""
        out.append([tag, r.returncode == 0, last.replace(cpath, "FILE")])
    return out


def run_twemproxy(procs, work, outdir, run_id, tags=False):
    nut_ver = cmd_version([NUTCRACKER, "--version"]).splitlines()[0]
    deb_ver = dpkg_version("nutcracker")
    mc_ver = cmd_version(["memcached", "-V"])
    if tags:
        specs = twem_tag_vectors()
        tests = twem_tag_config_tests(work)
        write_tag_rules(outdir, tests, nut_ver, deb_ver)
    else:
        specs = [v + (None,) for v in twem_vectors()]
    for fname, dist, th, oh, servers, count, tag in specs:
        procs.ensure(s["daemon"] for s in servers)
        keys = make_keys(fname, count, pecl=False, extra=TAG_KEYS if tag is not None else ())
        token = ("%s|%s" % (run_id, fname)).encode()
        conf = twem_config(dist, th, servers, tag)
        cpath = os.path.join(work, "nutcracker.yml")
        with open(cpath, "w") as f:
            f.write(conf)
        subprocess.run([NUTCRACKER, "-t", "-c", cpath, "-o", os.path.join(work, "nut-t.log")],
                       check=True, timeout=30, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        log = os.path.join(work, "nutcracker.log")
        p = subprocess.Popen([NUTCRACKER, "-c", cpath, "-s", str(STATS[1]), "-a", STATS[0],
                              "-o", log, "-p", os.path.join(work, "nutcracker.pid"), "-v", "4"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        procs.register(p)
        try:
            deadline = time.time() + 10
            while True:
                if p.poll() is not None:
                    raise SystemExit("nutcracker exited (see %s)" % log)
                try:
                    socket.create_connection(LISTEN, timeout=1).close()
                    break
                except OSError:
                    if time.time() > deadline:
                        raise SystemExit("nutcracker did not listen")
                    time.sleep(0.05)
            bkeys = [k.encode() for k in keys]
            ok, why = twem_store(bkeys, token)
        finally:
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        queryable = [k for k in bkeys if 0 < len(k) <= 250]
        where = locate_stored(servers, queryable, token)
        labels = [s["label"] for s in servers]
        expect = []
        refused = []
        for k, bk in zip(keys, bkeys):
            loc = where.get(bk, [])
            if not ok[bk]:
                if loc:
                    raise SystemExit("%s: key %r refused but stored" % (fname, k))
                if k != "" and len(bk) <= 250:
                    raise SystemExit("%s: nutcracker refused key %r: %s" % (fname, k, why[bk]))
                refused.append(k)
                expect.append(None)
                continue
            if len(loc) != 1:
                raise SystemExit("%s: key %r found on %d daemons" % (fname, k, len(loc)))
            expect.append(labels[loc[0]])
        prof = "twemproxy" if dist == "ketama" else "twemproxy-modula"
        conf_txt = " ".join(l.strip() for l in conf.splitlines())
        source = (
            "twemproxy %s (Debian nutcracker %s), one pool: `%s` (YAML, servers host:port:weight "
            "[name]%s); nutcracker -c <that file> -s %d -a %s. Live: every key was stored with "
            "an ASCII `set <key> 0 0 <len>` through the pool's listen port into real memcached "
            "daemons (%s) listening on 127.0.0.0/8, then each daemon was asked (ASCII get) "
            "which keys it held; every stored key was found on exactly one daemon. null = "
            "nutcracker refused the request and closed the connection (empty key, keys over "
            "250 bytes). label = host:port as written in the config; `name` = the server name "
            "given in the config."
            % (nut_ver.replace("This is ", ""), deb_ver, conf_txt,
               "; no hash line = twemproxy's default fnv1a_64" if th is None else "",
               STATS[1], STATS[0], mc_ver))
        if tag is not None:
            source += (" hash_tag: %s: twemproxy hashes only the bytes between the first "
                       "occurrence of its first byte and the next occurrence of its second byte "
                       "after it, when there is at least one byte between them, else the whole "
                       "key; key refusals are on the whole key." % json.dumps(tag,
                                                                             ensure_ascii=False))
        write_vector(outdir, fname, source, prof, oh, servers, keys, expect,
                     None if tag is None else {"hash_tag": tag})


def write_tag_rules(outdir, tests, nut_ver, deb_ver):
    """extra/twemproxy-hash-tag-rules.json: which hash_tag values nutcracker accepts."""
    obj = {
        "source": ("twemproxy %s (Debian nutcracker %s): `nutcracker -t -c FILE` on a two-server "
                   "memcache pool whose config has `hash_tag: <the JSON string of the tag>` "
                   "(YAML double-quoted); accepted = exit status 0; message = the last line "
                   "it printed." % (nut_ver.replace("This is ", ""), deb_ver)),
        "generator": GENERATOR,
        "kind": "option-rules",
        "profile": "twemproxy",
        "option": "hash_tag",
        "cases": [{"value": t, "accepted": ok, "message": m} for t, ok, m in tests],
    }
    os.makedirs(os.path.join(outdir, "extra"), exist_ok=True)
    path = os.path.join(outdir, "extra", "twemproxy-hash-tag-rules.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(obj, ensure_ascii=False, indent=1) + "\n")
    print("  wrote extra/twemproxy-hash-tag-rules.json (%d cases)" % len(tests), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", choices=["pecl", "twemproxy", "twemproxy-hash-tag"])
    a = ap.parse_args()
    procs = Procs(a.work)
    run_id = "%d-%d" % (os.getpid(), int(time.time()))
    try:
        if a.only in (None, "pecl"):
            run_pecl(procs, a.work, a.out, run_id)
        if a.only in (None, "twemproxy"):
            run_twemproxy(procs, a.work, a.out, run_id)
        if a.only in (None, "twemproxy-hash-tag"):
            run_twemproxy(procs, a.work, a.out, run_id, tags=True)
        procs.check_no_evictions()
    finally:
        procs.stop_all()


if __name__ == "__main__":
    main()
