"""Drives the real python-memcached (`memcache.Client`) and writes python-memcached-*.json.

The client picks a bucket, then calls `server.connect()`: every server is a listening socket
on 127.0.0.1 (the client connects, nothing is sent). The bucket list holds the servers by
position only (addresses are never hashed), so each file's server at position i is given to
the client as ('127.0.0.1:P_i', weight_i) and reported by its label.
"""

import socket

import memcache

import common as C

GEN = "tests/oracles/pyclients/python_memcached_oracle.py"


class Listeners:
    """n listening loopback sockets (the backlog accepts the client's connects)."""

    def __init__(self, n):
        self.socks = []
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            s.listen(8)
            self.socks.append(s)
        self.ports = [s.getsockname()[1] for s in self.socks]

    def close(self):
        for s in self.socks:
            s.close()


def locate(client, key):
    """What Client._get does before talking to the server: encode, check, pick."""
    k = client._encode_key(key)
    try:
        client.check_key(k)
    except memcache.Client.MemcachedKeyError:
        return None
    server, _ = client._get_server(k)
    return server


def main():
    keys = C.keys()
    for name, servers in C.sets_weighted():
        ls = Listeners(len(servers))
        try:
            client = memcache.Client([("127.0.0.1:%d" % p, s["weight"])
                                      for p, s in zip(ls.ports, servers)])
            index = {id(h): i for i, h in enumerate(client.servers)}
            expect = []
            for k in keys:
                srv = locate(client, k)
                expect.append(None if srv is None else servers[index[id(srv)]]["label"])
            client.disconnect_all()
        finally:
            ls.close()
        source = ("python-memcached %s (PyPI, CPython %s): memcache.Client([(addr, weight), "
                  "...]) with every server alive (a listening 127.0.0.1 socket; the i-th "
                  "server of this file is the i-th tuple); expect = the server of "
                  "Client._get_server(key) after _encode_key (UTF-8) and check_key, as "
                  "Client.get does; null = MemcachedKeyError (empty, over 250 bytes, "
                  "control/space bytes)" % (C.versions("python-memcached"), C.PY))
        C.write("python-memcached-%s.json" % name, source, GEN, "python-memcached", servers,
                keys, expect)


if __name__ == "__main__":
    main()
