"""``ketama.uhashring.HashRing`` against the real uhashring 2.5 (PyPI): the recorded vector
files, then the whole public surface on seeded random rings in both modes, through every
constructor form, conf key, keyword and change sequence, on the native path and the slow
path alike."""

from __future__ import annotations

import contextlib
import copy
import io
import pickle
import random
import zlib
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from conftest import load, vector_files
from ketama.uhashring import HashRing

uhashring = pytest.importorskip("uhashring")

FILES = [p for p in vector_files() if p.name.startswith("uhashring-")]


def test_there_are_uhashring_vector_files() -> None:
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_vector_file(path: Path) -> None:
    v = load(path)
    nodes = {s["label"]: {"hostname": s["host"], "port": s["port"], "weight": s["weight"]} for s in v["servers"]}
    kwargs = {"hash_fn": "ketama"} if v["profile"] == "uhashring-ketama" else {}
    ring = HashRing(nodes, **kwargs)
    assert ring.runtime._native is not None, "these rings must run natively"
    got = [ring.get_node(k) for k in v["keys"]]
    bad = [(k, g, w) for k, g, w in zip(v["keys"], got, v["expect"]) if g != w]
    assert not bad, f"{len(bad)} keys differ, e.g. {bad[:3]}"
    hosts = {s["label"]: s["host"] for s in v["servers"]}
    assert [ring.get_node_hostname(k) for k in v["keys"][:50]] == [hosts[w] for w in v["expect"][:50]]


def surface(ring: Any, keys: list[Any]) -> dict[str, Any]:
    """Everything public a caller can observe (order included where uhashring has one)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ring.print_continuum()
    return {
        "get_node": [ring.get_node(k) for k in keys],
        "get": [ring.get(k) for k in keys],
        "getitem": [ring[k] for k in keys],
        "hostname": [ring.get_node_hostname(k) for k in keys],
        "port": [ring.get_node_port(k) for k in keys],
        "weight": [ring.get_node_weight(k) for k in keys],
        "pos": [ring.get_node_pos(k) for k in keys],
        "server": [ring.get_server(k) for k in keys],
        "hashi": [ring.hashi(k) for k in keys],
        "get_key": [ring.get_key(k) for k in keys],
        "range": [list(ring.range(k)) for k in keys[:20]],
        "range2": [list(ring.range(k, size=2)) for k in keys[:20]],
        "range_all": [list(ring.range(k, size=5, unique=False)) for k in keys[:5]],
        "iterate": [list(ring.iterate_nodes(k)) for k in keys[:10]],
        "iterate_all": [len(list(ring.iterate_nodes(k, distinct=False))) for k in keys[:3]],
        "nodes": list(ring.get_nodes()),
        "conf": ring.conf,
        "instances": ring.get_instances(),
        "points": ring.get_points(),
        "ring": ring.ring,
        "continuum": ring.continuum,
        "size": ring.size,
        "distribution": dict(ring.distribution),
        "print": out.getvalue(),
    }


def assert_same(ours: Any, theirs: Any, keys: list[Any], where: str = "") -> None:
    a, b = surface(ours, keys), surface(theirs, keys)
    for name in b:
        assert a[name] == b[name], f"{where}{name} differs"


def random_name(rng: random.Random, odd: bool = False) -> Any:
    """A node name; ``odd`` also gives names the native ring refuses (slow path)."""
    kind = rng.randrange(6 if odd else 4)
    if kind == 0:
        return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}:{rng.randrange(1024, 65536)}"
    if kind == 1:
        return f"cache-{rng.randrange(10**6)}.example.com"
    if kind == 2:
        return f"node{rng.randrange(10**4)}"
    if kind == 3:
        return rng.randrange(1000)  # uhashring takes any hashable name
    if kind == 4:
        return f"node {rng.randrange(100)}"  # a name our labels reject: slow path
    return f"192.0.2.{rng.randrange(1, 255)}"


def random_keys(rng: random.Random, n: int) -> list[Any]:
    keys: list[Any] = [str(rng.randrange(10**9)) for _ in range(n)]
    keys += ["", "é", "日本語", "😀", 42, 3.5, (1, 2), b"bytes", None]
    return keys


def random_conf(rng: random.Random, vnodes_choices: list[int]) -> Any:
    kind = rng.randrange(3)
    weight = rng.choice([0, 1, 1, 1, 2, 3, 5])
    if kind == 0:
        return weight
    conf: dict[str, Any] = {"weight": weight, "hostname": f"h{rng.randrange(100)}", "port": rng.randrange(1, 65536)}
    if kind == 2:
        conf["vnodes"] = rng.choice(vnodes_choices)
        conf["instance"] = f"inst{rng.randrange(100)}"
    return conf


MODES: list[tuple[str, dict[str, Any], list[int]]] = [
    ("default", {}, [160, 320, 80]),
    ("default-odd-vnodes", {}, [160, 7]),
    ("default-vnodes80", {"vnodes": 80}, [160, 80]),
    ("ketama", {"hash_fn": "ketama"}, [40]),
    ("ketama-vnodes", {"hash_fn": "ketama"}, [40, 20, 41]),
    ("ketama-replicas3", {"hash_fn": "ketama", "replicas": 3}, [40]),
    ("ketama-replicas2", {"hash_fn": "ketama", "replicas": 2}, [40]),
    ("default-hash_fn", {"hash_fn": lambda k: hash(str(k)) & 0xFFFFFFFF}, [160, 10]),
    # points fit 32 bits, some keys' hashes do not: those keys take uhashring's bisection
    ("hash_fn-wide-keys", {"hash_fn": lambda k: zlib.crc32(str(k).encode()) * (1 if "-" in str(k) else 3)}, [160, 10]),
    # some points do not fit 32 bits: the whole ring stays in Python
    ("hash_fn-wide-points", {"hash_fn": lambda k: hash(str(k)) & 0x1FFFFFFFF}, [160, 10]),
]


def build_nodes(rng: random.Random, count: int, vnodes_choices: list[int], ketama_mode: bool, odd: bool) -> Any:
    kind = rng.randrange(3)
    names: list[Any] = []
    while len(names) < count:
        n = random_name(rng, odd)
        if n not in names and str(n) not in [str(x) for x in names]:
            names.append(n)
    if kind == 0:
        return names
    nodes = {n: random_conf(rng, vnodes_choices) for n in names}
    if ketama_mode:
        total = sum(c if isinstance(c, int) else c["weight"] for c in nodes.values())
        if total == 0:
            nodes[names[0]] = 1  # uhashring's ketama ring divides by the weight sum
    return nodes


CASES = [(m, seed) for m in range(len(MODES)) for seed in range(4)]


@pytest.mark.parametrize("mode,seed", CASES, ids=[f"{MODES[m][0]}-{s}" for m, s in CASES])
def test_random_rings_whole_surface(mode: int, seed: int) -> None:
    name, kwargs, vnodes_choices = MODES[mode]
    rng = random.Random(seed * 100 + mode)
    ketama_mode = kwargs.get("hash_fn") == "ketama"
    odd = seed % 3 == 0
    nodes = build_nodes(rng, rng.choice([1, 2, 3, 8, 20]), vnodes_choices, ketama_mode, odd)
    keys = random_keys(rng, 200)
    ours = HashRing(nodes, **kwargs)
    theirs = uhashring.HashRing(nodes, **kwargs)
    assert_same(ours, theirs, keys, f"{name} built: ")
    pool = [random_name(rng, odd) for _ in range(10)]
    for step in range(8):
        present = list(theirs.get_nodes())
        action = rng.randrange(4)
        if action == 0 and len(present) > 1:
            victim = rng.choice(present)
            rest = [theirs.conf[p]["weight"] for p in present if p != victim]
            if ketama_mode and sum(rest) == 0:
                continue  # uhashring would divide by zero and keep a stale ring
            assert outcome(lambda: theirs.remove_node(victim)) == outcome(lambda: ours.remove_node(victim))
        elif action == 1 and present:
            target = rng.choice(present)
            conf = random_conf(rng, vnodes_choices)
            if ketama_mode and isinstance(conf, int) and conf == 0:
                conf = 2
            if ketama_mode and isinstance(conf, dict) and conf["weight"] == 0:
                conf["weight"] = 2
            theirs[target] = conf
            ours[target] = conf
        else:
            new = rng.choice(pool)
            if new in present or str(new) in [str(p) for p in present]:
                continue
            theirs.add_node(new)
            ours.add_node(new)
        assert_same(ours, theirs, keys, f"{name} step {step}: ")


def test_native_and_slow_paths_are_both_exercised() -> None:
    assert HashRing(["a:1", "b:2"]).runtime._native is not None
    assert HashRing(["a:1", "b:2"], hash_fn="ketama").runtime._native is not None
    assert HashRing(["a:1", "b:2"], hash_fn="ketama", replicas=3).runtime._native is not None
    assert HashRing({"a:1": {"vnodes": 80, "weight": 2}}).runtime._native is not None
    # names a Ring refuses as labels, and point counts it cannot weigh: core's raw ring
    for raw in [
        HashRing(["node 1"]),
        HashRing(["a:1"], vnodes=7),
        HashRing(["cache1:port", "cache2"]),
        HashRing([7, "node 1"]),
        HashRing(["node 1"], hash_fn="ketama"),
        HashRing({"cache1": 1, "a:b:c": 2}, hash_fn="ketama", replicas=3),
    ]:
        assert raw.runtime._native is None and raw.runtime._raw is not None
    # what no profile describes: uhashring's own Python tables
    for slow in [
        HashRing(["a:1"], hash_fn="ketama", vnodes=41),
        HashRing(["a:1"], hash_fn="ketama", replicas=2),
        HashRing([1, "1"]),
    ]:
        assert slow.runtime._native is None and slow.runtime._raw is None
    assert HashRing(["a:1"], hash_fn=lambda k: 1).runtime._native is None


def test_raw_rings_place_as_uhashring_does() -> None:
    keys: list[Any] = [f"key:{i}" for i in range(2000)] + ["", "é", 42, None]
    cases: list[tuple[Any, dict[str, Any]]] = [
        (["node 1", "node 2", "cache1", "cache1:port", 7], {}),
        ({"node 1": 3, "node 2": 1, "x y": 2}, {"hash_fn": "ketama"}),
        ({"node 1": 3, "node 2": 1, "x y": 2}, {"hash_fn": "ketama", "replicas": 3}),
        ({"a:1": {"vnodes": 7, "weight": 3}, "b:2": {"vnodes": 200, "weight": 1}}, {}),
    ]
    for nodes, kwargs in cases:
        ours = HashRing(nodes, **kwargs)
        theirs = uhashring.HashRing(nodes, **kwargs)
        assert ours.runtime._raw is not None
        assert_same(ours, theirs, keys, f"{nodes} {kwargs}: ")
        # a change keeps the raw ring and the agreement
        ours.remove_node("node 2" if "node 2" in ours.get_nodes() else "b:2")
        theirs.remove_node("node 2" if "node 2" in theirs.get_nodes() else "b:2")
        assert ours.runtime._raw is not None
        assert_same(ours, theirs, keys, f"{nodes} {kwargs} after a removal: ")
        again = pickle.loads(pickle.dumps(ours))
        assert again.runtime._raw is not None
        assert [again.get_node(k) for k in keys] == [theirs.get_node(k) for k in keys]


def outcome(action: Callable[[], Any]) -> Optional[type]:
    """The exception type ``action`` raises, or None."""
    try:
        action()
    except Exception as e:  # noqa: BLE001 - the type is what we compare
        return type(e)
    return None


def weight_fn(**conf: Any) -> int:
    return len(str(conf["nodename"])) % 3 + 1


@pytest.mark.parametrize("kwargs", [{}, {"hash_fn": "ketama"}], ids=["default", "ketama"])
def test_weight_fn_and_regenerate(kwargs: dict[str, Any]) -> None:
    state: dict[str, int] = {"bump": 0}

    def changing(**conf: Any) -> int:
        return weight_fn(**conf) + state["bump"] * int(conf["nodename"] == "b:2")

    nodes = ["a:1", "b:2", "ccc:3", "dddd:4"]
    ours = HashRing(nodes, weight_fn=changing, **kwargs)
    theirs = uhashring.HashRing(nodes, weight_fn=changing, **kwargs)
    keys = random_keys(random.Random(7), 300)
    assert_same(ours, theirs, keys)
    state["bump"] = 3
    ours.regenerate()
    theirs.regenerate()
    assert_same(ours, theirs, keys, "after regenerate: ")


@pytest.mark.parametrize("kwargs", [{}, {"hash_fn": "ketama"}], ids=["default", "ketama"])
def test_errors_like_uhashring(kwargs: dict[str, Any]) -> None:
    def raised(make: Callable[[], Any]) -> Optional[type]:
        try:
            make()
        except Exception as e:  # noqa: BLE001 - the type is what we compare
            return type(e)
        return None

    for impl in (HashRing, uhashring.HashRing):
        assert raised(lambda: impl(None, **kwargs)) is ValueError
        assert raised(lambda: impl(("a", "b"), **kwargs)) is ValueError
        assert raised(lambda: impl({"a": "x"}, **kwargs)) is ValueError
        assert raised(lambda: impl(["a"], weight_fn=3, **kwargs)) is TypeError
        assert raised(lambda: impl(["a"], **kwargs).remove_node("b")) is KeyError
    assert raised(lambda: HashRing(["a"], hash_fn=3)) is TypeError
    assert raised(lambda: uhashring.HashRing(["a"], hash_fn=3)) is TypeError
    if kwargs:
        assert raised(lambda: HashRing({"a": 0}, **kwargs)) is ZeroDivisionError
        assert raised(lambda: uhashring.HashRing({"a": 0}, **kwargs)) is ZeroDivisionError


def test_empty_rings_like_uhashring() -> None:
    for kwargs in ({}, {"hash_fn": "ketama"}):
        ours, theirs = HashRing(**kwargs), uhashring.HashRing(**kwargs)
        assert_same(ours, theirs, ["a", "b"])
        ours, theirs = HashRing({"x:1": 0}), uhashring.HashRing({"x:1": 0})
        assert_same(ours, theirs, ["a", "b"])


def test_callable_hash_fn_searches_natively() -> None:
    def crc(key: Any) -> int:
        return zlib.crc32(str(key).encode())

    ring = HashRing(["a:1", "b:1", "node 3"], hash_fn=crc)
    assert ring.runtime._explicit is not None and "get_node" in ring.__dict__
    theirs = uhashring.HashRing(["a:1", "b:1", "node 3"], hash_fn=crc)
    keys = [f"k{i}" for i in range(500)] + [1, 2.5, b"x", None]
    assert [ring.get_node(k) for k in keys] == [theirs.get_node(k) for k in keys]
    assert [ring.get(k) for k in keys] == [theirs.get(k) for k in keys]
    ring.remove_node("a:1")
    theirs.remove_node("a:1")
    assert [ring.get_node(k) for k in keys] == [theirs.get_node(k) for k in keys]
    # a hash that does not fit: the whole ring in Python, get_node the method again
    wide = HashRing(["a:1"], hash_fn=lambda k: crc(k) << 32)
    assert wide.runtime._explicit is None and "get_node" not in wide.__dict__
    assert wide.get_node("x") == "a:1"


def test_get_node_is_the_native_lookup_unless_overridden() -> None:
    ring = HashRing(["a:1", "b:1"])
    assert type(ring.__dict__["get_node"].__self__).__name__ == "_NodeLookup"
    ring.remove_node("a:1")
    ring.remove_node("b:1")
    assert ring.get_node("x") is None
    ring.add_node("node 1")  # not a label the native ring takes: Python path
    assert "get_node" not in ring.__dict__ and ring.get_node("x") == "node 1"

    class Mine(HashRing):
        def get_node(self, key: Any) -> Any:
            return ("mine", super().get_node(key))

    assert Mine(["a:1"]).get_node("x") == ("mine", "a:1")


def crc_hash(key: Any) -> int:
    return zlib.crc32(str(key).encode())


@pytest.mark.parametrize("kwargs", [{}, {"hash_fn": "ketama"}, {"hash_fn": crc_hash}], ids=["default", "ketama", "callable"])
def test_copy_and_pickle_keep_the_native_lookup(kwargs: dict[str, Any]) -> None:
    ring = HashRing({"a:1": 1, "b:1": 2, "c:1": 1}, **kwargs)
    keys = [f"k{i}" for i in range(200)]
    want = [ring.get_node(k) for k in keys]
    for other in (copy.deepcopy(ring), pickle.loads(pickle.dumps(ring))):
        assert "get_node" in other.__dict__
        assert [other.get_node(k) for k in keys] == want
        other.remove_node("a:1")
        assert [other.get_node(k) for k in keys] != want
    assert [ring.get_node(k) for k in keys] == want
    # a shallow copy shares the ring, as in uhashring: a change shows through both
    shallow = copy.copy(ring)
    shallow.remove_node("a:1")
    assert [ring.get_node(k) for k in keys] == [shallow.get_node(k) for k in keys] != want
    assert "a:1" not in {ring.get_node(k) for k in keys}


def test_callable_hash_fn_slow_path() -> None:
    def h(key: Any) -> str:
        return str(key)[::-1] + "_hash"

    nodes = ["172.31.1.0", "172.31.1.125", "172.31.1.202"]
    ours, theirs = HashRing(nodes, hash_fn=h), uhashring.HashRing(nodes, hash_fn=h)
    assert_same(ours, theirs, [str(i) for i in range(100)])


def test_aliases() -> None:
    ring = HashRing(["a:1"])
    assert ring.add_node == ring.__setitem__
    assert ring.remove_node == ring.__delitem__
    assert ring.get_node_instance == ring.__getitem__
    assert ring.continuum == ring.ring and ring.nodes is ring.conf
    assert ring._nodes is ring.conf and ring._keys == sorted(ring._ring)


def test_monkey_patches_python_memcached() -> None:
    memcache = pytest.importorskip("memcache")
    from ketama.uhashring import monkey

    saved = (memcache.Client.__init__, memcache.Client._get_server)
    try:
        monkey.patch_memcache()
        client = memcache.Client(["127.0.0.1:1", "127.0.0.1:2"])
        assert isinstance(client.uhashring, HashRing)
        assert sorted(client.uhashring.get_nodes()) == ["127.0.0.1"]  # named by IP, as uhashring
        assert client._get_server("k") == (None, None)  # nothing listens on ports 1 and 2
    finally:
        memcache.Client.__init__, memcache.Client._get_server = saved


@pytest.mark.parametrize("first", ["a:1", "node 1"])
def test_points_follow_the_conf_of_the_node_s_last_change(first: str) -> None:
    # uhashring remakes a node's points only when that node changes: setting the same weight
    # without vnodes stores vnodes=160 in the conf but keeps the 640 points of vnodes=320,
    # and a later change of another node does not remake them (native ring and raw ring).
    keys = [f"key:{i}" for i in range(3000)]
    nodes: dict[str, Any] = {first: {"vnodes": 320, "weight": 2}, "b:2": 1, "c:3": 1}
    ours, theirs = HashRing(nodes), uhashring.HashRing(nodes)
    for ring in (ours, theirs):
        ring[first] = {"weight": 2}
        ring.remove_node("c:3")
    assert theirs.distribution[first] == 640
    assert_same(ours, theirs, keys)
    for ring in (ours, theirs):
        ring.regenerate()
    assert theirs.distribution[first] == 320
    assert_same(ours, theirs, keys)
