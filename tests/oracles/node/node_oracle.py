"""Write tests/vectors/node-hashring-*.json and hash_ring-*.json from the real npm hashring.

Called by tests/oracles/node/generate.sh (needs HASHRING_MODULES = a node_modules dir holding
hashring@3.2.0). Every expect value is printed by driver.js, which runs the real module.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import vectorlib as V  # noqa: E402

GEN = "tests/oracles/node/generate.sh"
NODE_VERSION = subprocess.run(["node", "--version"], capture_output=True, text=True,
                              check=True).stdout.strip()


def run(servers, keys, options, algorithm="md5"):
    job = {"servers": [{"label": s["label"], "weight": s["weight"]} for s in servers],
           "algorithm": algorithm, "options": options, "keys": keys}
    out = subprocess.run(["node", os.path.join(HERE, "driver.js")], input=json.dumps(job),
                         capture_output=True, text=True, check=True, encoding="utf-8")
    return json.loads(out.stdout)


def src_node(r, options_text, extra=""):
    return ("npm hashring %s (node-hashring, deps %s; Node.js %s): new HashRing({label: {weight: w}, ...}, 'md5', %s) with the "
            "servers object in file order; expect = ring.get(key) (undefined -> null)%s"
            % (r["version"], r["deps"], NODE_VERSION, options_text, extra))


def main():
    keys = V.standard_keys()
    small_keys = V.standard_keys(random_count=600)

    # ---------------- node-hashring ----------------
    sets = [
        ("one", V.set_one(), keys),
        ("two", V.set_two(), keys),
        ("ten-mixed", V.set_ten_mixed(), keys),
        ("hundred", V.set_equal(100, base="10.1", port_cycle=3), keys),
        ("two-hundred", V.set_equal(200, base="10.5"), keys),
        ("two-hundred-fifty", V.set_equal(250, base="10.2"), keys),
        ("thousand", V.set_equal(1000, base="10.3", port_cycle=4), keys),
        ("skewed", V.set_skewed(), keys),
        ("libketama-weights", V.set_libketama_weights(), keys),
        ("three-weighted", V.set_three_weighted(), keys),
    ]
    # equal-weight counts where ND gives 39 digests (156 points) instead of 40
    for n in (7, 14, 28, 49, 56):
        sets.append(("equal-%d" % n, V.set_equal(n, base="10.6", port_cycle=2), small_keys))
    # weight 0: connection-parse turns a falsy weight into 1
    zero = [V.server("10.7.0.1", 11211, 0), V.server("10.7.0.2", 11211, 1),
            V.server("10.7.0.3", 11211, 2)]
    sets.append(("weight-zero", zero, small_keys))
    for name, servers, ks in sets:
        r = run(servers, ks, {})
        extra = "; points per server on the real ring: %s" % ", ".join(
            "%d" % r["points"].get(s["label"], 0) for s in servers) if len(servers) <= 10 else ""
        if name == "weight-zero":
            extra += ("; weight 0 is given to the client as {weight: 0}, which connection-parse "
                      "turns into weight 1 (`+value.weight || 1`)")
        if r["exact_hits"]:
            extra += "; %d keys hash exactly onto a point" % r["exact_hits"]
        V.write_vector("node-hashring-%s.json" % name, src_node(r, "{}", extra), GEN,
                       ks, r["expect"], profile="node-hashring", hash_name=None,
                       servers=servers)

    # option 'default port': servers on that port hash "host-i": expressed with "name" = host
    servers = V.set_ten_mixed()
    r = run(servers, keys, {"default port": 11211})
    named = []
    for s in servers:
        s = dict(s)
        if s["port"] == 11211:
            s["name"] = s["host"]
        named.append(s)
    V.write_vector("node-hashring-default-port.json",
                   src_node(r, "{'default port': 11211}",
                            "; with that option servers on port 11211 hash 'host-i' instead of "
                            "'host:port-i', written here as \"name\" = host for those servers"),
                   GEN, keys, r["expect"], profile="node-hashring", hash_name=None,
                   servers=named)

    # ---------------- hash_ring (through node-hashring's compatibility mode) ----------------
    hr_sets = [
        ("one", V.set_one()),
        ("two", V.set_two()),
        ("ten-mixed", V.set_ten_mixed()),
        ("hundred", V.set_equal(100, base="10.1", port_cycle=3)),
        ("two-hundred-fifty", V.set_equal(250, base="10.2")),
        ("skewed", V.set_skewed()),
        ("libketama-weights", V.set_libketama_weights()),
    ]
    for name, servers in hr_sets:
        r = run(servers, keys, {"compatibility": "hash_ring"})
        n = len(servers)
        total = sum(s["weight"] for s in servers)
        # hash_ring 1.3.1 takes (40*n*w) div W digests (Python 2 integer division), 3 points
        # each; node-hashring takes floor(w/W*40*n) in doubles. Only sets where the real ring's
        # point counts equal 3 x the integer formula are recorded, and only if no key hashes
        # exactly onto a point (hash_ring: first point > h, later node wins; node-hashring:
        # first point >= h, earlier node wins).
        ok = all(r["points"].get(s["label"], 0) == 3 * ((40 * n * s["weight"]) // total)
                 for s in servers)
        if not ok or r["exact_hits"]:
            print("SKIP hash_ring-%s: point counts differ from hash_ring's or exact hits (%d)"
                  % (name, r["exact_hits"]))
            continue
        source = (
            "hash_ring 1.3.1 (PyPI) is Python 2 only and Debian 12 has no Python 2, so it was NOT "
            "run. Recorded instead from npm hashring %s (deps %s; Node.js %s): new HashRing({label: "
            "{weight: w}}, 'md5', {compatibility: 'hash_ring'}) (3 points per md5 digest), "
            "expect = ring.get(key). For this server set the script checked on the real ring "
            "that every server has 3 x ((40*n*w) div W) points, i.e. hash_ring's own count, and "
            "that no key hashes exactly onto a point (where the two clients' lookup and tie "
            "rules differ), so hash_ring.HashRing(labels, weights).get_node(key) over the UTF-8 "
            "byte string is expected to give the same answers" % (r["version"], r["deps"],
                                                               NODE_VERSION))
        V.write_vector("hash_ring-%s.json" % name, source, GEN, keys, r["expect"],
                       profile="hash_ring", hash_name=None, servers=servers)


if __name__ == "__main__":
    main()
