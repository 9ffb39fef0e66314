#!/usr/bin/env python3
"""Writes tests/vectors/{libhashkit,libmemcached,modula,php-memcached}-*.json from the REAL
libhashkit / libmemcached 1.1.4 (through lmoracle.c) and php-memcached 3.2.0 (php_oracle.php).

Called by generate.sh (which installs the packages and builds the binaries); stdlib only; the
keys come from key_material.py beside it.
Environment (set by generate.sh):
  LMORACLE          lmoracle linked against Debian's libmemcached11/libhashkit2
  LM_NDEBUG_LIBDIR  LD_LIBRARY_PATH for the -DNDEBUG build of the same 1.1.4 source (Debian's build aborts at the 101st server in consistent modes)
  LM_HSIEH_LIBDIR   LD_LIBRARY_PATH for a libhashkit built with ENABLE_HASH_HSIEH=ON (or empty)
  LM_VERSIONS       JSON: package versions
Everything is deterministic: keys come from SHA-256 counters, never from `random`.
"""
import json
import os
import subprocess
import sys
import tempfile

from key_material import hash_keys, hexlines, locate_keys, prefix_keys, short_keys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(ROOT, "tests", "vectors")
GEN = "tests/oracles/libmemcached/generate.sh"
LMORACLE = os.environ["LMORACLE"]
NDEBUG_LIBDIR = os.environ["LM_NDEBUG_LIBDIR"]
HSIEH_LIBDIR = os.environ.get("LM_HSIEH_LIBDIR", "")
V = json.loads(os.environ["LM_VERSIONS"])

# HASHKIT_HASH_* / MEMCACHED_HASH_* values (libhashkit-1.0/types.h) and our names
HASHES = [
    ("one_at_a_time", 0, "HASHKIT_HASH_DEFAULT"),
    ("md5", 1, "HASHKIT_HASH_MD5"),
    ("crc", 2, "HASHKIT_HASH_CRC"),
    ("fnv1_64", 3, "HASHKIT_HASH_FNV1_64"),
    ("fnv1a_64", 4, "HASHKIT_HASH_FNV1A_64"),
    ("fnv1_32", 5, "HASHKIT_HASH_FNV1_32"),
    ("fnv1a_32", 6, "HASHKIT_HASH_FNV1A_32"),
    ("hsieh", 7, "HASHKIT_HASH_HSIEH"),
    ("murmur", 8, "HASHKIT_HASH_MURMUR"),
    ("jenkins", 9, "HASHKIT_HASH_JENKINS"),
    ("murmur3", 10, "HASHKIT_HASH_MURMUR3"),
]
HID = {n: i for n, i, _ in HASHES}
MHASH = {n: c.replace("HASHKIT_", "MEMCACHED_") for n, _, c in HASHES}
PHPHASH = {"one_at_a_time": "HASH_DEFAULT", "md5": "HASH_MD5", "crc": "HASH_CRC",
           "fnv1_64": "HASH_FNV1_64", "fnv1a_64": "HASH_FNV1A_64", "fnv1_32": "HASH_FNV1_32",
           "fnv1a_32": "HASH_FNV1A_32", "hsieh": "HASH_HSIEH", "murmur": "HASH_MURMUR"}
DIST = {"MODULA": 0, "CONSISTENT": 1, "CONSISTENT_KETAMA": 2, "CONSISTENT_KETAMA_SPY": 4,
        "CONSISTENT_WEIGHTED": 5}


# ---------------------------------------------------------------- running the real clients
def run(cmd, stdin, libdir=None):
    env = dict(os.environ)
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("FAILED %s (rc %d): %s" % (cmd, r.returncode, r.stderr[-2000:]))
    return r.stdout.splitlines()


def hash_values(algo, keys, libdir=None):
    out = run([LMORACLE, "hash", str(algo)], hexlines(keys), libdir)
    assert len(out) == len(keys)
    return [int(x) for x in out]


def label(host, port):
    return ("[%s]:%d" % (host, port)) if ":" in host else ("%s:%d" % (host, port))


def parse_locate(out, keys):
    info = dict(kv.split("=", 1) for kv in out[0].split()[1:])
    res = []
    for line in out[1:]:
        if line == "null":
            res.append(None)
        else:
            h, p = line.split("\t")
            res.append(label(h, int(p)))
    assert len(res) == len(keys), (len(res), len(keys))
    return info, res


def lm_locate(ops, keys, libdir=None):
    with tempfile.NamedTemporaryFile("w", suffix=".ops", delete=False) as f:
        f.write("\n".join(ops) + "\n")
        path = f.name
    try:
        return parse_locate(run([LMORACLE, "locate", path], hexlines(keys), libdir), keys)
    finally:
        os.unlink(path)


def php_locate(options, servers, keys):
    spec = {"options": options, "servers": servers}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
        path = f.name
    try:
        out = run(["php", os.path.join(HERE, "php_oracle.php"), path], hexlines(keys))
        return parse_locate(out, keys)
    finally:
        os.unlink(path)


# ---------------------------------------------------------------- server sets
def srv(host, port=11211, weight=1):
    return {"host": host, "port": port, "weight": weight, "label": label(host, port)}


MIXED10 = [srv("10.0.1.%d" % i) for i in range(1, 7)] + [
    srv("10.0.1.7", 11212), srv("10.0.1.8", 12000), srv("192.168.1.9"), srv("172.16.0.10", 22122)]
HOSTNAMES = [srv("cache1.example.lan"), srv("cache2.example.lan"), srv("cache3.example.lan", 11212),
             srv("memcache-a.internal"), srv("memcache-b.internal", 21211),
             srv("localhost"), srv("db.example.com", 11311)]
IPV6 = [srv("2001:db8::1"), srv("2001:db8::2"), srv("2001:db8::a", 11212), srv("10.0.0.4"),
        srv("fd00:1234:5678::99", 12000)]
ONE = [srv("10.0.0.1")]
TWO = [srv("10.0.0.1"), srv("10.0.0.2")]
LIBKETAMA8 = [srv("10.0.1.%d" % (i + 1), 11211, w)
              for i, w in enumerate([600, 300, 200, 350, 1000, 800, 950, 100])]
SKEW10 = [srv("10.0.2.%d" % (i + 1), 11211 if i % 3 else 11300 + i, w)
          for i, w in enumerate([1, 2, 5, 10, 50, 100, 250, 500, 750, 1000])]
WEIGHT0 = [srv("10.0.3.1", 11211, 0), srv("10.0.3.2", 11211, 1), srv("10.0.3.3", 11211, 0),
           srv("10.0.3.4", 11212, 3), srv("10.0.3.5", 11211, 10)]
HOSTW = [dict(s, weight=w) for s, w in zip(HOSTNAMES, [1, 5, 10, 20, 40, 80, 160])]


def many(n, mixed_ports=False, weight=1):
    out = []
    for i in range(n):
        port = 11211
        if mixed_ports and i % 4 == 3:
            port = 11212 + (i % 7)
        out.append(srv("10.%d.%d.%d" % (10 + i // 62500, (i // 250) % 250, i % 250 + 1), port, weight))
    return out


# ---------------------------------------------------------------- writers
def write(name, doc, order=("source", "generator", "kind", "profile", "hash", "options", "servers", "keys",
                            "expect", "option", "cases")):
    doc = {k: doc[k] for k in order if k in doc}
    path = os.path.join(OUT, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=0, ensure_ascii=False))
        f.write("\n")
    n_srv = len(doc.get("servers", []))
    print("%-58s %-26s %-14s servers=%-4d keys=%d" % (
        name, doc.get("profile", "-"), doc.get("hash"), n_srv, len(doc.get("keys", doc.get("cases", [])))))


LM_SRC = ("libmemcached %s + libhashkit %s (Debian packages libmemcached11/libhashkit2 %s, x86_64, "
          "signed char)" % (V["upstream"], V["upstream"], V["libmemcached11"]))
NDEBUG_SRC = ("libmemcached %s + libhashkit %s built from the upstream tarball of Debian's source package "
              "(libmemcached_%s.orig.tar.gz, sha256 %s, as listed in the signed libmemcached_%s.dsc; "
              "Debian's patches not applied) with cmake -DCMAKE_BUILD_TYPE=None and -DNDEBUG, because "
              "Debian's build keeps assertions and aborts at the 101st server in consistent modes; "
              "this build gave results identical to Debian's on every vector set of <= 100 "
              "servers here (the generator checks it)" % (
                  V["upstream"], V["upstream"], V["upstream"], V["orig_sha256"], V["libmemcached11"]))


def ops_for(dist_ops, servers, add_weighted, after_ops=()):
    ops = list(dist_ops)
    for s in servers:
        if add_weighted:
            ops.append("addw %s %d %d" % (s["host"], s["port"], s["weight"]))
        else:
            ops.append("add %s %d" % (s["host"], s["port"]))
    return ops + list(after_ops)


def add_wrap_keys(keys, info, keyhash_id, seed, count=4):
    """Adds keys whose key hash is above the highest ring point (they wrap to the first point)."""
    maxp = int(info.get("maxpoint", "-1"))
    if maxp < 0:
        return keys
    cands = ["wrap:%s:%d" % (seed, i) for i in range(20000)]
    vals = hash_values(keyhash_id, cands)
    extra = [k for k, v in zip(cands, vals) if v > maxp][:count]
    return keys + extra


def lm_vector(name, profile, hash_name, servers, dist_ops, add_weighted, api, keys,
              after_ops=(), wrap_hash=None, big=False, t3=False):
    """Runs libmemcached; `big` = needs the NDEBUG build (> 100 servers in a consistent mode)."""
    libdir = NDEBUG_LIBDIR if big else None
    ops = ops_for(dist_ops, servers, add_weighted, after_ops)
    info, _ = lm_locate(ops, keys[:1], libdir)
    if wrap_hash is not None:
        keys = add_wrap_keys(keys, info, wrap_hash, name)
    info, expect = lm_locate(ops, keys, libdir)
    if not big:  # the NDEBUG build must agree with Debian's wherever Debian's runs
        info2, expect2 = lm_locate(ops, keys, NDEBUG_LIBDIR)
        assert expect2 == expect and info2 == info, "NDEBUG build differs from Debian's on " + name
    calls = "; ".join(api)
    pts = ""
    if info["distribution"] != "0":
        pts = " The library built %s ring points (memc->ketama.continuum_points_counter)." % info["points"]
    src = ("%s. memcached_create(NULL); %s; memcached_server_by_key(memc, key, len, &rc) -> "
           "memcached_server_name():memcached_server_port() (IPv6 label in brackets; libmemcached "
           "was given the bare address). Final state: distribution=%s, ketama_weighted=%s, "
           "MEMCACHED_BEHAVIOR_HASH=%s.%s null = memcached_server_by_key returned NULL "
           "(empty key or key >= 251 bytes: MEMCACHED_BAD_KEY_PROVIDED)." % (
               NDEBUG_SRC if big else LM_SRC, calls, info["distribution"], info["ketama_weighted"],
               info["hash"], pts))
    if t3:
        src += (" No KETAMA_WEIGHTED behaviour was set: adding a server with weight > 1 "
                "to a consistent distribution switched libmemcached to the weighted md5 ring while "
                "the key hash stayed one_at_a_time.")
    write(name, {"source": src, "generator": GEN, "kind": "locate", "profile": profile,
                 "hash": hash_name, "servers": servers, "keys": keys, "expect": expect})
    return info


def describe_adds(servers, weighted):
    fn = "memcached_server_add_with_weight(memc, host, port, weight)" if weighted else \
        "memcached_server_add(memc, host, port)"
    return "%s for each server in file order" % fn


# ---------------------------------------------------------------- the vectors
def gen_hash():
    keys = hash_keys()
    has = dict(tuple(map(int, l.split())) for l in run([LMORACLE, "has"], ""))
    notes = {}
    for name, algo, cname in HASHES:
        if not has[algo]:
            notes[name] = "unavailable in Debian's build (libhashkit_has_algorithm = false)"
            if name != "hsieh" or not HSIEH_LIBDIR:
                continue
            vals = hash_values(algo, keys, HSIEH_LIBDIR)
            src = ("libhashkit %s built from the upstream tarball of Debian's source package "
                   "(libmemcached_%s.orig.tar.gz, sha256 %s) with cmake -DENABLE_HASH_HSIEH=ON, because Debian's libhashkit2 %s is "
                   "built without hsieh (libhashkit_has_algorithm(HASHKIT_HASH_HSIEH) = false, "
                   "libhashkit_digest returns 1 for every key, hashkit_set_function fails). "
                   "libhashkit_digest(key, len, %s) and hashkit_digest() of a hashkit_st with "
                   "hashkit_set_function(%s) (checked equal), x86_64 (signed char). The same build "
                   "matched Debian's libhashkit on every other algorithm for these keys." % (
                       V["upstream"], V["upstream"], V["orig_sha256"], V["libhashkit2"], cname, cname))
        else:
            vals = hash_values(algo, keys)
            if HSIEH_LIBDIR:
                assert vals == hash_values(algo, keys, HSIEH_LIBDIR), "hsieh build differs on " + name
            src = ("libhashkit %s (Debian package libhashkit2 %s, x86_64: signed char, bytes >= 0x80 "
                   "sign-extended where the algorithm reads chars): libhashkit_digest(key, len, %s), "
                   "checked equal to hashkit_digest() of a hashkit_create()d hashkit_st with "
                   "hashkit_set_function(%s)." % (V["upstream"], V["libhashkit2"], cname, cname))
            if name == "one_at_a_time":
                src += " HASHKIT_HASH_DEFAULT is libhashkit_one_at_a_time()."
        write("libhashkit-%s.json" % name.replace("_", "-"),
              {"source": src, "generator": GEN, "kind": "hash", "hash": name, "keys": keys,
               "expect": vals})
    return notes


def gen_libmemcached():
    K = lambda n, seed: locate_keys(n, seed)
    ket = ["behavior DISTRIBUTION %d" % DIST["CONSISTENT_KETAMA"]]
    api_ket = ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION, "
               "MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA)"]

    # ---- profile libmemcached (unweighted consistent ketama)
    for hname in [None, "md5", "crc", "fnv1_64", "fnv1a_64", "fnv1_32", "fnv1a_32", "murmur",
                  "murmur3", "jenkins"]:
        hops, hapi = [], []
        if hname:
            hops = ["behavior HASH %d" % HID[hname]]
            hapi = ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, %s) (before adding "
                    "servers: the ring points are hashed with it too)" % MHASH[hname]]
        n = 2000 if hname is None else 1000
        lm_vector("libmemcached-ketama-mixed10%s.json" % ("-" + hname.replace("_", "-") if hname else ""),
                  "libmemcached", hname, MIXED10, ket + hops, False,
                  api_ket + hapi + [describe_adds(MIXED10, False)], K(n, "mixed10-" + str(hname)),
                  wrap_hash=HID[hname or "one_at_a_time"])
    for nm, servers, n in [("one", ONE, 500), ("two", TWO, 1000), ("hostnames", HOSTNAMES, 1500),
                           ("ipv6", IPV6, 1000), ("100", many(100, True), 2000)]:
        lm_vector("libmemcached-ketama-%s.json" % nm, "libmemcached", None, servers, ket, False,
                  api_ket + [describe_adds(servers, False)], K(n, "ket-" + nm),
                  wrap_hash=HID["one_at_a_time"])
    # MEMCACHED_DISTRIBUTION_CONSISTENT and BEHAVIOR_KETAMA=1 give the same ring
    lm_vector("libmemcached-consistent-mixed10.json", "libmemcached", None, MIXED10,
              ["behavior DISTRIBUTION %d" % DIST["CONSISTENT"]], False,
              ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION, "
               "MEMCACHED_DISTRIBUTION_CONSISTENT)", describe_adds(MIXED10, False)],
              K(800, "consistent"))
    lm_vector("libmemcached-behavior-ketama-hostnames.json", "libmemcached", None, HOSTNAMES,
              ["behavior KETAMA 1"], False,
              ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA, 1)",
               describe_adds(HOSTNAMES, False)], K(800, "behavior-ketama"))
    # > 100 servers: only the NDEBUG build can do it
    for n in (200, 250, 1000):
        servers = many(n, n == 250)
        lm_vector("libmemcached-ketama-%d.json" % n, "libmemcached", None, servers, ket, False,
                  api_ket + [describe_adds(servers, False)], K(2000, "ket-%d" % n),
                  wrap_hash=HID["one_at_a_time"], big=True)
    lm_vector("libmemcached-ketama-200-md5.json", "libmemcached", "md5", many(200), ket + ["behavior HASH 1"],
              False, api_ket + ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5) "
                                "before adding servers", describe_adds(many(200), False)],
              K(1000, "ket-200-md5"), big=True)

    # ---- profile libmemcached-weighted
    kw = ["behavior KETAMA_WEIGHTED 1"]
    api_kw = ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1) (sets key hash "
              "and distribution hash MD5, distribution CONSISTENT_WEIGHTED)"]
    counts = {}
    for n in (1, 2, 10, 25, 47, 50, 100):
        servers = many(n, n in (10, 47))
        info = lm_vector("libmemcached-weighted-equal-%d.json" % n, "libmemcached-weighted", None,
                         servers, kw, True, api_kw + [describe_adds(servers, True) + " (all weights 1)"],
                         K(1500 if n >= 10 else 600, "w-eq-%d" % n), wrap_hash=HID["md5"])
        counts[n] = info["points"]
    for n in (200, 1000):
        servers = many(n)
        info = lm_vector("libmemcached-weighted-equal-%d.json" % n, "libmemcached-weighted", None,
                         servers, kw, True, api_kw + [describe_adds(servers, True) + " (all weights 1)"],
                         K(2000, "w-eq-%d" % n), wrap_hash=HID["md5"], big=True)
        counts[n] = info["points"]
    eq100 = many(25)
    eq100 = [dict(s, weight=100) for s in eq100]
    lm_vector("libmemcached-weighted-equal-25-w100.json", "libmemcached-weighted", None, eq100, kw, True,
              api_kw + [describe_adds(eq100, True) + " (all weights 100)"], K(800, "w-eq25w100"))
    for nm, servers in [("skewed10", SKEW10), ("libketama8", LIBKETAMA8), ("weight0", WEIGHT0),
                        ("hostnames", HOSTW), ("ipv6", [dict(s, weight=i + 1) for i, s in enumerate(IPV6)])]:
        lm_vector("libmemcached-weighted-%s.json" % nm, "libmemcached-weighted", None, servers, kw, True,
                  api_kw + [describe_adds(servers, True)] +
                  (["weight 0 is stored as 1 by libmemcached"] if nm == "weight0" else []),
                  K(2000 if nm == "skewed10" else 1200, "w-" + nm), wrap_hash=HID["md5"])
    # key hash changed after KETAMA_WEIGHTED (ring stays md5)
    for hname in ("one_at_a_time", "crc", "fnv1a_32", "murmur3"):
        lm_vector("libmemcached-weighted-skewed10-%s.json" % hname.replace("_", "-"),
                  "libmemcached-weighted", hname, SKEW10, kw + ["behavior HASH %d" % HID[hname]], True,
                  api_kw + ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, %s) (changes only "
                            "the key hash; the weighted ring always hashes its points with md5)"
                            % MHASH[hname], describe_adds(SKEW10, True)],
                  K(1000, "w-skew-" + hname))
    # consistent (not weighted) + a weight > 1: libmemcached switches to md5 points with weights
    lm_vector("libmemcached-weighted-t3-hybrid.json", "libmemcached-weighted", "one_at_a_time", SKEW10,
              ket, True, api_ket + [describe_adds(SKEW10, True)], K(1500, "t3"), t3=True)
    lm_vector("libmemcached-weighted-200-skewed.json", "libmemcached-weighted", None,
              [dict(s, weight=1 + (i * 37) % 1000) for i, s in enumerate(many(200, True))], kw, True,
              api_kw + [describe_adds([], True)], K(1500, "w-200-skew"), big=True)

    # ---- profile libmemcached-spy
    spy = ["behavior DISTRIBUTION %d" % DIST["CONSISTENT_KETAMA_SPY"]]
    api_spy = ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_DISTRIBUTION, "
               "MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA_SPY)"]
    for hname, servers, nm, n in [(None, MIXED10, "mixed10", 1500), ("md5", MIXED10, "mixed10-md5", 1000),
                                  ("fnv1a_32", MIXED10, "mixed10-fnv1a-32", 800),
                                  (None, HOSTNAMES, "hostnames", 1000), (None, many(100, True), "100", 1500),
                                  (None, ONE, "one", 300)]:
        hops = ["behavior HASH %d" % HID[hname]] if hname else []
        hapi = ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, %s) before adding servers"
                % MHASH[hname]] if hname else []
        lm_vector("libmemcached-spy-%s.json" % nm, "libmemcached-spy", hname, servers, spy + hops, False,
                  api_spy + hapi + [describe_adds(servers, False)], K(n, "spy-" + nm),
                  wrap_hash=HID[hname or "one_at_a_time"])
    lm_vector("libmemcached-spy-200.json", "libmemcached-spy", None, many(200, True), spy, False,
              api_spy + [describe_adds([], False)], K(1500, "spy-200"), big=True)

    # ---- profile libmemcached-spy-weighted (KETAMA_WEIGHTED=1 first, then SPY keeps the flag)
    spyw = kw + spy
    api_spyw = api_kw + [api_spy[0] + " (afterwards: SPY keeps the weighted flag and md5; the "
                         "other order would end in CONSISTENT_WEIGHTED)"]
    for nm, servers, n in [("equal10", many(10, True), 1500), ("skewed10", SKEW10, 1500),
                           ("equal25", many(25), 1000), ("hostnames", HOSTW, 800)]:
        lm_vector("libmemcached-spy-weighted-%s.json" % nm, "libmemcached-spy-weighted", None, servers,
                  spyw, True, api_spyw + [describe_adds(servers, True)], K(n, "spyw-" + nm),
                  wrap_hash=HID["md5"])
    lm_vector("libmemcached-spy-weighted-skewed10-one-at-a-time.json", "libmemcached-spy-weighted",
              "one_at_a_time", SKEW10, spyw + ["behavior HASH 0"], True,
              api_spyw + ["memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_DEFAULT)",
                          describe_adds(SKEW10, True)], K(800, "spyw-oaat"))
    return counts


def gen_modula():
    mod = ["behavior DISTRIBUTION 0"]
    api = ["MEMCACHED_BEHAVIOR_DISTRIBUTION = MEMCACHED_DISTRIBUTION_MODULA (the default, set explicitly)"]
    for hname, servers, nm, n in [(None, MIXED10, "mixed10", 2000), ("crc", MIXED10, "mixed10-crc", 1000),
                                  ("md5", MIXED10, "mixed10-md5", 1000),
                                  ("fnv1a_32", MIXED10, "mixed10-fnv1a-32", 1000),
                                  ("murmur", MIXED10, "mixed10-murmur", 1000),
                                  ("fnv1_64", HOSTNAMES, "hostnames-fnv1-64", 600),
                                  (None, ONE, "one", 300), (None, many(3), "three", 800),
                                  (None, many(250, True), "250", 2000),
                                  ("crc", many(250, True), "250-crc", 1000),
                                  (None, SKEW10, "weighted-ignored", 800)]:
        hops = ["behavior HASH %d" % HID[hname]] if hname else []
        hapi = ["MEMCACHED_BEHAVIOR_HASH = %s" % MHASH[hname]] if hname else []
        weighted = nm == "weighted-ignored"
        lm_vector("modula-libmemcached-%s.json" % nm, "modula", hname, servers, mod + hops, weighted,
                  api + hapi + [describe_adds(servers, weighted) +
                                (" (modula ignores weights: hash % server count)" if weighted else "")],
                  locate_keys(n, "modula-" + nm))


PHP_SRC = ("php-memcached %s (Debian php8.2-memcached %s; built with libmemcached 1.0.18 headers, running "
           "on Debian's libmemcached11 %s), PHP %s CLI, x86_64. $m = new Memcached(); %s; "
           "$m->getServerByKey($key) -> host:port; null = getServerByKey returned false (empty key, "
           "key >= 251 bytes: MEMCACHED_BAD_KEY_PROVIDED). Nothing connects.")


def php_vector(name, profile, hash_name, servers, options, opt_desc, keys, add_desc, weight_arg=True, extra=""):
    pservers = [[s["host"], s["port"], s["weight"] if weight_arg else None] for s in servers]
    info, expect = php_locate(options, pservers, keys)
    calls = "; ".join(opt_desc + [add_desc])
    src = PHP_SRC % (V["php_memcached_upstream"], V["php8.2-memcached"], V["libmemcached11"], V["php"], calls)
    src += " Final getOption: OPT_DISTRIBUTION=%s, OPT_HASH=%s, OPT_LIBKETAMA_COMPATIBLE=%s." % (
        info["distribution"], info["hash"], info["libketama_compatible"]) + extra
    write(name, {"source": src, "generator": GEN, "kind": "locate", "profile": profile,
                 "hash": hash_name, "servers": servers, "keys": keys, "expect": expect})
    return expect


def gen_php():
    compat = [["OPT_LIBKETAMA_COMPATIBLE", True]]
    cdesc = ["$m->setOption(Memcached::OPT_LIBKETAMA_COMPATIBLE, true) (libmemcached "
             "MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED = 1: md5 key hash, weighted md5 ring)"]
    eq10 = many(10, True)
    keys10k = short_keys(10000, "php-10k")
    e = php_vector("php-memcached-ketama-equal10-10k.json", "php-memcached", None, eq10, compat, cdesc,
                   keys10k, "$m->addServer($host, $port, 1) for each server in file order")
    # the same set through the C library must agree (same library underneath)
    ops = ops_for(["behavior KETAMA_WEIGHTED 1"], eq10, True)
    _, c = lm_locate(ops, keys10k)
    assert c == e, "php-memcached and libmemcached disagree (equal10)"
    php_vector("php-memcached-ketama-skewed10.json", "php-memcached", None, SKEW10, compat, cdesc,
               locate_keys(3000, "php-skew"), "$m->addServer($host, $port, $weight) for each server in file order")
    php_vector("php-memcached-ketama-default-weight.json", "php-memcached", None, [dict(s, weight=1) for s in MIXED10],
               compat, cdesc, locate_keys(1500, "php-w0"),
               "$m->addServer($host, $port) for each server in file order (weight argument omitted: "
               "php-memcached passes 0, libmemcached stores 1; the vector lists weight 1)", weight_arg=False)
    php_vector("php-memcached-ketama-equal25.json", "php-memcached", None, many(25), compat, cdesc,
               locate_keys(1000, "php-eq25"), "$m->addServer($host, $port, 1) for each server in file order")
    php_vector("php-memcached-ketama-hostnames.json", "php-memcached", None, HOSTW, compat, cdesc,
               locate_keys(1000, "php-host"), "$m->addServer($host, $port, $weight) for each server in file order")
    php_vector("php-memcached-ketama-skewed10-hash-crc.json", "php-memcached", "crc", SKEW10,
               compat + [["OPT_HASH", "HASH_CRC"]],
               cdesc + ["$m->setOption(Memcached::OPT_HASH, Memcached::HASH_CRC) (key hash only)"],
               locate_keys(600, "php-crc"), "$m->addServer($host, $port, $weight) for each server in file order",
               extra=" The 15-bit crc keeps every key hash below 32768.")
    # default options: modula + one_at_a_time
    php_vector("php-memcached-default-modula.json", "modula", "one_at_a_time", MIXED10, [],
               ["no setOption (defaults: OPT_DISTRIBUTION = DISTRIBUTION_MODULA, OPT_HASH = HASH_DEFAULT)"],
               locate_keys(2000, "php-modula"), "$m->addServer($host, $port) for each server in file order",
               weight_arg=False)
    php_vector("php-memcached-modula-md5.json", "modula", "md5", many(7), [["OPT_HASH", "HASH_MD5"]],
               ["$m->setOption(Memcached::OPT_HASH, Memcached::HASH_MD5)"],
               locate_keys(800, "php-modula-md5"), "$m->addServer($host, $port) for each server in file order",
               weight_arg=False)
    # consistent without weights (OPT_DISTRIBUTION = DISTRIBUTION_CONSISTENT): = profile libmemcached
    php_vector("php-memcached-consistent-mixed10.json", "libmemcached", None, MIXED10,
               [["OPT_DISTRIBUTION", "DISTRIBUTION_CONSISTENT"]],
               ["$m->setOption(Memcached::OPT_DISTRIBUTION, Memcached::DISTRIBUTION_CONSISTENT) (libmemcached "
                "MEMCACHED_DISTRIBUTION_CONSISTENT, unweighted ring hashed with one_at_a_time)"],
               locate_keys(1000, "php-consistent"), "$m->addServer($host, $port) for each server in file order",
               weight_arg=False)


def gen_php_prefix():
    """php-memcached OPT_PREFIX_KEY with and without OPT_HASH_WITH_PREFIX_KEY."""
    compat = [["OPT_LIBKETAMA_COMPATIBLE", True]]
    cdesc = ["$m->setOption(Memcached::OPT_LIBKETAMA_COMPATIBLE, true)"]

    def pre(prefix, hwp):
        opts, desc, obj = [], [], {}
        if prefix is not None:
            opts.append(["OPT_PREFIX_KEY", {"hex": prefix.encode().hex()}])
            desc.append("$m->setOption(Memcached::OPT_PREFIX_KEY, %s)" % json.dumps(prefix))
            obj["prefix_key"] = prefix
        if hwp is not None:
            opts.append(["OPT_HASH_WITH_PREFIX_KEY", hwp])
            desc.append("$m->setOption(Memcached::OPT_HASH_WITH_PREFIX_KEY, %s)" % json.dumps(hwp))
            obj["hash_with_prefix"] = hwp
        return opts, desc, obj

    note = (" OPT_PREFIX_KEY is libmemcached's namespace (MEMCACHED_CALLBACK_PREFIX_KEY) and "
            "OPT_HASH_WITH_PREFIX_KEY its MEMCACHED_BEHAVIOR_HASH_WITH_PREFIX_KEY. The key given "
            "to getServerByKey is refused when empty or >= 251 bytes (the prefix is not counted).")
    adds = "$m->addServer($host, $port, $weight) for each server in file order"
    plain = "$m->addServer($host, $port) for each server in file order"
    cases = [
        ("php-memcached-prefix-ketama-skewed10.json", "php-memcached", None, SKEW10, "p:", None,
         compat, cdesc, adds, True),
        ("php-memcached-prefix-hashed-ketama-skewed10.json", "php-memcached", None, SKEW10, "p:",
         True, compat, cdesc, adds, True),
        ("php-memcached-prefix-hashed-ketama-equal25.json", "php-memcached", None, many(25),
         "app1_cache:", True, compat, cdesc, adds, True),
        ("php-memcached-prefix-unhashed-explicit-ketama-mixed10.json", "php-memcached", None,
         [dict(s, weight=1) for s in MIXED10], "p:", False, compat, cdesc, plain, False),
        ("php-memcached-hash-with-prefix-only-ketama-mixed10.json", "php-memcached", None,
         [dict(s, weight=1) for s in MIXED10], None, True, compat, cdesc, plain, False),
        ("php-memcached-prefix-127-hashed-ketama-mixed10.json", "php-memcached", None,
         [dict(s, weight=1) for s in MIXED10], "q" * 126 + ":", True, compat, cdesc, plain, False),
        ("php-memcached-prefix-hashed-modula.json", "modula", "one_at_a_time", MIXED10, "p:", True,
         [], ["no distribution option (default DISTRIBUTION_MODULA, HASH_DEFAULT)"], plain, False),
        ("php-memcached-prefix-modula.json", "modula", "one_at_a_time", MIXED10, "p:", None,
         [], ["no distribution option (default DISTRIBUTION_MODULA, HASH_DEFAULT)"], plain, False),
        ("php-memcached-prefix-hashed-consistent-mixed10.json", "libmemcached", None, MIXED10,
         "ns/", True, [["OPT_DISTRIBUTION", "DISTRIBUTION_CONSISTENT"]],
         ["$m->setOption(Memcached::OPT_DISTRIBUTION, Memcached::DISTRIBUTION_CONSISTENT)"],
         plain, False),
        ("php-memcached-prefix-hashed-one.json", "php-memcached", None, ONE, "p:", True, compat,
         cdesc, adds, True),
    ]
    for name, profile, hname, servers, prefix, hwp, base, bdesc, add_desc, warg in cases:
        opts, desc, obj = pre(prefix, hwp)
        keys = prefix_keys(600, name, len(prefix or ""))
        pservers = [[s["host"], s["port"], s["weight"] if warg else None] for s in servers]
        info, expect = php_locate(base + opts, pservers, keys)
        if info["prefix_key_hex"] != (prefix or "").encode().hex():
            sys.exit("%s: the prefix was not set: %r" % (name, info))
        calls = "; ".join(bdesc + desc + [add_desc])
        src = PHP_SRC % (V["php_memcached_upstream"], V["php8.2-memcached"], V["libmemcached11"],
                         V["php"], calls)
        src += (" Final getOption: OPT_DISTRIBUTION=%s, OPT_HASH=%s, OPT_LIBKETAMA_COMPATIBLE=%s, "
                "OPT_PREFIX_KEY=%s, OPT_HASH_WITH_PREFIX_KEY=%s." % (
                    info["distribution"], info["hash"], info["libketama_compatible"],
                    json.dumps(prefix or ""), info["hash_with_prefix_key"])) + note
        os.makedirs(os.path.join(OUT, "options"), exist_ok=True)
        write(os.path.join("options", name), {"source": src, "generator": GEN, "kind": "locate",
                     "profile": profile, "hash": hname, "options": obj, "servers": servers, "keys": keys,
                     "expect": expect})

    # which prefixes setOption(OPT_PREFIX_KEY) takes, text and binary protocol
    tries = ["p:", "app1_cache:", "a", "~!@#$%^&*()_+{}|<>?", "x" * 126, "x" * 127, "x" * 128,
             "x" * 200, "x" * 250, "x" * 251, "x" * 300, "a b", "a\tb", "a\nb", "p\x00q", "\x00",
             "\x7f", "\x01", "é", "pré:", "日本:", ""]
    lines = "".join(json.dumps({"prefix_hex": t.encode().hex(), "binary": b}) + "\n"
                    for b in (False, True) for t in tries)
    out = run(["php", os.path.join(HERE, "php_prefix_rules.php")], lines)
    rules = []
    for (b, t), line in zip([(b, t) for b in (False, True) for t in tries], out):
        r = json.loads(line)
        rules.append({"value": t, "binary": b, "set": r["set"], "result": r["result"],
                      "prefix_after": bytes.fromhex(r["prefix_hex"]).decode("utf-8", "replace")})
    assert len(rules) == 2 * len(tries)
    os.makedirs(os.path.join(OUT, "extra"), exist_ok=True)
    src = ("php-memcached %s (Debian php8.2-memcached %s, on Debian's libmemcached11 %s), PHP %s CLI: "
           "per case a fresh $m = new Memcached() (binary: $m->setOption(Memcached::OPT_BINARY_PROTOCOL, "
           "true) first), then $m->setOption(Memcached::OPT_PREFIX_KEY, value); set = its return value, "
           "result = $m->getResultMessage(), prefix_after = $m->getOption(Memcached::OPT_PREFIX_KEY). "
           "Nothing connects." % (V["php_memcached_upstream"], V["php8.2-memcached"],
                                   V["libmemcached11"], V["php"]))
    write(os.path.join("extra", "php-memcached-prefix-rules.json"),
          {"source": src, "generator": GEN, "kind": "option-rules", "profile": "php-memcached",
           "option": "prefix_key", "cases": rules})


def main():
    os.makedirs(OUT, exist_ok=True)
    if sys.argv[1:] == ["--only", "php-prefix"]:
        gen_php_prefix()
        return
    notes = gen_hash()
    counts = gen_libmemcached()
    gen_modula()
    gen_php()
    gen_php_prefix()
    print("weighted equal-weight point counts:", counts)
    print("notes:", notes)


if __name__ == "__main__":
    main()
