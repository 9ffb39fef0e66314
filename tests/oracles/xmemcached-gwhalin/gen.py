"""Writes tests/vectors/pending/xmemcached-gwhalin-*.json from the real xmemcached (README.md)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

VERSION = sys.argv[1]
CMD = sys.argv[2:]
GEN = "tests/oracles/xmemcached-gwhalin/gen.py"
SOURCE = ("xmemcached %s (Maven Central, OpenJDK 17): new KetamaMemcachedSessionLocator(KETAMA_HASH, "
          "false, true).updateSessions(sessions) then getSessionByKey(key); sessions hold "
          "InetSocketAddressWrapper(new InetSocketAddress(ip, port) | createUnresolved(name, port), "
          "order, weight); pool size 1")

V = F.vectorlib
SETS = {
    "one": [F.server("10.0.0.1", 11211)],
    "two": V.set_two(),
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "ipv6": F.ipv6_set(),
    "skewed": V.set_skewed(),
    "weighted": F.weighted_set(),
    "two-hundred-fifty": V.set_equal(250, base="10.7"),
}


def kind(host):
    parts = host.split(".")
    if ":" in host or (len(parts) == 4 and all(p.isdigit() for p in parts)):
        return "ip"
    return "name"


def main():
    keys = F.keys()
    names = list(SETS)
    jobs = [{"servers": [[kind(s["host"]), s["host"], s["port"], s["weight"]] for s in SETS[n]],
             "keys": keys} for n in names]
    res = F.run_line_driver(CMD, jobs)
    for n, r in zip(names, res):
        labels = [SETS[n][int(i)]["label"] if i is not None else None for i in r]
        F.write("xmemcached-gwhalin-%s.json" % n, SOURCE % VERSION, GEN, "xmemcached-gwhalin",
                SETS[n], keys, labels)


if __name__ == "__main__":
    main()
