"""Warm-up clients for a migration (see ``ketama migrate`` and docs/migrate.md): pymemcache's
``HashClient`` over an old and a new ring at once.

While a fleet is resized or its clients switch placement, :class:`WarmupClient` reads the
key's new owner first and, on a miss, its old owner, and adds what it found to the new owner
(``add``: a newer value written there meanwhile is never overwritten); it writes to the new
owner only and deletes on both. Run these clients before and during ``ketama migrate run``,
then switch to a plain ``HashClient`` on the new servers once the migration is done: no key
written in between is lost, and no deleted key comes back from the old owner.

A value warmed on a miss gets ``warm_expire`` seconds (default 0: none), since the old owner's
remaining TTL is not visible to a plain ``get``; ``ketama migrate run`` copies the exact TTL.
``HashClient`` has no server weights: use it with unweighted fleets (or equal weights).
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from pymemcache.client.hash import HashClient

from . import hasher

Server = Union[str, Tuple[str, int]]


class WarmupClient:
    """Reads new-then-old, warms the new owner on a miss, writes new, deletes both.

    ``old_servers`` / ``new_servers``: what ``HashClient`` takes (``(host, port)`` tuples or
    ``"host:port"`` strings); ``profile`` and ``hash``: today's placement (see
    ``ketama.profiles()``); ``new_profile`` / ``new_hash``: tomorrow's (default: today's).
    Other keyword arguments go to both ``HashClient`` instances (``connect_timeout``,
    ``timeout``, ``serde``, ...).
    """

    def __init__(
        self,
        old_servers: Sequence[Server],
        new_servers: Sequence[Server],
        profile: str,
        hash: Optional[str] = None,
        *,
        new_profile: Optional[str] = None,
        new_hash: Optional[str] = None,
        warm_expire: int = 0,
        **client_kwargs: Any,
    ) -> None:
        if new_profile is None:
            new_profile = profile
            if new_hash is None:
                new_hash = hash
        self.old = HashClient(list(old_servers), hasher=hasher(profile, hash), **client_kwargs)
        self.new = HashClient(list(new_servers), hasher=hasher(new_profile, new_hash), **client_kwargs)
        self.warm_expire = warm_expire

    def get(self, key: str, default: Any = None) -> Any:
        """The new owner's value, else the old owner's (then added to the new owner)."""
        value = self.new.get(key)
        if value is not None:
            return value
        value = self.old.get(key)
        if value is None:
            return default
        self.new.add(key, value, expire=self.warm_expire, noreply=False)
        return value

    def get_many(self, keys: Iterable[str]) -> Dict[str, Any]:
        """:meth:`get` for many keys: the keys found, with their values."""
        wanted: List[str] = list(keys)
        found: Dict[str, Any] = dict(self.new.get_many(wanted))
        missing = [k for k in wanted if k not in found]
        if missing:
            old: Dict[str, Any] = dict(self.old.get_many(missing))
            for k, v in old.items():
                self.new.add(k, v, expire=self.warm_expire, noreply=False)
            found.update(old)
        return found

    def set(self, key: str, value: Any, expire: int = 0) -> bool:
        """Stores on the new owner only."""
        return bool(self.new.set(key, value, expire=expire, noreply=False))

    def add(self, key: str, value: Any, expire: int = 0) -> bool:
        """Adds on the new owner only."""
        return bool(self.new.add(key, value, expire=expire, noreply=False))

    def delete(self, key: str) -> bool:
        """Deletes on both owners, the old one first: a warm-up read racing this delete then
        finds neither copy to bring back. True if either held it."""
        on_old = bool(self.old.delete(key, noreply=False))
        on_new = bool(self.new.delete(key, noreply=False))
        return on_new or on_old

    def close(self) -> None:
        """Closes both clients' connections."""
        self.new.close()
        self.old.close()
