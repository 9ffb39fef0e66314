"""The twemproxy oracle: each vector's keys stored through a real nutcracker proxy, then
found on the daemons. Used by live.py."""

import json
import os
import socket
import subprocess
import time

from live_common import (
    GENERATOR,
    NUTCRACKER,
    SAME_HOST,
    cmd_version,
    dpkg_version,
    locate_stored,
    make_keys,
    read_line,
    server_objs,
    skewed,
    write_vector,
)


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
