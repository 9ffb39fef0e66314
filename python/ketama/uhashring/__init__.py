"""A drop-in replacement for uhashring 2.x's ``HashRing``, over the native :class:`ketama.Ring`.

Change one import line and keep the rest of the code::

    from uhashring import HashRing          # before
    from ketama.uhashring import HashRing   # after

Same constructor (a list of node names, a ``{name: weight}`` dict or a ``{name: conf}``
dict with ``hostname``/``port``/``instance``/``weight``/``vnodes``; ``hash_fn="ketama"``,
``replicas``, ``vnodes``, ``weight_fn``, a callable ``hash_fn``), same public surface, same
placement: the default mode is our ``uhashring`` profile (``int(md5(name-i).hexdigest(),
16)``, 160 points per weight unit), ``hash_fn="ketama"`` our ``uhashring-ketama`` profile
(``replicas=3`` is the ``hash_ring`` profile).

Where the work happens:

- Lookups (``get``, ``get_node``, ``ring[key]``, ``get_node_hostname``/``port``/``weight``,
  the first node of ``range``/``iterate_nodes``) run in the native ring whenever the
  configuration is one it represents: string-like node names it accepts as labels, integer
  weights, and point counts it computes itself (default mode: ``vnodes * weight`` a
  multiple of 160; ketama mode: ``vnodes == 40`` for every node and ``replicas`` 3 or 4).
- The slow path, used for every other configuration and always for a callable
  ``hash_fn``: the ring is a Python dict of points plus a sorted list searched with
  :func:`bisect.bisect`, as uhashring itself does (same speed as uhashring).
- The views that expose every point (``ring``/``continuum``, ``get_points``, ``size``,
  ``distribution``, ``get_node_pos``, ``get_server``, the rest of a ``range`` walk) are
  built in Python on first use after a change, then cached.

Node confs are the same dicts uhashring keeps (``conf``/``nodes``); as in uhashring, change
a node through ``add_node``/``ring[name] = conf``, not by editing those dicts.
"""

from __future__ import annotations

from bisect import bisect
from collections import Counter
from hashlib import md5
from itertools import chain
from typing import Any, Callable, Dict, Generator, Iterable, KeysView, List, Optional, Tuple

from ketama._errors import KetamaError
from ketama._ketama import Ring

__all__ = ["HashRing", "monkey"]

#: The uhashring release whose behaviour this module reproduces.
__version__ = "2.5"

_DEFAULT_VNODES = 160
_KETAMA_VNODES = 40
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


class _Tables:
    """The whole continuum in Python: uhashring's ``_ring``, ``_keys`` and ``_distribution``."""

    __slots__ = ("ring", "keys", "distribution", "node_points")

    def __init__(self) -> None:
        self.ring: Dict[Any, Any] = {}
        self.keys: List[Any] = []
        self.distribution: Counter[Any] = Counter()
        self.node_points: Dict[Any, List[Any]] = {}


class _Runtime:
    """The ring behind a :class:`HashRing` (uhashring's ``runtime`` attribute).

    ``_nodes`` maps node name to conf. When ``_native`` is set, it places keys and the
    tables are derived from it on demand; otherwise ``_tables`` is the ring (slow path).
    """

    def __init__(self) -> None:
        self._nodes: Dict[Any, Dict[str, Any]] = {}
        self._native: Optional[Ring] = None
        self._native_plan: List[Tuple[str, int]] = []
        self._by_label: Dict[str, Any] = {}
        self._tables: Optional[_Tables] = _Tables()

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

    def _plan(self) -> Optional[List[Tuple[str, int]]]:
        """``[(label, native weight)]`` in node order, or None if the native ring cannot
        represent the current nodes exactly."""
        if self._profile() is None:
            return None
        plan: List[Tuple[str, int]] = []
        seen: set[str] = set()
        for name, conf in self._nodes.items():
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
        """After ``_nodes`` changed: update whichever ring is authoritative."""
        plan = self._plan()
        if plan is not None and self._apply_plan(plan):
            self._tables = None
            return
        was_native = self._native is not None
        self._native = None
        self._native_plan = []
        self._by_label = {}
        if was_native or self._tables is None:
            self._tables = _Tables()
            self._build(self._tables, list(self._nodes.items()))
        else:
            self._build(self._tables, list(changed))

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

    def _build(self, tables: _Tables, nodes: List[Tuple[Any, Dict[str, Any]]]) -> None:
        raise NotImplementedError  # pragma: no cover

    def tables(self) -> _Tables:
        """The Python view of the continuum (built from the native ring if needed)."""
        if self._tables is None:
            tables = _Tables()
            self._build(tables, list(self._nodes.items()))
            self._tables = tables
        return self._tables

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

    def pos_of(self, key: Any) -> int:
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


class _MetaRuntime(_Runtime):
    """uhashring's default ring (``MetaRing``): ``vnodes * weight`` points ``hashi(name-i)``."""

    def __init__(self, hash_fn: Any) -> None:
        if hash_fn and not callable(hash_fn):
            raise TypeError("hash_fn should be a callable function")
        self._hash_fn: Optional[Callable[[Any], Any]] = hash_fn or None
        super().__init__()

    def hashi(self, key: Any) -> Any:
        """The ring position of ``key``: ``hash_fn(key)``, by default the md5 integer."""
        if self._hash_fn is not None:
            return self._hash_fn(key)
        return _md5_int(key)

    def _profile(self) -> Optional[str]:
        return None if self._hash_fn is not None else "uhashring"

    def _native_weight(self, conf: Dict[str, Any]) -> Optional[int]:
        vnodes: Any = conf.get("vnodes")
        weight: Any = conf.get("weight")
        if type(vnodes) not in (int, bool) or type(weight) not in (int, bool):
            return None
        count = int(vnodes) * int(weight)
        if count < 0 or count % _DEFAULT_VNODES:
            return None
        return count // _DEFAULT_VNODES

    def _remove_node(self, node_name: Any) -> None:
        conf = self._nodes.get(node_name)
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

    def _build(self, tables: _Tables, nodes: List[Tuple[Any, Dict[str, Any]]]) -> None:
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


class _KetamaRuntime(_Runtime):
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
        total = 0
        for conf in self._nodes.values():
            if type(conf.get("weight")) not in (int, bool):
                return None
            total += int(conf["weight"])
        if self._nodes and total <= 0:
            return None  # uhashring divides by the weight sum: the slow path raises as it does
        return super()._plan()

    def _native_weight(self, conf: Dict[str, Any]) -> Optional[int]:
        if conf.get("vnodes") != _KETAMA_VNODES or type(conf.get("vnodes")) is not int:
            return None
        weight = int(conf["weight"])
        return weight if weight >= 0 else None

    def _build(self, tables: _Tables, nodes: List[Tuple[Any, Dict[str, Any]]]) -> None:
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
        self._tables = None if self._native is not None else self._tables
        self._sync(())

    def _sync(self, changed: Iterable[Tuple[Any, Dict[str, Any]]]) -> None:
        # Whole rebuild in the slow path too (the ring depends on every node).
        plan = self._plan()
        if plan is not None and self._apply_plan(plan):
            self._tables = None
            return
        self._native = None
        self._native_plan = []
        self._by_label = {}
        tables = _Tables()
        self._build(tables, list(self._nodes.items()))
        self._tables = tables


class HashRing:
    """uhashring's ``HashRing``: a consistent-hashing ring of named nodes with confs."""

    def __init__(self, nodes: Any = [], **kwargs: Any) -> None:  # noqa: B006 (uhashring's signature)
        """Create a ring.

        :param nodes: a node name, a list of names, ``{name: weight}`` or ``{name: conf}``.
        :param hash_fn: ``"ketama"`` for the ketama-compatible ring, or a callable that
            hashes keys and point names (slow path).
        :param replicas: ketama mode: points per md5 digest (default 4).
        :param vnodes: default vnodes per node (160, or 40 in ketama mode).
        :param weight_fn: ``weight_fn(**conf)`` gives each node's weight.
        """
        hash_fn = kwargs.get("hash_fn", None)
        vnodes = kwargs.get("vnodes", None)
        weight_fn = kwargs.get("weight_fn", None)
        self.runtime: _Runtime
        if hash_fn == "ketama":
            if vnodes is None:
                vnodes = _KETAMA_VNODES
            if "replicas" in kwargs:
                self.runtime = _KetamaRuntime(kwargs["replicas"])
            else:
                self.runtime = _KetamaRuntime()
        else:
            if vnodes is None:
                vnodes = _DEFAULT_VNODES
            self.runtime = _MetaRuntime(hash_fn)
        self._default_vnodes = vnodes
        self.hashi: Callable[..., Any] = self.runtime.hashi
        if weight_fn and not callable(weight_fn):
            raise TypeError("weight_fn should be a callable function")
        self._weight_fn: Optional[Callable[..., Any]] = weight_fn
        if self._configure_nodes(nodes):
            self.runtime._create_ring(self.runtime._nodes.items())

    def _configure_nodes(self, nodes: Any) -> bool:
        """Merges ``nodes`` into the node confs; True if the ring must be rebuilt."""
        if isinstance(nodes, str):
            nodes = [nodes]
        elif not isinstance(nodes, (dict, list)):
            raise ValueError(f"nodes configuration should be a list or a dict, got {type(nodes)}")
        known = self.runtime._nodes
        changed = False
        for node in nodes:
            conf: Dict[str, Any] = {
                "hostname": node,
                "instance": None,
                "nodename": node,
                "port": None,
                "vnodes": self._default_vnodes,
                "weight": 1,
            }
            current = known.get(node, {})
            if not current:
                changed = True
            if isinstance(nodes, dict):
                given = nodes[node]
                if isinstance(given, int):
                    conf["weight"] = given
                elif isinstance(given, dict):
                    for k, v in given.items():
                        if k in conf:
                            conf[k] = v
                            if k in ("nodename", "vnodes", "weight") and current.get(k) != v:
                                changed = True
                else:
                    raise ValueError(f"node configuration should be a dict or an int, got {type(given)}")
            if self._weight_fn:
                conf["weight"] = self._weight_fn(**conf)
            if current.get("weight") != conf["weight"]:
                changed = True
            known[node] = conf
        return changed

    # -- node changes -----------------------------------------------------------------------

    def __setitem__(self, nodename: Any, conf: Any = {"weight": 1}) -> None:  # noqa: B006
        """Adds (or reconfigures) node ``nodename`` with ``conf`` (a weight or a conf dict)."""
        if self._configure_nodes({nodename: conf}):
            self.runtime._create_ring([(nodename, self.runtime._nodes[nodename])])

    add_node = __setitem__

    def __delitem__(self, nodename: Any) -> None:
        """Removes node ``nodename`` (``KeyError`` if absent)."""
        self.runtime._remove_node(nodename)

    remove_node = __delitem__

    def regenerate(self) -> None:
        """Re-evaluates ``weight_fn`` for every node and rebuilds the ring."""
        self._configure_nodes(dict(self.runtime._nodes))
        self.runtime._create_ring(list(self.runtime._nodes.items()))

    # -- lookups -----------------------------------------------------------------------------

    def _get_pos(self, key: Any) -> int:
        return self.runtime.pos_of(key)

    def _nodename(self, key: Any) -> Tuple[bool, Any]:
        rt = self.runtime
        if rt._native is not None:
            return rt.node_of(key)
        tables = rt.tables()
        if not tables.ring:
            return False, None
        return True, tables.ring[tables.keys[rt.pos_of(key)]]

    def _get(self, key: Any, what: str) -> Any:
        """The ``what`` of the node for ``key``: ``instance``, ``hostname``, ``port``,
        ``weight``, ``dict`` (the conf), ``nodename``, ``pos`` or ``tuple``."""
        rt = self.runtime
        if what in ("pos", "tuple"):
            tables = rt.tables()
            if not tables.ring:
                return None
            pos = rt.pos_of(key)
            if what == "pos":
                return pos
            point = tables.keys[pos]
            return (point, tables.ring[point])
        found, name = self._nodename(key)
        if not found:
            return None
        if what == "nodename":
            return name
        conf = rt._nodes[name]
        if what == "dict":
            return conf
        if what in ("hostname", "instance", "port", "weight"):
            return conf[what]
        return None

    def __getitem__(self, key: Any) -> Any:
        """The ``instance`` of the node for ``key``."""
        rt = self.runtime
        native = rt._native
        if native is None:
            return self._get(key, "instance")
        label = native.get_node(key if type(key) is str else str(key))
        return None if label is None else rt._nodes[rt._by_label[label]]["instance"]

    get_node_instance = __getitem__

    def get(self, key: Any) -> Any:
        """The conf dict of the node for ``key`` (None on an empty ring)."""
        rt = self.runtime
        native = rt._native
        if native is None:
            return self._get(key, "dict")
        label = native.get_node(key if type(key) is str else str(key))
        return None if label is None else rt._nodes[rt._by_label[label]]

    def get_node(self, key: Any) -> Any:
        """The name of the node for ``key`` (None on an empty ring)."""
        native = self.runtime._native
        if native is None:
            return self._get(key, "nodename")
        label = native.get_node(key if type(key) is str else str(key))
        return None if label is None else self.runtime._by_label[label]

    def get_node_hostname(self, key: Any) -> Any:
        """The ``hostname`` of the node for ``key``."""
        return self._get(key, "hostname")

    def get_node_port(self, key: Any) -> Any:
        """The ``port`` of the node for ``key``."""
        return self._get(key, "port")

    def get_node_pos(self, key: Any) -> Any:
        """The index in the sorted points of the point that takes ``key``."""
        return self._get(key, "pos")

    def get_node_weight(self, key: Any) -> Any:
        """The ``weight`` of the node for ``key``."""
        return self._get(key, "weight")

    def get_server(self, key: Any) -> Any:
        """``(point, node name)`` for ``key``, as libketama's binding returns."""
        return self._get(key, "tuple")

    def get_key(self, key: Any) -> Any:
        """The hash of ``key`` (``hashi``; hash_ring's name)."""
        return self.hashi(key)

    def get_instances(self) -> List[Any]:
        """The truthy ``instance`` of every node."""
        return [c.get("instance") for c in self.runtime._nodes.values() if c.get("instance")]

    def get_nodes(self) -> KeysView[Any]:
        """The node names."""
        return self.runtime._nodes.keys()

    def get_points(self) -> List[Tuple[Any, Any]]:
        """Every ``(point, node name)``, ascending, as libketama's binding returns."""
        tables = self.runtime.tables()
        return [(k, tables.ring[k]) for k in tables.keys]

    def iterate_nodes(self, key: Any, distinct: bool = True) -> Generator[Any, None, None]:
        """hash_ring's generator: node names from ``key``'s point around the ring once
        (``None`` once on an empty ring)."""
        found, _ = self._nodename(key)
        if not found:
            yield None
        else:
            for conf in self.range(key, unique=distinct):
                yield conf["nodename"]

    def range(self, key: Any, size: Optional[int] = None, unique: bool = True) -> Generator[Any, None, None]:
        """Node confs from ``key``'s point around the ring: at most ``size`` of them, each
        node once if ``unique`` (``size`` then defaults to the number of nodes)."""
        rt = self.runtime
        seen_set: set[Any] = set()
        seen_list: List[Any] = []
        if unique:
            size = size or len(rt._nodes)
        if unique and rt._native is not None:
            # The first node natively: pymemcache-style callers usually stop there.
            found, first = rt.node_of(key)
            if not found:
                return
            seen_set.add(first)
            yield rt._nodes[first]
            if len(seen_set) == size:
                return
        tables = rt.tables()
        keys = tables.keys
        pos = rt.pos_of(key)
        for i in chain(range(pos, len(keys)), range(0, pos)):
            name = tables.ring[keys[i]]
            if unique:
                if name in seen_set:
                    continue
                seen_set.add(name)
                count = len(seen_set)
            else:
                seen_list.append(name)
                count = len(seen_list)
            yield rt._nodes[name]
            if count == size:
                return

    def print_continuum(self) -> None:
        """Prints the continuum as libketama's ``ketama_print_continuum`` does."""
        points = self.get_points()
        if points:
            print(f"Numpoints in continuum: {len(points)}")
        else:
            print("Continuum empty")
        for point, node in points:
            print(f"{node} ({point})")

    # -- properties --------------------------------------------------------------------------

    @property
    def conf(self) -> Dict[Any, Dict[str, Any]]:
        """``{node name: conf}``."""
        return self.runtime._nodes

    nodes = conf

    @property
    def distribution(self) -> Counter[Any]:
        """``Counter({node name: points generated})``."""
        return self.runtime.tables().distribution

    @property
    def ring(self) -> Dict[Any, Any]:
        """``{point: node name}``."""
        return self.runtime.tables().ring

    continuum = ring

    @property
    def size(self) -> int:
        """The number of distinct points."""
        return len(self.runtime.tables().ring)

    @property
    def _ring(self) -> Dict[Any, Any]:
        return self.runtime.tables().ring

    @property
    def _nodes(self) -> Dict[Any, Dict[str, Any]]:
        return self.runtime._nodes

    @property
    def _keys(self) -> List[Any]:
        return self.runtime.tables().keys


from ketama.uhashring import monkey  # noqa: E402  (the module needs HashRing defined)
