"""Writes tests/vectors/memcached-proxy*.json from the harness (see generate.sh)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

HARNESS, TAG, COMMIT, LUAV = sys.argv[1:5]
GEN = "tests/oracles/memcached-proxy/gen.py"
V = F.vectorlib
SETS = {
    "one": V.set_one(),
    "two": V.set_two(),
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "sixty-one": V.set_equal(61, base="10.8"),
    "two-hundred-fifty": V.set_equal(250, base="10.7", port_cycle=3),
}
MODES = [  # profile, dist mode, key hash, what the config says
    ("memcached-proxy", "jump", "xxh3", "mcp.pool(backends) (default dist_jump_hash, key hasher "
     "XXH3_64bits_withSeed, seed 0)"),
    ("memcached-proxy-ring", "default", "xxh3", "mcp.pool(backends, {dist = mcp.dist_ring_hash, "
     "omode = \"default\"}) (160 XXH3 points of addr:port-k; key hasher XXH3_64bits_withSeed)"),
    ("memcached-proxy-ring-ketama", "ketama", "xxh3", "mcp.pool(backends, {dist = "
     "mcp.dist_ring_hash, omode = \"ketama\"}) (40 md5 digests x 4 of addr:port-k; the pool's key "
     "hasher stays XXH3_64bits_withSeed)"),
    ("memcached-proxy-ring-twemproxy", "twemproxy", "xxh3", "mcp.pool(backends, {dist = "
     "mcp.dist_ring_hash, omode = \"twemproxy\"}) (40 md5 digests x 4 of addr-k for port 11211, "
     "else addr:port-k; key hasher XXH3)"),
    ("memcached-proxy-ring-evcache", "evcache", "xxh3", "mcp.pool(backends, {dist = "
     "mcp.dist_ring_hash, omode = \"evcache\"}) (40 md5 digests x 4 of addr/addr:port-k; key "
     "hasher XXH3)"),
]
MD5_MODES = [("memcached-proxy-ring-ketama", "ketama"), ("memcached-proxy-ring-twemproxy", "twemproxy"),
             ("memcached-proxy-ring-evcache", "evcache")]


def run(jobs):
    lines = []
    for mode, hash_, servers, keys in jobs:
        lines.append("J %s %s" % (mode, hash_))
        for s in servers:
            lines.append("S %s %d" % (s["host"], s["port"]))
        for k in keys:
            lines.append("K " + k.encode("utf-8").hex())
        lines.append("E")
    out = subprocess.run([HARNESS], input=("\n".join(lines) + "\n").encode(), check=True,
                         stdout=subprocess.PIPE).stdout.decode().split("\n")
    res, cur = [], None
    for line in out:
        if line == "R":
            cur = []
        elif line == "D":
            res.append(cur)
        elif cur is not None and line:
            cur.append(int(line))
    assert len(res) == len(jobs)
    return res


def main():
    keys = [k for k in F.keys() if "\x00" not in k]
    jobs, meta = [], []
    for profile, mode, hash_, about in MODES:
        for name, servers in SETS.items():
            jobs.append((mode, hash_, servers, keys))
            meta.append(("%s-%s.json" % (profile, name), profile, None, about, servers))
    for profile, mode in MD5_MODES:
        for name in ("ten-mixed", "two-hundred-fifty"):
            servers = SETS[name]
            jobs.append((mode, "md5", servers, keys))
            meta.append(("%s-md5-%s.json" % (profile, name), profile, "md5",
                         "mcp.pool(backends, {dist = mcp.dist_ring_hash, omode = \"%s\", hash = "
                         "mcp.dist_ring_hash.hash}) (key hash: md5, low word)" % mode, servers))
    for (fname, profile, hname, about, servers), r in zip(meta, run(jobs)):
        expect = [servers[i]["label"] if i < len(servers) else None for i in r]
        src = ("memcached %s (commit %s) proxy hashing code: proxy_ring_hash.c, "
               "proxy_jump_hash.c, proxy_xxhash.c, md5.c, xxhash.h compiled alone with the "
               "oracle's harness against Debian Lua 5.4 (%s), called as mcp.pool does: %s; "
               "backends {id = i, addr = host, port = port} in file order; expect = the backend "
               "at the selector's position; keys with NUL bytes left out" % (TAG, COMMIT, LUAV, about))
        V.write_vector(fname, src, GEN, keys, expect, profile=profile, hash_name=hname,
                       servers=servers)


if __name__ == "__main__":
    main()
