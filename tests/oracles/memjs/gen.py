"""Writes tests/vectors/pending/memjs-*.json from the real npm memjs (see README.md)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

VERSION = sys.argv[1]
NODE_PATH = sys.argv[2]
GEN = "tests/oracles/memjs/gen.py"
SOURCE = ("npm memjs %s (node %s): memjs.Client.create(servers.join(',')) then "
          "Client#server(key).host + ':' + port; weights are not supported (all 1)")

SETS = {
    "one": [F.server("10.0.0.1", 11211)],
    "two": F.vectorlib.set_two(),
    "ten-mixed": F.vectorlib.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "two-hundred-fifty": F.vectorlib.set_equal(250, base="10.7"),
    "seven": F.vectorlib.set_equal(7, base="10.8", port_cycle=3),
}


def main():
    keys = F.keys()
    names = list(SETS)
    jobs = [{"servers": ["%s:%d" % (s["host"], s["port"]) for s in SETS[n]], "keys": keys}
            for n in names]
    res = F.run_driver(["node", os.path.join(HERE, "driver.js")], jobs,
                       cwd=NODE_PATH)
    node_v = os.popen("node --version").read().strip()
    for n, r in zip(names, res):
        F.write("memjs-%s.json" % n, SOURCE % (VERSION, node_v), GEN, "memjs", SETS[n], keys, r)


if __name__ == "__main__":
    main()
