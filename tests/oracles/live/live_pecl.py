"""The pecl memcache oracle: each vector's keys stored through the real client (pecl.php),
then found on the daemons. Used by live.py."""

import json
import os
import subprocess
import sys

from live_common import (
    HERE,
    LOCALHOST,
    SAME_HOST,
    cmd_version,
    dpkg_version,
    locate_stored,
    make_keys,
    pecl_wire_key,
    server_objs,
    skewed,
    write_vector,
)


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
