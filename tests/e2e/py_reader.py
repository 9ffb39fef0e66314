"""Reads keys back through our Python package.

    python py_reader.py PROFILE SERVERS_FILE KEYS_FILE [DEAD_LABEL]

Without DEAD_LABEL: pymemcache's HashClient with ``hasher=ketama.hasher(PROFILE)`` gets every
key (so HashClient asks the server our ring names). With DEAD_LABEL: for each key,
``Ring.failover(key, 7)`` is walked to the first server that is not DEAD_LABEL, and the key is
read from that server alone. A hit is the value "w:" + key. Prints "hits=N total=M", then
each missed key on its own line.
"""

import sys

import ketama
from pymemcache.client.base import Client
from pymemcache.client.hash import HashClient


def main() -> int:
    profile, servers_file, keys_file = sys.argv[1:4]
    dead = sys.argv[4] if len(sys.argv) > 4 else None
    labels = [line.strip() for line in open(servers_file, encoding="utf-8") if line.strip()]
    for label in labels:
        if not label.startswith("127."):  # loopback (127.0.0.0/8) only
            raise SystemExit(f"loopback only: {label}")
    keys = [line.rstrip("\n") for line in open(keys_file, encoding="utf-8") if line.strip()]
    addrs = [(label.rsplit(":", 1)[0], int(label.rsplit(":", 1)[1])) for label in labels]
    found: dict[str, bytes] = {}
    if dead is None:
        client = HashClient(addrs, hasher=ketama.hasher(profile), connect_timeout=2, timeout=2, ignore_exc=True, retry_attempts=1)
        for i in range(0, len(keys), 100):
            found.update(client.get_many(keys[i : i + 100]))
        client.close()
    else:
        ring = ketama.Ring(labels, profile)
        conns = {label: Client(addr, connect_timeout=2, timeout=2) for label, addr in zip(labels, addrs)}
        for k in keys:
            label = next((s for s in ring.failover(k, 7) if s != dead), None)
            if label is not None:
                v = conns[label].get(k)
                if v is not None:
                    found[k] = v
        for c in conns.values():
            c.close()
    missed = [k for k in keys if found.get(k) != f"w:{k}".encode()]
    print(f"hits={len(keys) - len(missed)} total={len(keys)}")
    for k in missed:
        print(k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
