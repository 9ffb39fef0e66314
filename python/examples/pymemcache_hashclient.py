"""pymemcache's HashClient placing keys exactly like PHP's Memcached (php-memcached with
OPT_LIBKETAMA_COMPATIBLE), so Python and PHP share one fleet.

    python python/examples/pymemcache_hashclient.py 127.0.0.1:11211 127.0.0.1:11212

Needs memcached listening on the given addresses (default 127.0.0.1:11211).
"""

from __future__ import annotations

import sys

from pymemcache.client.hash import HashClient

import ketama


def main(addresses: list[str]) -> None:
    servers = [(host, int(port)) for host, _, port in (a.rpartition(":") for a in addresses)]
    client = HashClient(servers, hasher=ketama.hasher("php-memcached"), connect_timeout=2, timeout=2)
    ring = ketama.Ring(addresses, profile="php-memcached")  # the same placement, for display
    for key in ["user:1", "user:2", "session:abc", "cart:42"]:
        client.set(key, b"hello")
        print(f"{key:<12} -> {ring.get(key)}  (read back: {client.get(key)!r})")


if __name__ == "__main__":
    main(sys.argv[1:] or ["127.0.0.1:11211"])
