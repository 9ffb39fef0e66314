"""Writes tests/vectors/phpredis-array-*.json and phpredis-array-consistent-*.json from the
real phpredis RedisArray (driver.php; see README.md).
Usage: python3 gen.py PHPREDIS_VERSION DEBIAN_VERSION PHP_VERSION"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import shard_inputs as S  # noqa: E402

GEN = "tests/oracles/phpredis/gen.py"
MODES = {
    "phpredis-array": (False, "['lazy_connect' => true]"),
    "phpredis-array-consistent": (True, "['lazy_connect' => true, 'consistent' => true]"),
}
SOURCE = ("phpredis %s RedisArray (Debian php8.2-redis %s, %s): new RedisArray(['host:port', "
          "...], %s) with the files' labels as the host strings ('[v6]:port' for IPv6), no "
          "function/distributor/algorithm/previous option, redis.arrays.* INI empty; expect = "
          "the host $ra->_target($key) returns (ra_find_node, the node of every single-key "
          "command); key tags always on (only a 'function' extractor option replaces them; none "
          "given); nothing connects (lazy_connect)")


def sets():
    full, small = S.keys_full(), S.keys_small()
    return [
        ("one", [S.server("10.0.0.1", 6379)], full),
        ("two", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379)], full),
        ("three", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379),
                   S.server("10.0.0.3", 6379)], small),
        ("ten-mixed", S.ten_mixed(), full),
        ("hundred-fifty", S.many(150), full),
        ("hostnames", S.hostnames(), small),
        ("ipv6", S.ipv6(), small),
        ("same-host", S.same_host(), small),
    ]


def main():
    version, deb, php = sys.argv[1:4]
    todo = sets()
    for profile, (consistent, how) in MODES.items():
        jobs = [{"consistent": consistent, "hosts": [s["label"] for s in servers], "keys": keys}
                for _, servers, keys in todo]
        res = S.run_driver(["php", os.path.join(HERE, "driver.php")], jobs)
        for (name, servers, keys), r in zip(todo, res):
            assert None not in r, (profile, name)
            expect = [servers[i]["label"] for i in r]
            S.write("%s-%s.json" % (profile, name), SOURCE % (version, deb, php, how), GEN,
                    profile, servers, keys, expect)


if __name__ == "__main__":
    main()
