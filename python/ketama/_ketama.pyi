"""Type stubs for the native module ``ketama._ketama`` (Rust, PyO3)."""

from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Tuple, TypeVar, Union, final

from typing_extensions import Self, disjoint_base

__all__ = [
    "CORE_VERSION",
    "DETACH_THRESHOLD",
    "RawRing",
    "Ring",
    "_LIBKETAMA_MAX_FILE_BYTES",
    "_NodeLookup",
    "__version__",
    "_error_classes",
    "_libketama_check",
    "_libketama_io_error",
    "_libketama_read",
    "bucket",
    "bucket_algorithms",
    "hash",
    "hash_aliases",
    "hashes",
    "profiles",
]

__version__: str
CORE_VERSION: str
DETACH_THRESHOLD: int
_LIBKETAMA_MAX_FILE_BYTES: int

_R = TypeVar("_R", bound="Ring")

_Key = Union[str, bytes, bytearray, memoryview]
_ServerSpec = Union[str, Tuple[str, int], Tuple[str, int, Optional[str]]]

@disjoint_base
class Ring:
    """A consistent-hashing ring that places keys exactly like the chosen client.

    Limits: a continuum holds at most 2^23 = 8,388,608 points (52,428 equal servers on the
    libketama profiles); more raises ``TooManyPointsError`` at once, the limit in its message.
    Duplicates are one endpoint: ``[::1]:11211`` and ``[0:0::1]:11211`` are the same server.
    """

    def __new__(
        cls,
        servers: Union[Iterable[_ServerSpec], Mapping[str, int], None] = None,
        profile: str = "libketama",
        hash: Optional[str] = None,
        *,
        hash_tag: Union[str, bytes, None] = None,
        prefix_key: Union[str, bytes, None] = None,
        hash_with_prefix: bool = False,
    ) -> Self:
        """Builds a ring of ``servers`` (labels, ``(label, weight[, name])`` tuples or a
        ``{label: weight}`` dict) placed like ``profile``'s client, with ``hash`` as key hash
        (``None``: the client's default). A refused server raises with its label.
        Placement options: ``hash_tag`` (a hash tag's delimiters, exactly 2 bytes: only the
        tag between them is hashed, found by the client's own rule; twemproxy's ``hash_tag``
        and the Jedis profiles' key-tag pattern, ``{}`` being Jedis's default; the Redis
        clients whose tag rule is always on, Predis, phpredis, redis-rb, go-redis and
        redis-shard, hash ``{tag}`` without it and refuse it; docs/compat.md lists each
        profile's rule), ``prefix_key`` (php-memcached's ``OPT_PREFIX_KEY``, 1..127 bytes) and
        ``hash_with_prefix`` (``OPT_HASH_WITH_PREFIX_KEY``), libmemcached profiles; others
        raise ``BadOptionError``."""
    def __init__(
        self,
        servers: Union[Iterable[_ServerSpec], Mapping[str, int], None] = None,
        profile: str = "libketama",
        hash: Optional[str] = None,
        *,
        hash_tag: Union[str, bytes, None] = None,
        prefix_key: Union[str, bytes, None] = None,
        hash_with_prefix: bool = False,
    ) -> None:
        """Builds the ring when a subclass defining ``__init__`` calls
        ``super().__init__(servers, profile, hash)`` (its ``__new__`` then left it empty, so
        the subclass's own arguments are never read as a profile); otherwise a no-op."""
    @staticmethod
    def from_points(
        points: Iterable[Tuple[int, str]],
        hash: Union[str, Callable[[Any], int], None] = None,
        profile: str = "libketama",
        servers: Optional[Iterable[str]] = None,
    ) -> Ring:
        """A ring whose continuum is exactly ``points`` (``(position, label)``, positions in
        0..2**32-1), searched by ``profile``'s rules; ``hash`` a hash name, ``None`` (the
        profile's) or a callable ``key -> int`` (keys hashed in Python, searched natively).
        ``servers``: the labels in order (default: first appearance). Refuses changes."""
    def _node_lookup(self, values: list[Any], fallback: Optional[Callable[[Any], Any]] = None) -> _NodeLookup:
        """A per-key lookup over this ring as it is now, returning ``values[server index]``."""
    def get(self, key: _Key) -> str:
        """The label of the server ``key`` goes to; raises ``KeyRejectedError``,
        ``NoServerError`` or ``EmptyRingError`` (the refusal rule)."""
    def get_node(self, key: object) -> Optional[str]:
        """pymemcache / uhashring style ``get``: ``None`` when no server can take the key."""
    def get_many(self, keys: Iterable[_Key]) -> list[str | None]:
        """Labels for many keys in one call, ``None`` for a refused key; large batches run
        with the GIL released."""
    def get_n(self, key: _Key, n: int) -> list[str]:
        """Up to ``n`` distinct servers for ``key``, primary first, in ring order."""
    def failover(self, key: _Key, n: int) -> list[str]:
        """The client's own failover sequence for ``key`` (spymemcached/xmemcached rehash
        walks; otherwise as ``get_n``)."""
    def locate_alive(self, key: _Key, dead: list[str]) -> Optional[str]:
        """Where the client sends ``key`` while the servers labelled in ``dead`` are down
        (its own failover rule and try limit); ``None`` when it gives up."""
    def key_hash(self, key: _Key) -> int:
        """The key hash this ring computes for ``key`` after the client's key rewriting."""
    def add(self, label: str, weight: Optional[int] = None, name: Optional[str] = None) -> None:
        """Adds a server at the end of the server order (``name``: twemproxy server name or a
        Java/groupcache node string). Only its points are hashed."""
    def remove(self, label: str) -> None:
        """Removes a server (``MissingServerError``, a ``KeyError``, when absent)."""
    def set_weight(self, label: str, weight: int) -> None:
        """Changes a server's weight, keeping its place in the server order."""
    def add_node(self, node: str, conf: Any = None) -> None:
        """uhashring's ``add_node``: ``conf`` is a weight or a dict with ``"weight"``."""
    def remove_node(self, node: str) -> None:
        """uhashring's ``remove_node``."""
    def points(self) -> list[tuple[int, str]]:
        """The continuum as ``(point, label)`` pairs, ascending (empty for modulo, jump...)."""
    @property
    def servers(self) -> list[str]:
        """The server labels, in server order."""
    @property
    def weights(self) -> dict[str, int]:
        """``{label: weight}`` in server order."""
    @property
    def profile(self) -> str:
        """The profile's name."""
    @property
    def hash(self) -> str:
        """The key hash's name (``"callable"`` for a ring from points hashed by a callable)."""
    @property
    def hash_fn(self) -> Optional[Callable[[Any], int]]:
        """The callable that hashes keys (a ring from points given one), else ``None``."""
    @property
    def explicit(self) -> bool:
        """Whether the ring was built by ``from_points`` (and so refuses changes)."""
    def __len__(self) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...], Any]:
        """Pickling: ``(ketama._restore_ring, (cls, servers, profile, hash), __dict__ or None)``;
        unpickling keeps a subclass's instance attributes and calls neither its ``__new__`` nor
        its ``__init__``."""
    @staticmethod
    def _restore(
        cls: type[_R],
        servers: Iterable[_ServerSpec],
        profile: str,
        hash: Optional[str],
        options: Optional[Tuple[Optional[bytes], Optional[bytes], bool]] = None,
    ) -> _R: ...

@final
class _NodeLookup:
    """``lookup(key)``: the value of the server ``key`` goes to on a fixed ring snapshot, or
    ``None`` (drop-ins install it as their per-key method)."""

    def __call__(self, key: object) -> Any: ...
    def get(self, key: object) -> Any:
        """The same as calling the lookup (a bound method: called without an argument tuple)."""

@final
class RawRing:
    """A continuum over raw node names: each ``(name, count)`` is a server known by its index
    in the list, hashed exactly as given (any bytes; the same name twice is two servers, each
    with its own points), by a profile's rules (``libketama``, ``flexihash``, ``uhashring``,
    ``uhashring-ketama``, ``hash_ring``, ...). ``strings=True`` reads each count as the number
    of point strings itself rather than as a weight."""

    def __new__(
        cls,
        servers: Iterable[Tuple[bytes, int]],
        profile: str = "libketama",
        hash: Optional[str] = None,
        strings: bool = False,
    ) -> Self: ...
    def __len__(self) -> int:
        """Number of points."""
    @property
    def server_count(self) -> int:
        """Number of servers (entries of the list, points or not)."""
    def locate(self, key: _Key) -> int:
        """The index of the server ``key`` goes to (``NoServerError`` when no server has a point)."""
    def position(self, key: _Key) -> int:
        """The index (into ``points()``) of the point ``key`` lands on."""
    def locate_n(self, key: _Key, n: int) -> list[int]:
        """Up to ``n`` distinct server indexes for ``key``: its own, then the next owners walking
        the continuum the way the profile's search goes."""
    def points(self) -> list[Tuple[int, int]]:
        """Every ``(point, server index)``, ascending (the tie rule's winner first among equal
        points); on uhashring's 128-bit continuum the points are the whole 128-bit values."""

def _libketama_check(file: str, kind: str, size: int) -> None:
    """Checks what ``os.stat`` found (``kind``: ``regular``, ``directory``, ``fifo``, ``device``,
    ``socket`` or ``other``; ``size`` in bytes) against core's rule for a servers file."""
def _libketama_io_error(file: str, problem: str, errno: int) -> Exception:
    """The ``KetamaError`` for a servers file that could not be seen (``missing``), opened or
    read (``unreadable``, with the system's error number), or grew past the cap while read
    (``grew``)."""
def _libketama_read(data: bytes, file: str) -> Tuple[list[Tuple[bytes, int]], RawRing]:
    """A servers file's bytes read as libketama reads them (core's parser): the servers,
    ``[(address, memory)]`` in file order, and their continuum; a refusal is a
    ``KetamaError`` with core's message, naming the line."""
def hash(key: _Key, algorithm: str) -> int:
    """The hash ``algorithm`` computes for ``key`` (snake_case libhashkit names or a client's
    enum name such as ``KETAMA_HASH``)."""
def profiles() -> dict[str, str]:
    """``{name: description}`` for every profile, aliases included."""
def hashes() -> dict[str, str]:
    """``{name: description}`` for every hash function."""
def hash_aliases() -> dict[str, str]:
    """``{client enum name: our name}`` (``KETAMA_HASH`` -> ``md5``, ...)."""
def _error_classes() -> list[tuple[str, str | None]]:
    """Test support: ``(core error, exception class)`` for every core error."""
def bucket(algorithm: str, input: int, buckets: int) -> int:
    """The bucket (0 .. buckets-1) of the unsigned 64-bit ``input`` under ``algorithm``."""
def bucket_algorithms() -> list[Tuple[str, str]]:
    """``(name, description)`` of every bucket function."""
