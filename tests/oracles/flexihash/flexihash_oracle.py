"""Write tests/vectors/flexihash-seed-*.json (run: the user's FlexiHash class under php8.2-cli)
and tests/vectors/flexihash-upstream-*.json (transcribed from pda/flexihash, NOT run).

Called by tests/oracles/flexihash/generate.sh.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import vectorlib as V  # noqa: E402

GEN = "tests/oracles/flexihash/generate.sh"
PHP = os.environ.get("PHP", "php8.2")


def php_version():
    v = subprocess.run([PHP, "-r", "echo PHP_VERSION;"], capture_output=True, text=True,
                       check=True).stdout.strip()
    try:
        deb = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "php8.2-cli"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return "PHP %s (Debian php8.2-cli %s)" % (v, deb)
    except (OSError, subprocess.CalledProcessError):
        return "PHP %s" % v


def run(job):
    out = subprocess.run([PHP, os.path.join(HERE, "seed_driver.php")], input=json.dumps(job),
                         capture_output=True, text=True, check=True, encoding="utf-8")
    return json.loads(out.stdout)


def seed_vectors(keys, php):
    base = ("the user's FlexiHash class from shared/seeds/002_260807e5c3b111e9.txt, copied to "
            "tests/oracles/flexihash/SeedFlexiHash.php with the one PHP 8 fix $md5{$i} -> "
            "$md5[$i], run with %s" % php)
    coll = run({"mode": "collision", "prefix": "10.9.", "port": 11211})
    a, b = coll["pair"]
    collision = [V.server("10.9.0.39", 11211), V.server("10.0.0.2", 11211),
                 V.server("10.9.0.58", 11211), V.server("10.0.0.3", 11211)]
    assert [collision[0]["label"], collision[2]["label"]] == [a, b], coll
    sets = [
        ("one", V.set_one(), ""),
        ("two", V.set_two(), ""),
        ("three", V.set_three(), ""),
        ("ten-mixed", V.set_ten_mixed(), ""),
        ("hundred", V.set_equal(100, base="10.1", port_cycle=3), ""),
        ("collision", collision,
         "; %s and %s have the same toHash (%d): the first one added keeps the point, the "
         "other gets no keys" % (a, b, coll["hash"])),
    ]
    for name, servers, extra in sets:
        r = run({"mode": "lookup", "servers": [s["label"] for s in servers], "keys": keys})
        source = ("%s: $fh = new FlexiHash(); $fh->addServer(label) for each server in file "
                  "order; expect = $fh->lookup(key) (PHP null -> JSON null: keys below the "
                  "smallest point read the missing index count-1)%s" % (base, extra))
        V.write_vector("flexihash-seed-%s.json" % name, source, GEN, keys, r["expect"],
                       profile="flexihash-seed", hash_name=None, servers=servers)
    r = run({"mode": "hash", "keys": keys})
    V.write_vector("flexihash-seed-tohash.json",
                   "%s: expect = (new FlexiHash())->toHash(key)" % base, GEN, keys,
                   r["expect"], hash_name="seed_tohash", kind="hash")


def upstream_vectors():
    """Transcribed by hand from pda/flexihash's README.md usage example; never run here."""
    def target(name):
        return {"host": name, "port": 11211, "weight": 1, "label": name}

    src = ("pda/flexihash (3.x; README.md usage example of the stored upstream version at commit "
           "0c1b1d91272dbbf234dbd35b8a353d13986037de, which tells users to require ^3.0.0). "
           "TRANSCRIBED from the README's comments, NOT run: flexihash is in no registry this "
           "project reaches. Upstream's tests (tests/FlexihashTest.php, tests/Hasher/"
           "HasherTest.php, tests/BenchmarkTest.php) assert no concrete lookup with a real "
           "hasher (only MockHasher rings, repeatability and membership), so this README "
           "example is the only concrete upstream data. Targets are the bare strings shown "
           "(label = target; host/port are placeholders, flexihash hashes the label). ")
    V.write_vector(
        "flexihash-upstream-readme-lookup.json",
        src + "$hash = new Flexihash(); $hash->addTargets(['cache-1', 'cache-2', 'cache-3']); "
        "$hash->lookup('object-a') // \"cache-1\"; $hash->lookup('object-b') // \"cache-2\"",
        GEN, ["object-a", "object-b"], ["cache-1", "cache-2"], profile="flexihash",
        hash_name=None, servers=[target("cache-1"), target("cache-2"), target("cache-3")])
    V.write_vector(
        "flexihash-upstream-readme-lookuplist.json",
        src + "Continuing the same object: ->addTarget('cache-4')->removeTarget('cache-1'); "
        "$hash->lookupList('object', 2) // [\"cache-2\", \"cache-4\"]. Recorded as a fresh build "
        "of the remaining targets in insertion order (equivalent unless point values collide, "
        "as removeTarget also unsets positions another target had won)",
        GEN, ["object"], [["cache-2", "cache-4"]], profile="flexihash", hash_name=None,
        servers=[target("cache-2"), target("cache-3"), target("cache-4")], kind="sequence", n=2)
    V.write_vector(
        "flexihash-upstream-readme-after-remove.json",
        src + "Continuing: $hash->removeTarget('cache-2'); $hash->lookup('object') // "
        "\"cache-4\". Recorded as a fresh build of the remaining targets (see lookuplist file)",
        GEN, ["object"], ["cache-4"], profile="flexihash", hash_name=None,
        servers=[target("cache-3"), target("cache-4")])


def main():
    keys = V.standard_keys()
    seed_vectors(keys, php_version())
    upstream_vectors()


if __name__ == "__main__":
    main()
