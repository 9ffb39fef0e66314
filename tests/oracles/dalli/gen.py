"""Writes tests/vectors/pending/dalli-*.json from the real Dalli (see README.md)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

VERSION = sys.argv[1]
RUBY = sys.argv[2]
GEN = "tests/oracles/dalli/gen.py"
SOURCE = ("Dalli %s (Debian ruby-dalli %s, %s): Dalli::Client.new(['host:port:weight', ...]) "
          "then client.ring.server_for_key(KeyManager#validate_key(key)) as Client#perform does; "
          "no namespace; null = key refused (blank)")

V = F.vectorlib
SETS = {
    "one": [F.server("10.0.0.1", 11211)],
    "one-weighted": [F.server("10.0.0.9", 11299, 7)],
    "two": V.set_two(),
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "ipv6": F.ipv6_set(),
    "skewed": V.set_skewed(),
    "weighted": F.weighted_set(),
    "libketama-weights": V.set_libketama_weights(),
    "three-weighted": V.set_three_weighted(),
    "two-hundred-fifty": V.set_equal(250, base="10.7"),
}


def server_string(s):
    host = "[%s]" % s["host"] if ":" in s["host"] else s["host"]
    return "%s:%d:%d" % (host, s["port"], s["weight"])


def main():
    keys = F.keys()
    names = list(SETS)
    jobs = [{"servers": [server_string(s) for s in SETS[n]], "keys": keys} for n in names]
    res = F.run_driver(["ruby", os.path.join(HERE, "driver.rb")], jobs)
    for n, r in zip(names, res):
        labels = [SETS[n][i]["label"] if i is not None else None for i in r]
        F.write("dalli-%s.json" % n, SOURCE % (VERSION[0], VERSION[1], RUBY), GEN, "dalli",
                SETS[n], keys, labels)


if __name__ == "__main__":
    VERSION = VERSION.split("/")
    main()
