"""Drive the real uhashring (PyPI) and write tests/vectors/uhashring-*.json.

Run by tests/oracles/python/generate.sh inside the venv tests/oracles/.cache/venv-uhashring.
"""

import os
import sys
from importlib.metadata import version

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectorlib as V  # noqa: E402

from uhashring import HashRing  # noqa: E402

GEN = "tests/oracles/python/generate.sh"
UHR = version("uhashring")
PY = sys.version.split()[0]


def nodes_conf(servers):
    # dict insertion order = file order; the dict key (label) is what uhashring hashes
    return {s["label"]: {"hostname": s["host"], "port": s["port"], "weight": s["weight"]}
            for s in servers}


def build(servers, ketama):
    if ketama:
        return HashRing(nodes=nodes_conf(servers), hash_fn="ketama")
    return HashRing(nodes=nodes_conf(servers))


def lookups(ring, keys):
    return [ring.get_node(k) for k in keys]


def src(ketama, extra=""):
    if ketama:
        call = ('HashRing(nodes={label: {"hostname": host, "port": port, "weight": w}}, '
                'hash_fn="ketama") (KetamaRing: vnodes 40, replicas 4)')
    else:
        call = ('HashRing(nodes={label: {"hostname": host, "port": port, "weight": w}}) '
                '(MetaRing, default md5 128-bit hash_fn, vnodes 160)')
    return ("uhashring %s (PyPI uhashring==%s, CPython %s): %s, nodes dict in file order; "
            "expect = ring.get_node(key) with key the Python str%s" % (UHR, UHR, PY, call, extra))


def main():
    keys = V.standard_keys()
    sets = [
        ("one", V.set_one()),
        ("two", V.set_two()),
        ("ten-mixed", V.set_ten_mixed()),
        ("hundred", V.set_equal(100, base="10.1", port_cycle=3)),
        ("two-hundred-fifty", V.set_equal(250, base="10.2")),
        ("thousand", V.set_equal(1000, base="10.3", port_cycle=4)),
        ("skewed", V.set_skewed()),
        ("libketama-weights", V.set_libketama_weights()),
        ("three-weighted", V.set_three_weighted()),
    ]
    for ketama in (False, True):
        profile = "uhashring-ketama" if ketama else "uhashring"
        for name, servers in sets:
            if not ketama and name == "libketama-weights":
                continue  # 160 x w points: 4,300 x 160 = 688k points, skewed already covers it
            ring = build(servers, ketama)
            V.write_vector("%s-%s.json" % (profile, name), src(ketama), GEN, keys,
                           lookups(ring, keys), profile=profile, hash_name=None,
                           servers=servers)
        if ketama:
            # equal weights, n = 200 (a count where float32 formulas give 156 points)
            servers = V.set_equal(200, base="10.5", port=11211)
            V.write_vector("%s-two-hundred.json" % profile, src(ketama), GEN, keys,
                           lookups(build(servers, ketama), keys), profile=profile,
                           hash_name=None, servers=servers)

        # remove_node / add_node sequence: start from ten-mixed, remove the 4th server, add a
        # new one.  Recorded only if the ring then answers exactly like a fresh build of the
        # final node set (in the ring's final dict order), which the servers list gives.
        start = V.set_ten_mixed()
        ring = build(start, ketama)
        removed = start[3]
        ring.remove_node(removed["label"])
        added = V.server("10.0.1.99", 11500, 2)
        ring.add_node(added["label"], {"hostname": added["host"], "port": added["port"],
                                       "weight": added["weight"]})
        final = [s for s in start if s is not removed] + [added]
        assert list(ring.get_nodes()) == [s["label"] for s in final]
        got = lookups(ring, keys)
        fresh = lookups(build(final, ketama), keys)
        if got == fresh:
            extra = ("; ring built from the 10 servers of %s-ten-mixed.json, then "
                     "remove_node(%r), then add_node(%r, {\"hostname\": %r, \"port\": %d, "
                     "\"weight\": %d}); servers = the resulting node set, which gave the same "
                     "answer as a fresh build on every key" % (
                         profile, removed["label"], added["label"], added["host"],
                         added["port"], added["weight"]))
            V.write_vector("%s-remove-add.json" % profile, src(ketama, extra), GEN, keys, got,
                           profile=profile, hash_name=None, servers=final)
        else:
            diff = sum(1 for a, b in zip(got, fresh) if a != b)
            print("SKIP %s-remove-add: %d keys differ from a fresh build" % (profile, diff))


if __name__ == "__main__":
    main()
