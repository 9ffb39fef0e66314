"""Bit-exact consistent hashing of every popular memcached client, in Rust.

A :class:`Ring` places keys on servers exactly the way the chosen client does (libketama,
libmemcached / php-memcached, pecl memcache, twemproxy, spymemcached, xmemcached, uhashring,
hash_ring, node-hashring, go-ketama, groupcache, flexihash, modulo, ...), so a Python service
can share a memcached fleet with programs written against those clients::

    >>> import ketama
    >>> ring = ketama.Ring(["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11211"],
    ...                    profile="php-memcached")
    >>> ring.get("user:1234") in ring
    True
    >>> ketama.hash("apple", "KETAMA_HASH")
    3195025439

``str`` keys are hashed as their UTF-8 bytes, ``bytes`` keys as they are (the Java profiles'
hashes decode them and hash UTF-16 code units, as the Java clients do).

With pymemcache::

    from pymemcache.client.hash import HashClient
    client = HashClient(["127.0.0.1:11211", "127.0.0.1:11212"],
                        hasher=ketama.hasher("php-memcached"))

Drop-ins: :mod:`ketama.uhashring` (``from ketama.uhashring import HashRing`` for uhashring
2.x) and libketama's own binding API (:class:`Continuum`, :func:`hashi`). :class:`RawRing`
is a continuum over raw node names (any bytes, the same name twice is two servers), what
those drop-ins place names a :class:`Ring` does not take as labels with.

Thread safety: a ring may be shared by any number of threads (free-threaded CPython
included). Each lookup sees the ring either before or after a concurrent ``add``/``remove``,
never a mix; large ``get_many`` batches run with the GIL released.
"""

from __future__ import annotations

from typing import Any, ClassVar, Iterable, Optional, Tuple, Type, Union

from ketama import _errors
from ketama._errors import *  # noqa: F401,F403 (every error class, listed in _errors.__all__)
from ketama._libketama import Continuum, hashi
from ketama._ketama import (
    CORE_VERSION,
    RawRing,
    Ring,
    __version__,
    bucket,
    bucket_algorithms,
    hash,
    hash_aliases,
    hashes,
    profiles,
)

__all__ = [
    "__version__",
    "CORE_VERSION",
    "Ring",
    "RawRing",
    "KetamaHasher",
    "hasher",
    "hash",
    "hashes",
    "hash_aliases",
    "profiles",
    "Continuum",
    "hashi",
    "bucket",
    "bucket_algorithms",
]
__all__ += _errors.__all__

ServerSpec = Union[str, Tuple[str, int], Tuple[str, int, Optional[str]]]


def _label_of_node(node: str) -> str:
    """pymemcache names a ``(host, port)`` server ``"host:port"``, IPv6 hosts unbracketed
    (``"::1:11211"``); our labels bracket them (``"[::1]:11211"``)."""
    if node.count(":") > 1 and not node.startswith("["):
        host, _, port = node.rpartition(":")
        if port.isdigit():
            return f"[{host}]:{port}"
    return node


class KetamaHasher(Ring):
    """A :class:`Ring` that pymemcache's ``HashClient`` accepts as ``hasher=``.

    ``HashClient`` calls the class with no arguments, then ``add_node("host:port")``,
    ``remove_node("host:port")`` and ``get_node(key)`` (``None`` on an empty ring). This class
    uses the ``libketama`` profile; :func:`hasher` makes one for any profile. Adding a node
    that is already there is a no-op, as in pymemcache's own ``RendezvousHash``.

    pymemcache hashes the key *without* its ``key_prefix``.
    """

    profile_name: ClassVar[str] = "libketama"
    hash_name: ClassVar[Optional[str]] = None

    _nodes: dict[str, str]

    def __new__(
        cls,
        servers: Union[Iterable[ServerSpec], dict[str, int], None] = None,
        profile: Optional[str] = None,
        hash: Optional[str] = None,
    ) -> KetamaHasher:
        self = super().__new__(cls, servers, profile or cls.profile_name, hash or cls.hash_name)
        self._nodes = {}
        return self

    def add_node(self, node: str, conf: Any = None) -> None:
        label = _label_of_node(node)
        if label in self:
            return
        super().add_node(label, conf)
        if label != node:
            self._nodes[label] = node

    def remove_node(self, node: str) -> None:
        label = _label_of_node(node)
        super().remove_node(label)
        self._nodes.pop(label, None)

    def get_node(self, key: Any) -> Optional[str]:
        label = super().get_node(key)
        if self._nodes and label is not None:
            return self._nodes.get(label, label)
        return label

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...], Any]:
        # The class may come from hasher(), which pickle cannot find by name: rebuild it.
        # (class, servers, profile, hash, options): a hasher is made without options
        _, (_cls, servers, profile, hash, _options), _state = super().__reduce__()
        cls = type(self)
        state = {k: v for k, v in self.__dict__.items() if k != "_nodes"} or None
        return (_rebuild_hasher, ((cls.profile_name, cls.hash_name), profile, hash, servers, dict(self._nodes)), state)


def _restore_ring(
    cls: Type[Ring],
    servers: list[Tuple[str, int, Optional[str]]],
    profile: str,
    hash: Optional[str],
    options: Optional[Tuple[Optional[bytes], Optional[bytes], bool]] = None,
) -> Ring:
    """Unpickling a :class:`Ring` or a subclass (see ``Ring.__reduce__``): an instance of
    ``cls`` made without calling its own ``__new__`` or ``__init__``; ``options`` =
    ``(hash_tag, prefix_key, hash_with_prefix)``."""
    return Ring._restore(cls, servers, profile, hash, options)


def _rebuild_hasher(
    factory: Tuple[str, Optional[str]],
    profile: str,
    hash: str,
    servers: list[Tuple[str, int, Optional[str]]],
    nodes: dict[str, str],
) -> KetamaHasher:
    h = hasher(*factory)(servers, profile, hash)
    h._nodes.update(nodes)
    return h


_HASHERS: dict[Tuple[str, Optional[str]], Type[KetamaHasher]] = {("libketama", None): KetamaHasher}


def hasher(profile: str = "libketama", hash: Optional[str] = None) -> Type[KetamaHasher]:
    """A :class:`KetamaHasher` class for ``profile`` (and key ``hash``), for
    ``HashClient(servers, hasher=ketama.hasher("php-memcached"))``.

    The names are checked now: a bad one raises here, not inside pymemcache.
    """
    key = (profile, hash)
    cls = _HASHERS.get(key)
    if cls is None:
        Ring((), profile, hash)  # validates both names
        name = f"KetamaHasher[{profile}{'' if hash is None else ', ' + hash}]"
        cls = type(name, (KetamaHasher,), {"profile_name": profile, "hash_name": hash})
        _HASHERS[key] = cls
    return cls
