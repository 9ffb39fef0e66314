"""Write tests/vectors/groupcache-*.json and gomemcache-*.json from the real Go packages.

Called by tests/oracles/go/generate.sh after building ./oracle (main.go in this directory,
module versions pinned in go.mod / go.sum). Every expect value is printed by that program.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import vectorlib as V  # noqa: E402

GEN = "tests/oracles/go/generate.sh"
BIN = os.environ.get("ORACLE_BIN", os.path.join(V.CACHE, "go", "oracle"))


def gomod_version(module):
    text = open(os.path.join(HERE, "go.mod"), encoding="utf-8").read()
    m = re.search(re.escape(module) + r" (\S+)", text)
    return m.group(1)


GO_VERSION = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True,
                            check=True).stdout.strip()
GROUPCACHE = gomod_version("github.com/golang/groupcache")
GOMEMCACHE = gomod_version("github.com/bradfitz/gomemcache")


def run(client, servers, keys, replicas=0):
    job = {"client": client, "replicas": replicas, "keys": keys,
           "servers": [{"label": s["label"], "node": s.get("name", s["label"])}
                       for s in servers]}
    out = subprocess.run([BIN], input=json.dumps(job), capture_output=True, text=True,
                         check=True, encoding="utf-8")
    return json.loads(out.stdout)["expect"]


def main():
    keys = V.standard_keys()

    # ---------------- groupcache consistenthash ----------------
    urls = [V.server("10.8.0.%d" % i, 8080, name="http://10.8.0.%d:8080" % i)
            for i in range(1, 9)]
    gc_sets = [
        ("one", V.set_one()),
        ("two", V.set_two()),
        ("ten-mixed", V.set_ten_mixed()),
        ("hundred", V.set_equal(100, base="10.1", port_cycle=3)),
        ("two-hundred-fifty", V.set_equal(250, base="10.2")),
        ("thousand", V.set_equal(1000, base="10.3", port_cycle=4)),
        ("http-peers", urls),
    ]
    for name, servers in gc_sets:
        node_text = ("the label 'host:port'" if name != "http-peers" else
                     "the server's \"name\" (HTTPPool-style peer URL 'http://host:port')")
        source = ("github.com/golang/groupcache %s, package consistenthash (Go %s): "
                  "m := consistenthash.New(50, nil) (50 replicas as HTTPPool uses, nil = "
                  "crc32.ChecksumIEEE); m.Add(nodes...) once with every server's node string "
                  "in file order, node string = %s; expect = the server whose node string "
                  "m.Get(key) returns (\"\" -> null); weights are not supported by the client"
                  % (GROUPCACHE, GO_VERSION, node_text))
        V.write_vector("groupcache-%s.json" % name, source, GEN, keys,
                       run("groupcache", servers, keys, replicas=50), profile="groupcache",
                       hash_name=None, servers=servers)

    # ---------------- gomemcache ServerList.PickServer ----------------
    # keys longer than 256 bytes: PickServer hashes only the first 256 bytes
    long_keys = ["L" * 256 + "tail-one", "L" * 256 + "tail-two", "x" * 300, "y" * 1000,
                 "日本語" * 100]
    mc_keys = keys + long_keys
    ten = [V.server("10.0.1.1", 11211), V.server("10.0.1.2", 11211),
           V.server("10.0.1.3", 12000), V.server("10.0.1.4", 11212),
           V.server("localhost", 11311), V.server("192.168.100.7", 11211),
           V.server("172.16.5.9", 21211), V.server("10.0.1.8", 11211),
           V.server("10.0.1.9", 11213), V.server("10.0.1.10", 11211)]
    mc_sets = [
        ("one", V.set_one()),
        ("two", V.set_two()),
        ("three", V.set_three()),
        ("ten-mixed", ten),
        ("hundred", V.set_equal(100, base="10.1", port_cycle=3)),
        ("two-hundred-fifty", V.set_equal(250, base="10.2")),
        ("thousand", V.set_equal(1000, base="10.3", port_cycle=4)),
    ]
    for name, servers in mc_sets:
        source = ("github.com/bradfitz/gomemcache %s, package memcache (Go %s): "
                  "var ss memcache.ServerList; ss.SetServers(labels...) in file order (it "
                  "resolves names: 'localhost' resolved locally, nothing connects); expect = "
                  "the server whose address ss.PickServer(key) returns (error -> null). "
                  "PickServer is called directly: Client.Get/Set would first refuse keys over "
                  "250 bytes or with a byte <= 0x20 or 0x7f (ErrMalformedKey). The last %d keys "
                  "are over 256 bytes (PickServer hashes only the first 256). Weights: the "
                  "client has none (a server listed twice gets two slots), all 1 here"
                  % (GOMEMCACHE, GO_VERSION, len(long_keys)))
        V.write_vector("gomemcache-%s.json" % name, source, GEN, mc_keys,
                       run("gomemcache", servers, mc_keys), profile="gomemcache",
                       hash_name=None, servers=servers)


if __name__ == "__main__":
    main()
