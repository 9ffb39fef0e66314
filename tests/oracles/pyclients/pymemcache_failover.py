"""Records pymemcache's failover: when HashClient gives up on a server (after
`retry_attempts` failures) it calls `remove_server`, and the node leaves the rendezvous set.

With `retry_attempts=0` one failure marks the server dead: `_mark_failed_server(server)` (what
a failed command calls) removes it at once.
- pymemcache-failover-*.json (kind sequence, n = servers): per key, the server
  `_get_client(key)` picks, then the one it picks after `_mark_failed_server` of that one, and
  so on until the set is empty (a fresh HashClient per key).
- extra/pymemcache-dead-*.json (kind dead): the listed servers marked failed; expect =
  `_get_client(key)`'s server, null = refused, or no server left (MemcacheError "All servers
  seem to be down right now").
Nothing connects.
"""

from pymemcache.client.hash import HashClient
from pymemcache.exceptions import MemcacheError, MemcacheIllegalInputError

import common as C

GEN = "tests/oracles/pyclients/pymemcache_failover.py"
V = C.V
SETS = {"ten-mixed": V.set_ten_mixed(), "two": V.set_two()}
DEAD = [("ten-mixed-one-dead", "ten-mixed", [4]), ("ten-mixed-three-dead", "ten-mixed", [0, 5, 9]),
        ("two-all-dead", "two", [0, 1])]


def spec(s):
    return (s["host"], s["port"])


def pick(hc, servers, key):
    try:
        client = hc._get_client(key)
    except MemcacheIllegalInputError:
        return None, "refused"
    except MemcacheError:
        return None, "down"
    return next(i for i, s in enumerate(servers) if spec(s) == client.server), None


def main():
    keys = C.keys()
    base = ("pymemcache %s (PyPI, CPython %s): HashClient([(host, port), ...], retry_attempts=0) "
            "default RendezvousHash; " % (C.versions("pymemcache"), C.PY))
    for name, servers in SETS.items():
        expect = []
        for k in keys:
            hc = HashClient([spec(s) for s in servers], retry_attempts=0)
            seq = []
            while True:
                i, why = pick(hc, servers, k)
                if why == "refused":
                    seq = None
                    break
                if i is None:
                    break
                seq.append(servers[i]["label"])
                hc._mark_failed_server(spec(servers[i]))
            expect.append(seq)
        src = base + ("expect = _get_client(key)'s server, then after _mark_failed_server(that one) "
                      "the next pick, until no server is left; null = MemcacheIllegalInputError")
        C.write("pymemcache-failover-%s.json" % name, src, GEN, "pymemcache", servers, keys,
                expect, kind="sequence", n=len(servers))
    for name, set_, dead in DEAD:
        servers = SETS[set_]
        hc = HashClient([spec(s) for s in servers], retry_attempts=0)
        for i in dead:
            hc._mark_failed_server(spec(servers[i]))
        expect = []
        for k in keys:
            i, _ = pick(hc, servers, k)
            expect.append(None if i is None else servers[i]["label"])
        src = base + ("_mark_failed_server() of %s (one failure each: removed from the set); "
                      "expect = _get_client(key)'s server; null = refused or all servers down" % (
                          [servers[i]["label"] for i in dead]))
        C.write_dead("pymemcache-dead-%s.json" % name, src, GEN, "pymemcache", servers, dead,
                     keys, expect)


if __name__ == "__main__":
    main()
