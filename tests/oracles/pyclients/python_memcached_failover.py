"""Records python-memcached's failover with servers that do not answer: every server is
127.0.0.1:PORT, a live one a listening socket (the client only connects before it picks), a
dead one a port that refuses connections (the client marks it dead, `dead_retry` 30 s).

- python-memcached-failover-*.json (kind sequence, n = 10): every server dead; expect = the
  servers whose `connect()` `Client._get_server` called, in order, before it returned None.
- extra/python-memcached-dead-*.json (kind dead): the listed servers dead; expect = the server
  `_get_server` returned, or null (refused key, or no server after its 10 tries).
"""

import memcache

import common as C
from python_memcached_oracle import Listeners, locate

GEN = "tests/oracles/pyclients/python_memcached_failover.py"
SETS = {
    "five": C.loopback(range(22201, 22206)),
    "weighted": C.loopback(range(22211, 22214), [1, 2, 3]),
    "one": C.loopback([22221]),
}
DEAD = [("five-one-dead", "five", [1]), ("five-three-dead", "five", [0, 2, 4]),
        ("weighted-heaviest-dead", "weighted", [2]), ("one-dead", "one", [0])]


class Probed(memcache._Host):
    """The real _Host, noting each connect() in the client's log."""

    log = []

    def connect(self):
        Probed.log.append(self)
        return super().connect()


def run(servers, dead, sequence, keys):
    live = [s for i, s in enumerate(servers) if i not in dead]
    ls = Listeners(0)
    import socket
    for s in live:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", s["port"]))
        sock.listen(64)
        ls.socks.append(sock)
    for i in dead:
        probe = socket.socket()
        try:
            probe.connect(("127.0.0.1", servers[i]["port"]))
            raise SystemExit("port %d answers: cannot stand for a dead server" % servers[i]["port"])
        except ConnectionRefusedError:
            pass
        finally:
            probe.close()
    memcache._Host = Probed
    try:
        client = memcache.Client([("127.0.0.1:%d" % s["port"], s["weight"]) for s in servers],
                                 socket_timeout=1)
    finally:
        memcache._Host = Probed.__mro__[1]
    index = {id(h): i for i, h in enumerate(client.servers)}
    out = []
    for k in keys:
        Probed.log.clear()
        srv = locate(client, k)
        if sequence:
            refused = srv is None and not Probed.log
            out.append(None if refused else [servers[index[id(h)]]["label"] for h in Probed.log])
        else:
            out.append(None if srv is None else servers[index[id(srv)]]["label"])
    client.disconnect_all()
    ls.close()
    return out


def main():
    keys = C.keys()
    base = ("python-memcached %s (PyPI, CPython %s): memcache.Client([('127.0.0.1:port', weight), "
            "...], socket_timeout=1); a live server is a listening 127.0.0.1 socket, a dead one a "
            "port that refuses connections; " % (C.versions("python-memcached"), C.PY))
    for name, servers in SETS.items():
        src = base + ("every server dead: expect = the servers whose connect() "
                      "Client._get_server(key) called, in order (after _encode_key and "
                      "check_key); null = MemcachedKeyError")
        C.write("python-memcached-failover-%s.json" % name, src, GEN, "python-memcached",
                servers, keys, run(servers, list(range(len(servers))), True, keys),
                kind="sequence", n=10)
    for name, set_, dead in DEAD:
        servers = SETS[set_]
        src = base + ("servers %s dead: expect = Client._get_server(key) after _encode_key and "
                      "check_key; null = MemcachedKeyError or no server (10 tries)" % (
                          [servers[i]["label"] for i in dead]))
        C.write_dead("python-memcached-dead-%s.json" % name, src, GEN, "python-memcached",
                     servers, dead, keys, run(servers, dead, False, keys))


if __name__ == "__main__":
    main()
