"""Drives the real pymemcache HashClient (default hasher: RendezvousHash over pymemcache's own
murmur3_32) and writes pymemcache-*.json, pymemcache-unicode-*.json, pymemcache-bytes-*.json.

Nothing connects: HashClient creates its per-server clients lazily, and the answer is the
client object `HashClient._get_client(key)` returns (the method every single-key command
calls: check_key_helper, then hasher.get_node).
"""

from pymemcache.client.hash import HashClient
from pymemcache.exceptions import MemcacheIllegalInputError

import common as C

GEN = "tests/oracles/pyclients/pymemcache_oracle.py"
MODES = [
    ("pymemcache", {}, "str", "HashClient(servers) (allow_unicode_keys=False)"),
    ("pymemcache-unicode", {"allow_unicode_keys": True}, "str",
     "HashClient(servers, allow_unicode_keys=True)"),
    ("pymemcache-bytes", {}, "bytes",
     "HashClient(servers) (allow_unicode_keys=False), keys given as bytes (their UTF-8)"),
]


def spec(s):
    host = "[%s]" % s["host"] if ":" in s["host"] else s["host"]
    return "%s:%d" % (host, s["port"])


def locate(hc, servers, key):
    try:
        client = hc._get_client(key)
    except MemcacheIllegalInputError:
        return None
    by_id = {id(c): i for i, c in enumerate(hc.clients.values())}
    return servers[by_id[id(client)]]["label"]


def main():
    keys = C.keys()
    for profile, opts, form, call in MODES:
        for name, servers in C.sets_unweighted():
            hc = HashClient([spec(s) for s in servers], **opts)
            assert len(hc.clients) == len(servers)
            given = [k.encode("utf-8") for k in keys] if form == "bytes" else keys
            expect = [locate(hc, servers, k) for k in given]
            source = ("pymemcache %s (PyPI, CPython %s): %s with servers as 'host:port' "
                      "strings ('[v6]:port' for IPv6), default hasher RendezvousHash; expect = "
                      "the server of HashClient._get_client(key) (check_key_helper then "
                      "get_node, as every command); null = MemcacheIllegalInputError" % (
                          C.versions("pymemcache"), C.PY, call))
            C.write("%s-%s.json" % (profile, name), source, GEN, profile, servers, keys,
                    expect)


if __name__ == "__main__":
    main()
