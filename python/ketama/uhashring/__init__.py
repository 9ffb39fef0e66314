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
- A callable ``hash_fn``: the points are hashed in Python by the callable (as uhashring
  does); when every point is an int in 0..2**32-1 they go into a native ring from points
  (:meth:`ketama.Ring.from_points`, uhashring's search: first point above the key's hash,
  wrapping), and each key is hashed by the callable and searched natively (a key whose hash
  is not such an int takes the slow path).
- Node names a ``Ring`` does not take as labels (blanks, a bad port, two names of one
  endpoint, names that are not ``str``), and default-mode point counts that are not a
  multiple of 160: a :class:`ketama.RawRing` over ``str(name)``'s bytes, core's continuum
  over raw names, with the same profile (uhashring hashes ``f"{name}-{i}"`` whatever the
  name is).
- The slow path, used for what no profile describes (weights or vnodes that are not
  integers, ``replicas`` other than 3 or 4, ketama-mode vnodes other than 40, negative point
  counts, names whose ``str`` is the same): the ring is a Python dict of points plus a
  sorted list searched with :func:`bisect.bisect`, as uhashring itself does (same speed as
  uhashring).
- ``get_node`` is, on each instance, the native lookup itself (one call, no Python frame)
  whenever one of the native rings above places the keys.
- The views that expose every point (``ring``/``continuum``, ``get_points``, ``size``,
  ``distribution``, ``get_node_pos``, ``get_server``, the rest of a ``range`` walk) are
  built in Python on first use after a change, then cached.

Node confs are the same dicts uhashring keeps (``conf``/``nodes``); as in uhashring, change
a node through ``add_node``/``ring[name] = conf``, not by editing those dicts.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any, Callable, Dict, Generator, KeysView, List, Optional, Tuple

from ketama.uhashring._runtime import DEFAULT_VNODES, KETAMA_VNODES, KetamaRuntime, MetaRuntime, Runtime

__all__ = ["HashRing", "monkey"]

#: The uhashring release whose behaviour this module reproduces.
__version__ = "2.5"


class HashRing:
    """uhashring's ``HashRing``: a consistent-hashing ring of named nodes with confs."""

    def __init__(self, nodes: Any = [], **kwargs: Any) -> None:  # noqa: B006 (uhashring's signature)
        """Create a ring.

        :param nodes: a node name, a list of names, ``{name: weight}`` or ``{name: conf}``.
        :param hash_fn: ``"ketama"`` for the ketama-compatible ring, or a callable that
            hashes keys and point names (searched natively when its points are 32-bit ints).
        :param replicas: ketama mode: points per md5 digest (default 4).
        :param vnodes: default vnodes per node (160, or 40 in ketama mode).
        :param weight_fn: ``weight_fn(**conf)`` gives each node's weight.
        """
        hash_fn = kwargs.get("hash_fn", None)
        vnodes = kwargs.get("vnodes", None)
        weight_fn = kwargs.get("weight_fn", None)
        self.runtime: Runtime
        if hash_fn == "ketama":
            if vnodes is None:
                vnodes = KETAMA_VNODES
            if "replicas" in kwargs:
                self.runtime = KetamaRuntime(kwargs["replicas"])
            else:
                self.runtime = KetamaRuntime()
        else:
            if vnodes is None:
                vnodes = DEFAULT_VNODES
            self.runtime = MetaRuntime(hash_fn)
        self._default_vnodes = vnodes
        self.hashi: Callable[..., Any] = self.runtime.hashi
        self.runtime._publish.append(self._install_lookup)
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

    def _install_lookup(self, lookup: Any) -> None:
        """Makes ``get_node`` the runtime's native lookup (one native call per key, no Python
        frame) while there is one, unless a subclass overrides ``get_node``."""
        if type(self).get_node is not HashRing.get_node:
            return
        if lookup is None:
            self.__dict__.pop("get_node", None)
        else:
            self.__dict__["get_node"] = lookup.get

    def __getstate__(self) -> Dict[str, Any]:
        """Pickling and ``copy``: the instance without its installed lookup."""
        state = self.__dict__.copy()
        state.pop("get_node", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.runtime._publish.append(self._install_lookup)
        self._install_lookup(self.runtime._lookup)

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
        if rt._raw is not None:
            return rt.raw_node_of(key)
        if rt._explicit is not None:
            return True, rt._explicit(key)
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
        """The name of the node for ``key`` (None on an empty ring). While the ring is native
        (or a callable ``hash_fn``'s points fit 32 bits), each instance's ``get_node`` is the
        runtime's native lookup instead, with the same result."""
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
