"""The rings behind :class:`ketama.uhashring.HashRing` (uhashring's ``runtime``): the
default ring (``MetaRing``) and the ketama ring (``KetamaRing``), each placing keys in the
native :class:`ketama.Ring` when it can represent the nodes; when the node names are not
labels a ``Ring`` takes (``str(name)`` with blanks, a bad port, two names of one endpoint,
names that are not ``str``), in a :class:`ketama.RawRing` over ``str(name)``'s UTF-8 bytes,
core's continuum over raw names (uhashring hashes ``f"{name}-{i}"``, whatever the name). With a
callable ``hash_fn`` the tables are built in Python (the callable hashes every point, as in
uhashring) and searched natively through :meth:`ketama.Ring.from_points` when every point is
an int in 0..2**32-1. The rest, Python tables (a dict of points and a sorted list searched
with :func:`bisect.bisect`, as uhashring does), is for what no profile describes: weights or
vnodes that are not integers, ``replicas`` other than 3 or 4, ketama-mode vnodes other than
40, negative point counts, and names whose ``str`` is the same (uhashring's dict of points
lets them overwrite each other).

After every change the runtime publishes a :class:`ketama._ketama._NodeLookup` (one native
call per key, no Python frame) that :class:`HashRing` installs as its ``get_node``.
"""

from __future__ import annotations

from bisect import bisect
from collections import Counter
from hashlib import md5
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ketama._errors import KetamaError
from ketama._ketama import RawRing, Ring, _NodeLookup

DEFAULT_VNODES = 160
KETAMA_VNODES = 40
# replicas -> native profile with that many ring points per md5 digest (ketama mode)
_KETAMA_PROFILES = {4: "uhashring-ketama", 3: "hash_ring"}


def _md5_int(key: Any) -> int:
    """uhashring's default key hash: the whole md5 digest of ``str(key)`` as an integer."""
    return int.from_bytes(md5(str(key).encode("utf-8")).digest(), "big")


def _md5_word(key: Any, replica: int = 0) -> int:
    """uhashring's ketama hash: little-endian 32-bit word ``replica`` of the md5 digest."""
    digest = md5(str(key).encode("utf-8")).digest()
    return int.from_bytes(digest[4 * replica : 4 * replica + 4], "little")


def _points_of(conf: Dict[str, Any]) -> bool:
    """Whether a default-mode node conf gives the node any point."""
    try:
        return len(range(0, conf["vnodes"] * conf["weight"])) > 0
    except TypeError:
        return False


class Tables:
    """The whole continuum in Python: uhashring's ``_ring``, ``_keys`` and ``_distribution``."""

    __slots__ = ("ring", "keys", "distribution", "node_points")

    def __init__(self) -> None:
        self.ring: Dict[Any, Any] = {}
        self.keys: List[Any] = []
        self.distribution: Counter[Any] = Counter()
        self.node_points: Dict[Any, List[Any]] = {}


class Runtime:
    """The ring behind a :class:`HashRing` (uhashring's ``runtime`` attribute).

    ``_nodes`` maps node name to conf. When ``_native`` is set, it places keys and the
    tables are derived from it on demand; otherwise ``_tables`` is the ring (slow path).
    """

    def __init__(self) -> None:
        self._nodes: Dict[Any, Dict[str, Any]] = {}
        self._native: Optional[Ring] = None
        # Names a Ring refuses as labels: core's continuum over their raw names, and the node
        # name of each of its servers.
        self._raw: Optional[RawRing] = None
        self._raw_names: List[Any] = []
        self._native_plan: List[Tuple[str, int]] = []
        self._by_label: Dict[str, Any] = {}
        self._tables: Optional[Tables] = Tables()
        # The per-key lookup over the current ring (native or from the tables' points), and
        # who to publish it to (each HashRing on this runtime installs it as its get_node; a
        # shallow copy shares the runtime).
        self._lookup: Optional[_NodeLookup] = None
        self._explicit: Optional[_NodeLookup] = None
        self._publish: List[Callable[[Optional[_NodeLookup]], None]] = []

    def __getstate__(self) -> Dict[str, Any]:
        """Pickling and ``copy``: without the published lookup and the raw ring (rebuilt on
        unpickling)."""
        state = self.__dict__.copy()
        state["_lookup"] = state["_explicit"] = None
        state["_publish"] = []
        if state["_raw"] is not None:
            state["_raw"] = state["_tables"] = None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._native is None and self._tables is None:
            self._sync_rings(())
        self._refresh_lookup()

    # -- hashing ----------------------------------------------------------------------------

    def hashi(self, key: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- the native ring ----------------------------------------------------------------------

    def _profile(self) -> Optional[str]:
        """The native profile for this runtime's settings, or None (slow path only)."""
        raise NotImplementedError  # pragma: no cover

    def _native_weight(self, conf: Dict[str, Any]) -> Optional[int]:
        """The native weight that gives ``conf`` its uhashring point count, or None."""
        raise NotImplementedError  # pragma: no cover

    def _raw_count(self, conf: Dict[str, Any]) -> Optional[int]:
        """The count a :class:`RawRing` of this runtime's profile takes for ``conf`` (a weight,
        or a number of point strings), or None."""
        raise NotImplementedError  # pragma: no cover

    #: Whether :meth:`_raw_count` gives point strings rather than weights.
    _RAW_STRINGS = False

    def _raw_plan(self) -> Optional[List[Tuple[bytes, int]]]:
        """``[(str(name) in UTF-8, count)]`` in node order for a :class:`RawRing`, or None when
        it cannot place the nodes as uhashring does (no profile, a count it cannot take, two
        names of one ``str``)."""
        if self._profile() is None:
            return None
        plan: List[Tuple[bytes, int]] = []
        seen: set[bytes] = set()
        for name, conf in self._effective():
            count = self._raw_count(conf)
            try:
                raw = str(name).encode("utf-8", "surrogatepass")
            except Exception:  # noqa: BLE001 (a name whose str() fails: uhashring fails too)
                return None
            if count is None or raw in seen:
                return None
            seen.add(raw)
            plan.append((raw, count))
        return plan

    def _apply_raw(self, plan: List[Tuple[bytes, int]]) -> bool:
        """Places the nodes in a :class:`RawRing` over ``plan``."""
        profile = self._profile()
        assert profile is not None
        try:
            self._raw = RawRing(plan, profile, strings=self._RAW_STRINGS)
        except (KetamaError, OverflowError):
            return False
        self._raw_names = list(self._nodes)
        return True

    def _effective(self) -> List[Tuple[Any, Dict[str, Any]]]:
        """Each node with the conf its points come from (see :meth:`_note_built`)."""
        return list(self._nodes.items())

    def _note_built(self, changed: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        """Records the confs a change made points from (a ring whose nodes keep the points of
        their last change needs them)."""

    def _plan(self) -> Optional[List[Tuple[str, int]]]:
        """``[(label, native weight)]`` in node order, or None if the native ring cannot
        represent the current nodes exactly."""
        if self._profile() is None:
            return None
        plan: List[Tuple[str, int]] = []
        seen: set[str] = set()
        for name, conf in self._effective():
            if isinstance(name, (str, int)) and not isinstance(name, bool):
                label = str(name)
            else:
                return None
            weight = self._native_weight(conf)
            if weight is None or label in seen:
                return None
            seen.add(label)
            plan.append((label, weight))
        return plan

    def _apply_plan(self, plan: List[Tuple[str, int]]) -> bool:
        """Brings the native ring to ``plan`` (incrementally when the order allows)."""
        profile = self._profile()
        assert profile is not None
        try:
            ring = self._native
            old = dict(self._native_plan)
            new = dict(plan)
            common_old = [label for label, _ in self._native_plan if label in new]
            common_new = [label for label, _ in plan if label in old]
            added = [(label, w) for label, w in plan if label not in old]
            appended = plan[len(plan) - len(added) :] == added
            if ring is None or common_old != common_new or not appended:
                ring = Ring(dict(plan), profile)
            else:
                for label in old:
                    if label not in new:
                        ring.remove(label)
                for label in common_new:
                    if old[label] != new[label]:
                        ring.set_weight(label, new[label])
                for label, w in added:
                    ring.add(label, w)
            if ring.servers != [label for label, _ in plan]:
                return False  # the ring rewrote a label: it would hash another string
        except (KetamaError, OverflowError):
            return False
        self._native = ring
        self._native_plan = list(plan)
        self._by_label = {str(name): name for name in self._nodes}
        return True

    def _sync(self, changed: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        """After ``_nodes`` changed: update whichever ring is authoritative, then the lookup."""
        changed = list(changed)
        self._note_built(changed)
        self._sync_rings(changed)
        self._refresh_lookup()

    def _explicit_hash(self) -> Optional[Callable[[Any], Any]]:
        """The callable that hashes keys and points, when the tables are the ring."""
        return None

    def _refresh_lookup(self) -> None:
        """Publishes the per-key lookup over the ring as it is now (None: the Python path)."""
        lookup: Optional[_NodeLookup] = None
        self._explicit = None
        native = self._native
        if native is not None:
            by_label = self._by_label
            lookup = native._node_lookup([by_label[label] for label in native.servers])
        else:
            hash_fn = self._explicit_hash()
            tables = self._tables
            if hash_fn is not None and tables is not None and tables.ring:
                lookup = self._points_lookup(hash_fn, tables)
                self._explicit = lookup
        self._lookup = lookup
        for publish in self._publish:
            publish(lookup)

    def _points_lookup(self, hash_fn: Callable[[Any], Any], tables: Tables) -> Optional[_NodeLookup]:
        """A lookup over a ring from the tables' own points, searched as uhashring searches
        (first point above the key's hash, wrapping: the ``flexihash`` profile's rule; the
        tables hold one owner per point), or None if a point is not an int in 0..2**32-1."""
        labels: Dict[Any, str] = {}
        names: List[Any] = []
        points: List[Tuple[int, str]] = []
        try:
            for point, name in tables.ring.items():
                if type(point) is not int or not 0 <= point <= 0xFFFFFFFF:
                    return None
                label = labels.get(name)
                if label is None:
                    label = labels[name] = f"n{len(names)}"
                    names.append(name)
                points.append((point, label))
        except TypeError:  # an unhashable node name cannot be a dict key either
            return None
        ring = Ring.from_points(points, hash=hash_fn, profile="flexihash", servers=list(labels.values()))
        return ring._node_lookup(names, fallback=self._slow_node)

    def _slow_node(self, key: Any) -> Any:
        """The node for a key whose hash the native search cannot compare (not an int in
        0..2**32-1): uhashring's bisection over the tables."""
        tables = self.tables()
        return tables.ring[tables.keys[self.pos_of(key)]]

    def _sync_rings(self, changed: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        was_native = self._native is not None or self._raw is not None
        if self._place_natively():
            return
        self._native = None
        self._native_plan = []
        self._by_label = {}
        if was_native or self._tables is None:
            self._tables = Tables()
            self._build(self._tables, self._effective())
        else:
            self._build(self._tables, list(changed))

    def _place_natively(self) -> bool:
        """Places the nodes in a native :class:`Ring`, else in a :class:`RawRing`; False when
        neither can (the caller builds the Python tables)."""
        self._raw = None
        self._raw_names = []
        plan = self._plan()
        if plan is not None and self._apply_plan(plan):
            self._tables = None
            return True
        self._native = None
        self._native_plan = []
        self._by_label = {}
        raw = self._raw_plan()
        if raw is not None and self._nodes and self._apply_raw(raw):
            self._tables = None
            return True
        return False

    def _create_ring(self, nodes: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        self._sync(nodes)

    def _remove_node(self, node_name: Any) -> None:
        if node_name not in self._nodes:
            raise KeyError(f"node '{node_name}' not found, available nodes: {self._nodes.keys()}")
        self._nodes.pop(node_name)
        self._forget(node_name)
        self._sync(())

    def _forget(self, node_name: Any) -> None:
        """Slow path: drop a removed node's points from the tables."""

    # -- the Python tables --------------------------------------------------------------------

    def _build(self, tables: Tables, nodes: List[Tuple[Any, Dict[str, Any]]]) -> None:
        raise NotImplementedError  # pragma: no cover

    def tables(self) -> Tables:
        """The Python view of the continuum (built from the native or raw ring if needed)."""
        if self._tables is None:
            tables = Tables()
            if self._raw is not None:
                self._raw_tables(tables, self._raw)
            else:
                self._build(tables, self._effective())
            self._tables = tables
        return self._tables

    def _raw_tables(self, tables: Tables, raw: RawRing) -> None:
        """The tables of a raw ring's points: each point once in ``ring`` (the tie winner,
        stored first), every point in ``keys`` where uhashring keeps duplicates (ketama mode)
        or each once (default mode), and each node's point count."""
        names = self._raw_names
        ring: Dict[Any, Any] = {}
        keys: List[Any] = []
        dist: Counter[Any] = Counter()
        node_points: Dict[Any, List[Any]] = {}
        for point, server in raw.points():
            name = names[server]
            if point not in ring:
                ring[point] = name
                keys.append(point)
            elif self._RAW_DUPLICATE_KEYS:
                keys.append(point)
            dist[name] += 1
            node_points.setdefault(name, []).append(point)
        tables.ring, tables.keys, tables.distribution = ring, keys, dist
        tables.node_points = node_points

    #: Whether ``keys`` lists a point as many times as nodes put it there (ketama mode).
    _RAW_DUPLICATE_KEYS = False

    # -- lookups ------------------------------------------------------------------------------

    def node_of(self, key: Any) -> Tuple[bool, Any]:
        """``(found, node name)`` for ``key`` from the native ring; ``(False, None)`` when the
        ring is empty. Only valid when ``_native`` is set."""
        native = self._native
        assert native is not None
        label = native.get_node(key if type(key) is str else str(key))
        if label is None:
            return False, None
        return True, self._by_label[label]

    def raw_node_of(self, key: Any) -> Tuple[bool, Any]:
        """``(found, node name)`` for ``key`` from the raw ring; ``(False, None)`` when no node
        has a point. Only valid when ``_raw`` is set."""
        raw = self._raw
        assert raw is not None
        if not len(raw):
            return False, None
        return True, self._raw_names[raw.locate(str(key))]

    def pos_of(self, key: Any) -> int:
        raw = self._raw
        if raw is not None and len(raw):
            return raw.position(str(key))
        keys = self.tables().keys
        p = bisect(keys, self.hashi(key))
        return 0 if p == len(keys) else p

    # uhashring-style private attribute views
    @property
    def _ring(self) -> Dict[Any, Any]:
        return self.tables().ring

    @property
    def _keys(self) -> List[Any]:
        return self.tables().keys

    @property
    def _distribution(self) -> Counter[Any]:
        return self.tables().distribution


class MetaRuntime(Runtime):
    """uhashring's default ring (``MetaRing``): ``vnodes * weight`` points ``hashi(name-i)``."""

    def __init__(self, hash_fn: Any) -> None:
        if hash_fn and not callable(hash_fn):
            raise TypeError("hash_fn should be a callable function")
        self._hash_fn: Optional[Callable[[Any], Any]] = hash_fn or None
        # The conf each node's points were last made from: uhashring remakes a node's points
        # only when that node changes, so a conf edited without a change (same weight, no
        # vnodes given) keeps the points it had.
        self._built: Dict[Any, Dict[str, Any]] = {}
        super().__init__()

    def hashi(self, key: Any) -> Any:
        """The ring position of ``key``: ``hash_fn(key)``, by default the md5 integer."""
        if self._hash_fn is not None:
            return self._hash_fn(key)
        return _md5_int(key)

    def _profile(self) -> Optional[str]:
        return None if self._hash_fn is not None else "uhashring"

    def _explicit_hash(self) -> Optional[Callable[[Any], Any]]:
        return self._hash_fn

    def _native_weight(self, conf: Dict[str, Any]) -> Optional[int]:
        vnodes: Any = conf.get("vnodes")
        weight: Any = conf.get("weight")
        if type(vnodes) not in (int, bool) or type(weight) not in (int, bool):
            return None
        count = int(vnodes) * int(weight)
        if count < 0 or count % DEFAULT_VNODES:
            return None
        return count // DEFAULT_VNODES

    _RAW_STRINGS = True

    def _raw_count(self, conf: Dict[str, Any]) -> Optional[int]:
        vnodes: Any = conf.get("vnodes")
        weight: Any = conf.get("weight")
        if type(vnodes) not in (int, bool) or type(weight) not in (int, bool):
            return None
        count = int(vnodes) * int(weight)
        return count if count >= 0 else None

    def _note_built(self, changed: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        for name, conf in changed:
            self._built[name] = dict(conf)

    def _effective(self) -> List[Tuple[Any, Dict[str, Any]]]:
        built = self._built
        return [(name, built.get(name, conf)) for name, conf in self._nodes.items()]

    def _remove_node(self, node_name: Any) -> None:
        conf = self._nodes.get(node_name)
        if node_name in self._nodes:
            self._built.pop(node_name, None)
        super()._remove_node(node_name)
        if conf is not None and not _points_of(conf):
            # uhashring 2.5 drops a node without points, then raises KeyError on its empty
            # distribution entry: the node is gone and the caller sees the KeyError.
            raise KeyError(node_name)

    def _forget(self, node_name: Any) -> None:
        tables = self._tables
        if tables is None:
            return
        points = tables.node_points.pop(node_name, [])
        tables.distribution.pop(node_name, None)
        for point in points:
            if tables.ring.get(point) == node_name:
                del tables.ring[point]

    def _build(self, tables: Tables, nodes: List[Tuple[Any, Dict[str, Any]]]) -> None:
        # Per node: drop its previous points (those it still owns), then hash the new ones;
        # a later writer wins a (vanishingly rare) collision, as in uhashring.
        for name, conf in nodes:
            for point in tables.node_points.pop(name, ()):
                if tables.ring.get(point) == name:
                    del tables.ring[point]
            tables.distribution.pop(name, None)
            points = []
            for i in range(0, conf["vnodes"] * conf["weight"]):
                point = self.hashi(f"{name}-{i}")
                tables.ring[point] = name
                tables.distribution[name] += 1
                points.append(point)
            tables.node_points[name] = points
        tables.keys = sorted(tables.ring)


class KetamaRuntime(Runtime):
    """uhashring's ``hash_fn="ketama"`` ring (``KetamaRing``): ``vnodes * n * weight // W``
    digests of ``name-i`` per node, ``replicas`` points per digest, rebuilt on every change."""

    def __init__(self, replicas: int = 4) -> None:
        self._replicas = replicas
        super().__init__()

    def hashi(self, key: Any, replica: int = 0) -> int:
        """libketama's key hash (``ketama_hashi``): md5 word ``replica``, little-endian."""
        return _md5_word(key, replica)

    def _profile(self) -> Optional[str]:
        if type(self._replicas) is not int:
            return None
        return _KETAMA_PROFILES.get(self._replicas)

    def _plan(self) -> Optional[List[Tuple[str, int]]]:
        if not self._plan_weights_ok():
            return None
        return super()._plan()

    def _native_weight(self, conf: Dict[str, Any]) -> Optional[int]:
        if conf.get("vnodes") != KETAMA_VNODES or type(conf.get("vnodes")) is not int:
            return None
        weight = int(conf["weight"])
        return weight if weight >= 0 else None

    _RAW_DUPLICATE_KEYS = True

    def _raw_count(self, conf: Dict[str, Any]) -> Optional[int]:
        return self._native_weight(conf)

    def _raw_plan(self) -> Optional[List[Tuple[bytes, int]]]:
        if self._plan_weights_ok():
            return super()._raw_plan()
        return None

    def _plan_weights_ok(self) -> bool:
        """Integer weights with a positive sum (uhashring divides by it: otherwise the slow
        path raises as uhashring does)."""
        total = 0
        for conf in self._nodes.values():
            if type(conf.get("weight")) not in (int, bool):
                return False
            total += int(conf["weight"])
        return not self._nodes or total > 0

    def _build(self, tables: Tables, nodes: List[Tuple[Any, Dict[str, Any]]]) -> None:
        # The ketama ring depends on every node (n and the weight sum): always rebuilt whole.
        if self._native is not None:
            # Exact 32-bit points from the native ring; among equal points the winner first.
            by_label = self._by_label
            ring: Dict[Any, Any] = {}
            keys: List[int] = []
            dist: Counter[Any] = Counter()
            for point, label in self._native.points():
                name = by_label[label]
                ring.setdefault(point, name)
                keys.append(point)
                dist[name] += 1
            tables.ring, tables.keys, tables.distribution = ring, keys, dist
            return
        weight_sum = 0
        for conf in self._nodes.values():
            weight_sum += conf["weight"]
        n = len(self._nodes)
        ring = {}
        points: List[int] = []
        dist = Counter()
        for name, conf in self._nodes.items():
            for i in range(0, (conf["vnodes"] * n * conf["weight"]) // weight_sum):
                for r in range(0, self._replicas):
                    point = self.hashi(f"{name}-{i}", replica=r)
                    ring[point] = name
                    points.append(point)
                    dist[name] += 1
        points.sort()
        tables.ring, tables.keys, tables.distribution = ring, points, dist

    def _remove_node(self, node_name: Any) -> None:
        if node_name not in self._nodes:
            raise KeyError(f"node '{node_name}' not found, available nodes: {self._nodes.keys()}")
        self._nodes.pop(node_name)
        if self._native is not None or self._raw is not None:
            self._tables = None
        self._sync(())

    def _sync_rings(self, changed: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        # Whole rebuild in the slow path too (the ring depends on every node).
        if self._place_natively():
            return
        tables = Tables()
        self._build(tables, list(self._nodes.items()))
        self._tables = tables
