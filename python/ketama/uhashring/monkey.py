"""``patch_memcache()``: python-memcached's ``memcache.Client`` places keys with a
:class:`ketama.uhashring.HashRing` (uhashring's default ring), as ``uhashring.monkey`` does.

Change ``from uhashring import monkey`` to ``from ketama.uhashring import monkey``.
"""

from __future__ import annotations

import importlib
from typing import Any, Optional, Tuple

__all__ = ["patch_memcache"]


def patch_memcache() -> None:
    """Patches ``memcache.Client`` (python-memcached) in place.

    After the patch, each client builds a ring named by server IP (conf: ``hostname``,
    ``instance`` = the ``_Host``, ``port``, ``weight``) in ``client.uhashring``, and picks a
    key's server by walking that ring from the key's point until a server connects (up to
    ``_SERVER_RETRIES`` rounds). Tuple keys ``(hash, key)`` keep python-memcached's own
    placement.
    """
    from ketama.uhashring import HashRing

    memcache: Any = importlib.import_module("memcache")
    client = memcache.Client
    original_init = client.__init__
    original_get_server = client._get_server

    def __init__(self: Any, servers: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, servers, *args, **kwargs)
        self.uhashring = HashRing(
            {
                host.ip: {"hostname": host.ip, "instance": host, "port": host.port, "weight": host.weight}
                for host in self.servers
            }
        )

    def _get_server(self: Any, key: Any) -> Tuple[Optional[Any], Optional[Any]]:
        if isinstance(key, tuple):
            return original_get_server(self, key)  # type: ignore[no-any-return]
        for _ in range(self._SERVER_RETRIES):
            for conf in self.uhashring.range(key):
                if conf["instance"].connect():
                    return conf["instance"], key
        return None, None

    client._old_init = original_init
    client._old_get_server = original_get_server
    client.__init__ = __init__
    client._get_server = _get_server
