"""Drives emcache's node selection and writes emcache-*.json.

The answer is `Cluster.pick_node(key)` of the real emcache (compiled cyemcache:
RendezvousNode, node_selection over MurmurHash3_x64_128) after the real
`Cluster._build_rdz_nodes` made the rendezvous list, on a Cluster whose node objects are
stand-ins carrying the real MemcachedHostAddress (a real Node would open connections).
Keys are bytes (emcache takes only bytes), checked by cyemcache.is_key_valid first as
every Client command does.
"""

from emcache import MemcachedHostAddress
from emcache._cython import cyemcache
from emcache.cluster import Cluster

import common as C

GEN = "tests/oracles/pyclients/emcache_oracle.py"


class StandInNode:
    """What Cluster._build_rdz_nodes reads from a Node: its address, host and port."""

    def __init__(self, index, address):
        self.index = index
        self.memcached_host_address = address
        self.host = address.address
        self.port = address.port


def cluster_of(servers):
    cl = Cluster.__new__(Cluster)
    cl._purge_unhealthy_nodes = False
    cl._healthy_nodes = [StandInNode(i, MemcachedHostAddress(s["host"], s["port"]))
                         for i, s in enumerate(servers)]
    cl._unhealthy_nodes = []
    cl._build_rdz_nodes()
    return cl


def main():
    keys = C.keys()
    for name, servers in C.sets_unweighted():
        cl = cluster_of(servers)
        expect = []
        for k in keys:
            b = k.encode("utf-8")
            if cyemcache.is_key_valid(b) is False:
                expect.append(None)
                continue
            expect.append(servers[cl.pick_node(b).index]["label"])
        source = ("emcache %s (PyPI wheel, compiled cyemcache, CPython %s): nodes "
                  "MemcachedHostAddress(host, port) (IPv6 host without brackets), "
                  "purge_unhealthy_nodes=False; expect = Cluster.pick_node(key) over the list "
                  "Cluster._build_rdz_nodes makes, keys as their UTF-8 bytes; null = "
                  "cyemcache.is_key_valid(key) is False (the client raises ValueError)" % (
                      C.versions("emcache"), C.PY))
        C.write("emcache-%s.json" % name, source, GEN, "emcache", servers, keys, expect)


if __name__ == "__main__":
    main()
