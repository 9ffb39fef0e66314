"""The Python API: constructors, verbs, properties, errors, pickling, version."""

from __future__ import annotations

import copy
import json
import pickle
import re
from typing import Any

import pytest

import ketama
from conftest import REPO

SERVERS = ["10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11212"]


def test_version_matches_the_workspace() -> None:
    text = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    m = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', text, re.M | re.S)
    assert m, "workspace version not found"
    assert ketama.__version__ == m.group(1)
    assert ketama.CORE_VERSION == m.group(1)
    from importlib.metadata import version

    assert version("ketama") == m.group(1)


def test_all_is_explicit_and_complete() -> None:
    for name in ketama.__all__:
        assert hasattr(ketama, name), name
    for name in ("Ring", "hash", "profiles", "hashes", "hasher", "KetamaHasher", "KetamaError"):
        assert name in ketama.__all__


def test_server_forms_agree() -> None:
    plain = ketama.Ring(SERVERS)
    pairs = ketama.Ring([(s, 1) for s in SERVERS])
    triples = ketama.Ring([(s, 1, None) for s in SERVERS])
    mapping = ketama.Ring({s: 1 for s in SERVERS})
    generator = ketama.Ring(s for s in SERVERS)
    keys = [f"key{i}" for i in range(500)]
    want = plain.get_many(keys)
    for ring in (pairs, triples, mapping, generator):
        assert ring.servers == SERVERS
        assert ring.get_many(keys) == want


def test_defaults_and_properties() -> None:
    ring = ketama.Ring(SERVERS)
    assert ring.profile == "libketama"
    assert ring.hash == "md5"
    assert len(ring) == 3
    assert list(ring) == SERVERS
    assert ring.weights == {s: 1 for s in SERVERS}
    assert "10.0.0.1:11211" in ring
    assert "10.0.0.9:11211" not in ring
    assert 42 not in ring
    assert ketama.Ring().servers == []
    assert ketama.Ring(None, "php-memcached").profile == "libmemcached-weighted"  # alias


def test_repr() -> None:
    r = repr(ketama.Ring(SERVERS + ["10.0.0.4:11211"], "php-memcached"))
    assert r.startswith("<Ring profile='libmemcached-weighted' hash='md5' servers=4 ")
    assert "'10.0.0.1:11211'" in r and "1 more" in r


def test_get_str_and_bytes_agree() -> None:
    ring = ketama.Ring(SERVERS)
    for key in ["user:1", "é", "日本語", "😀", "", "x" * 250]:
        label = ring.get(key)
        assert label in SERVERS
        assert ring.get(key.encode("utf-8")) == label
        assert ring.get(bytearray(key.encode("utf-8"))) == label
        assert ring.get(memoryview(key.encode("utf-8"))) == label
        assert ring.key_hash(key) == ketama.hash(key, "md5")


def test_get_many_matches_get_on_both_sides_of_the_threshold() -> None:
    ring = ketama.Ring(SERVERS, "libmemcached")
    t = ketama._ketama.DETACH_THRESHOLD
    for count in (0, 1, t - 1, t, t + 1, 5000):
        keys = [f"k{i}" for i in range(count)]
        want = [ring.get(k) for k in keys]
        assert ring.get_many(keys) == want
        assert ring.get_many(iter(keys)) == want
        assert ring.get_many(tuple(keys)) == want
        assert ring.get_many(k for k in keys) == want
        assert ring.get_many(dict.fromkeys(keys)) == want  # any iterable: a dict's keys
        assert ring.get_many([k.encode() for k in keys]) == want  # bytes keys too


def test_every_lookup_returns_the_one_str_of_its_server() -> None:
    """No new string per key: get, get_node and get_many hand out each server's own str."""
    ring = ketama.Ring(SERVERS, "php-memcached")
    keys = [f"user:{i}:profile" for i in range(300)]
    labels = {id(s): s for s in ring.servers}
    for batch in (keys[:10], keys):  # below and above the detach threshold
        for k, label in zip(batch, ring.get_many(batch)):
            assert label is not None and id(label) in labels
            assert ring.get(k) is label
            assert ring.get_node(k) is label


def test_get_n_and_failover() -> None:
    ring = ketama.Ring(SERVERS)
    for key in ["a", "b", "c"]:
        two = ring.get_n(key, 2)
        assert len(two) == 2 and len(set(two)) == 2 and two[0] == ring.get(key)
        assert sorted(ring.get_n(key, 10)) == sorted(SERVERS)
        assert ring.get_n(key, 0) == []
        assert ring.failover(key, 3)[0] == ring.get(key)


def test_add_remove_set_weight_change_placement_incrementally() -> None:
    ring = ketama.Ring(SERVERS[:2])
    ring.add(SERVERS[2])
    assert ring.servers == SERVERS
    assert ring.get_many(["a", "b", "c"]) == ketama.Ring(SERVERS).get_many(["a", "b", "c"])
    ring.remove(SERVERS[0])
    assert ring.servers == SERVERS[1:]
    keys = [str(i) for i in range(1000)]
    assert ring.get_many(keys) == ketama.Ring(SERVERS[1:]).get_many(keys)
    ring.set_weight(SERVERS[1], 5)
    assert ring.weights[SERVERS[1]] == 5
    assert ring.get_many(keys) == ketama.Ring({SERVERS[1]: 5, SERVERS[2]: 1}).get_many(keys)
    ring.add("10.0.0.9:11211", 3)
    assert ring.weights["10.0.0.9:11211"] == 3


def test_points() -> None:
    ring = ketama.Ring(SERVERS)
    pts = ring.points()
    assert len(pts) == 3 * 160
    assert pts == sorted(pts, key=lambda p: p[0])
    assert {label for _, label in pts} == set(SERVERS)
    assert all(isinstance(p, int) and 0 <= p < 2**32 for p, _ in pts)
    assert ketama.Ring(SERVERS, "modula").points() == []


def test_module_functions() -> None:
    assert ketama.hash("apple", "KETAMA_HASH") == 3195025439
    assert ketama.hash(b"apple", "md5") == 3195025439
    assert ketama.hash("apple", "one_at_a_time") == 2297466611
    profiles = ketama.profiles()
    for name in ["libketama", "libmemcached", "php-memcached", "spymemcached", "uhashring", "uhashring-ketama", "modula"]:
        assert name in profiles and profiles[name]
    hashes = ketama.hashes()
    for name in ["md5", "one_at_a_time", "crc", "crc32a", "fnv1a_32", "murmur"]:
        assert name in hashes and hashes[name]
    aliases = ketama.hash_aliases()
    assert aliases["KETAMA_HASH"] == "md5"
    for alias in aliases:
        ketama.hash("x", alias)  # every alias is accepted
    for name in hashes:
        assert isinstance(ketama.hash("x", name), int)


def test_profile_aliases_name_the_row_lookup_by_name_finds() -> None:
    # Each alias in profiles() says which row it belongs to; a ring made with the alias must
    # be that row (an alias on two rows made them disagree).
    for name, text in ketama.profiles().items():
        if text.startswith("alias of "):
            assert ketama.Ring(None, name).profile == text[len("alias of "):], name
        else:
            assert ketama.Ring(None, name).profile == name


def test_uhashring_style_aliases() -> None:
    ring = ketama.Ring([], "uhashring-ketama")
    assert ring.get_node("anything") is None  # empty ring: None, as pymemcache needs
    ring.add_node("node1")
    ring.add_node("node2", {"weight": 2})
    ring.add_node("node3", 3)
    assert ring.weights == {"node1": 1, "node2": 2, "node3": 3}
    assert ring.get_node("coconut") == ring.get("coconut")
    assert ring.get_node(12345) == ring.get("12345")  # non-str keys hashed as str(key)
    ring.remove_node("node2")
    assert ring.servers == ["node1", "node3"]


# ---- errors -------------------------------------------------------------------------------

# core's errors as spec/errors.json lists them: name, message and kind.
CORE_ERRORS = [
    e for e in json.loads((REPO / "spec" / "errors.json").read_text(encoding="utf-8"))["errors"]
    if e["core"]
]
BASE = {"input": ValueError, "not_found": KeyError, "no_answer": LookupError}


def test_error_list_is_cores() -> None:
    """One class per core error, no other: a core error added or renamed fails here until
    the classes are regenerated (bash tests/gen-tables.sh)."""
    names = [f"{e['name']}Error" for e in CORE_ERRORS]
    assert ketama._errors.__all__ == ["KetamaError", *names]
    assert [n for n in ketama.__all__ if n.endswith("Error")] == ["KetamaError", *names]
    for e in CORE_ERRORS:
        cls = getattr(ketama, f"{e['name']}Error")
        assert cls.variant == e["name"]
        assert (cls.__doc__ or "").lower().startswith(e["message"][:20].lower())


@pytest.mark.parametrize("e", CORE_ERRORS, ids=[e["name"] for e in CORE_ERRORS])
def test_error_hierarchy(e: dict[str, Any]) -> None:
    cls = getattr(ketama, f"{e['name']}Error")
    # Each error is a KetamaError and the built-in of its kind, directly: no class in between.
    assert cls.__bases__ == (ketama.KetamaError, BASE[e["kind"]])
    assert cls.__module__ == "ketama" and ketama.KetamaError.__module__ == "ketama"
    err = cls("message")
    err.server_index, err.server_label = 2, "10.0.0.3:11211"
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls and back.args == ("message",)
    assert (back.server_index, back.server_label) == (2, "10.0.0.3:11211")
    assert str(back) == "message"


def test_errors_name_the_server_to_blame() -> None:
    """A refusal of one server input says which: its place in the list given and its label
    (core's BuildError, C's failed_index_out); an error no server is to blame for says none."""
    cases: list[tuple[type[ketama.KetamaError], Any, int | None, str]] = [
        (ketama.BadLabelError, lambda: ketama.Ring(["10.0.0.1:1", "bad label", "10.0.0.3:1"]), 1, "bad label"),
        (ketama.DuplicateServerError, lambda: ketama.Ring(["[::1]:1", "10.0.0.2:1", "[0:0::1]:1"]), 2, "[0:0::1]:1"),
        (ketama.BadWeightError, lambda: ketama.Ring({"10.0.0.1:1": 1, "10.0.0.2:1": 0}, "twemproxy"), 1, "10.0.0.2:1"),
        (ketama.BadWeightError, lambda: ketama.Ring([("10.0.0.1:1", 1), ("10.0.0.2:1", -1)]), 1, "10.0.0.2:1"),
        (ketama.UnsupportedError, lambda: ketama.Ring(["10.0.0.1:1", "cache1.lan:1"], "xmemcached-nginx"), 1, "cache1.lan:1"),
        (ketama.InvalidUtf8Error, lambda: ketama.Ring(["10.0.0.1:1", "10.0.0.2:1\ud800"]), 1, "10.0.0.2:1\ud800"),
        (ketama.MissingServerError, lambda: ketama.Ring(SERVERS).remove("10.9.9.9:1"), None, "10.9.9.9:1"),
        (ketama.DuplicateServerError, lambda: ketama.Ring(SERVERS).add(SERVERS[1]), None, SERVERS[1]),
        (ketama.BadLabelError, lambda: ketama.Ring(SERVERS).add("x:0"), None, "x:0"),
    ]
    for cls, call, index, label in cases:
        with pytest.raises(cls) as info:
            call()
        assert (info.value.server_index, info.value.server_label) == (index, label), cls
    with pytest.raises(ketama.EmptyRingError) as empty:
        ketama.Ring([]).get("k")
    assert (empty.value.server_index, empty.value.server_label) == (None, None)


def test_strings_that_are_not_unicode_are_refused() -> None:
    """A str holding an unpaired surrogate has no UTF-8: it is refused with InvalidUtf8Error
    (keys, labels, names, option values, profile and hash names), as in every binding; the
    same key given as bytes is hashed as it is."""
    ring = ketama.Ring(SERVERS)
    calls: list[Any] = [
        lambda: ring.get("k\ud800"),
        lambda: ring.get_many(["a", "k\udc80"]),
        lambda: ring.key_hash("\ud800k"),
        lambda: ketama.hash("\ud800", "md5"),
        lambda: ring.add("10.0.0.9:1\ud800"),
        lambda: ring.add("10.0.0.9:1", 1, "n\ud800"),
        lambda: ring.remove("10.0.0.1:11211\ud800"),
        lambda: ketama.Ring([("10.0.0.1:1", 1, "n\udfff")], "twemproxy"),
        lambda: ketama.Ring([], "lib\ud800"),
        lambda: ketama.Ring([], "libketama", "md\ud800"),
        lambda: ketama.Ring([], "twemproxy", hash_tag="{\ud800"),
    ]
    for i, call in enumerate(calls):
        with pytest.raises(ketama.InvalidUtf8Error, match="unpaired surrogate"):
            call()
        assert ring.servers == SERVERS, i
    assert ring.get("k\ud800".encode("utf-8", "surrogatepass")) in SERVERS


def raises(cls: type[BaseException], fn: Any, *args: Any, match: str | None = None) -> None:
    with pytest.raises(cls, match=match):
        fn(*args)


def test_unknown_names() -> None:
    raises(ketama.UnknownProfileError, ketama.Ring, [], "nope", match="'nope'")
    raises(ketama.UnknownHashError, ketama.Ring, [], "libketama", "nope", match="'nope'")
    raises(ketama.UnknownHashError, ketama.hash, "k", "nope")
    raises(ketama.AmbiguousHashError, ketama.hash, "k", "crc32", match="crc32a")
    raises(ketama.UnknownProfileError, ketama.hasher, "nope")
    raises(ketama.UnknownHashError, ketama.hasher, "libketama", "nope")
    # Profiles resolve "crc32" to their client's CRC.
    assert ketama.Ring([], "twemproxy", "crc32").hash == "crc"
    assert ketama.Ring([], "pecl-memcache", "crc32").hash == "crc32a"


def test_bad_labels() -> None:
    for label in ["", "host name", "[::1", "[::1]x", "host:99999", "host:", "tab\tbed"]:
        raises(ketama.BadLabelError, ketama.Ring, [label])
        raises(ketama.BadLabelError, ketama.Ring().add, label)


def test_bad_weights() -> None:
    raises(ketama.BadWeightError, ketama.Ring, [("a:1", -1)], match="-1")
    raises(ketama.BadWeightError, ketama.Ring, {"a:1": 2**32})
    raises(ketama.BadWeightError, ketama.Ring().add, "a:1", -5)
    raises(TypeError, ketama.Ring, [("a:1", 1.5)])
    raises(TypeError, ketama.Ring, [("a:1", True)])
    raises(TypeError, ketama.Ring, [("a:1", "2")])
    ring = ketama.Ring(["a:1"])
    raises(ketama.BadWeightError, ring.set_weight, "a:1", -1)
    raises(ketama.MissingServerError, ring.set_weight, "b:1", 1)
    assert ring.weights == {"a:1": 1}


def test_zero_weight_where_the_client_rejects_it() -> None:
    # The core decides per profile; whatever it says, a failed add leaves the ring unchanged.
    for profile in ketama.profiles():
        ring = ketama.Ring(["10.0.0.1:11211"], profile)
        keys = [f"k{i}" for i in range(100)]
        before = [ring.get_node(k) for k in keys]
        try:
            ring.add("10.0.0.2:11211", 0)
        except ketama.BadWeightError:
            assert ring.servers == ["10.0.0.1:11211"]
            assert [ring.get_node(k) for k in keys] == before


def test_duplicate_and_missing_servers() -> None:
    raises(ketama.DuplicateServerError, ketama.Ring, ["a:1", "b:1", "a:1"], match="'a:1'")
    ring = ketama.Ring(["a:1", "b:1"])
    raises(ketama.DuplicateServerError, ring.add, "a:1")
    raises(ketama.MissingServerError, ring.remove, "c:1")
    raises(KeyError, ring.remove_node, "c:1")
    assert ring.servers == ["a:1", "b:1"]
    assert str(ketama.MissingServerError("no such")) == "no such"  # not quoted like KeyError


def test_empty_ring() -> None:
    ring = ketama.Ring()
    raises(ketama.EmptyRingError, ring.get, "k")
    raises(LookupError, ring.get, "k")
    raises(ketama.EmptyRingError, ring.get_many, ["k"])
    raises(ketama.EmptyRingError, ring.get_n, "k", 2)
    assert ring.get_many([]) == []
    assert ring.get_node("k") is None
    assert ring.points() == []
    ring.add("a:1")
    ring.remove("a:1")
    raises(ketama.EmptyRingError, ring.get, "k")


def test_key_rejected_and_unsupported() -> None:
    ring = ketama.Ring(["10.0.0.1:11211", "10.0.0.2:11211"], "xmemcached", "KETAMA_HASH")
    raises(ketama.KeyRejectedError, ring.get, "")
    raises(ValueError, ring.get, "")
    raises(ketama.KeyRejectedError, ring.get_node, "")
    # The refusal rule: a batch reports a refused key as None, and goes on.
    assert ring.get_many(["a", ""]) == [ring.get("a"), None]
    big = ["k%d" % i for i in range(2000)] + [""]
    assert ring.get_many(big)[-1] is None  # the detached path too
    assert None not in ring.get_many(big)[:-1]
    raises(ketama.UnsupportedError, ketama.Ring, ["cache1.example:11211"], "xmemcached-nginx")
    hashed = ketama.Ring.from_points([(1, "a:1"), (2, "b:1")], hash=lambda key: 1)
    raises(ketama.NeedsKeyError, hashed.locate_alive, "k", [])


def test_type_errors() -> None:
    ring = ketama.Ring(SERVERS)
    for bad in [1, 1.5, None, ["k"], object()]:
        raises(TypeError, ring.get, bad)
        raises(TypeError, ring.get_many, [bad])
        raises(TypeError, ring.get_n, bad, 1)
        raises(TypeError, ketama.hash, bad, "md5")
    raises(TypeError, ring.get_many, "abc")  # a single str is not a batch
    raises(TypeError, ring.get_many, b"abc")
    raises(TypeError, ring.get_many, 5)
    raises(TypeError, ketama.Ring, "10.0.0.1:11211")  # a single label is not a list
    raises(TypeError, ketama.Ring, [42])
    raises(TypeError, ketama.Ring, [("a:1",)])
    raises(TypeError, ketama.Ring, [("a:1", 1, 2)])
    raises(TypeError, ketama.Ring, 42)
    raises(OverflowError, ring.get_n, "k", -1)
    raises(ketama.InvalidUtf8Error, ring.get, "\ud800")  # lone surrogate: no UTF-8


# ---- pickling / copying -------------------------------------------------------------------


@pytest.mark.parametrize("profile,hash", [("libketama", None), ("spymemcached", "FNV1A_32_HASH"), ("twemproxy", "crc32"), ("modula", None)])
def test_pickle_round_trip(profile: str, hash: str | None) -> None:
    ring = ketama.Ring([("10.0.0.1:11211", 1, "one"), ("10.0.0.2:11211", 3, None), "10.0.0.3:11300"], profile, hash)
    keys = [f"k{i}" for i in range(2000)]
    for clone in (pickle.loads(pickle.dumps(ring, protocol=p)) for p in range(2, pickle.HIGHEST_PROTOCOL + 1)):
        assert type(clone) is ketama.Ring
        assert (clone.profile, clone.hash, clone.servers, clone.weights) == (ring.profile, ring.hash, ring.servers, ring.weights)
        assert clone.get_many(keys) == ring.get_many(keys)
        assert clone.points() == ring.points()
    c = copy.copy(ring)
    d = copy.deepcopy(ring)
    ring.remove("10.0.0.1:11211")  # copies are independent
    assert len(c) == len(d) == 3


def test_pickle_hasher_class() -> None:
    cls = ketama.hasher("php-memcached")
    h = cls()
    h.add_node("127.0.0.1:11211")
    h.add_node("::1:11212")
    clone = pickle.loads(pickle.dumps(h))
    assert type(clone) is cls
    keys = [f"k{i}" for i in range(500)]
    assert [clone.get_node(k) for k in keys] == [h.get_node(k) for k in keys]
    assert "::1:11212" in {h.get_node(k) for k in keys}


def test_module_docstring_examples() -> None:
    import doctest

    failed, tried = doctest.testmod(ketama, verbose=False)
    assert tried > 0 and failed == 0


def test_every_core_error_has_its_own_exception() -> None:
    from ketama import _ketama

    pairs = _ketama._error_classes()
    assert len(pairs) >= 22
    for variant, cls in pairs:
        assert cls is not None and cls != "KetamaError", variant
        assert hasattr(ketama, cls), cls
    classes = [cls for _, cls in pairs]
    assert len(set(classes)) == len(classes), "two core errors share one exception class"


# ---- subclasses --------------------------------------------------------------------------


class _Tagged(ketama.Ring):
    """A subclass with instance attributes and an ``__init__`` taking an extra argument."""

    def __init__(self, servers: list[str], tag: str, profile: str = "libketama") -> None:
        super().__init__(servers, profile)
        self.tag = tag


class _CustomNew(ketama.Ring):
    """A subclass whose ``__new__`` takes other arguments than ``Ring``'s."""

    def __new__(cls, count: int) -> _CustomNew:
        return super().__new__(cls, [f"10.0.0.{i}:11211" for i in range(1, count + 1)])


def test_subclass_init_with_extra_argument() -> None:
    r = _Tagged(SERVERS, "blue")
    assert (r.tag, r.servers, r.profile) == ("blue", SERVERS, "libketama")
    assert r.get("k") == ketama.Ring(SERVERS).get("k")
    assert _Tagged(SERVERS, "x", "php-memcached").profile == ketama.Ring([], "php-memcached").profile
    with pytest.raises(ketama.UnknownProfileError, match="nope"):
        _Tagged(SERVERS, "x", "nope")
    with pytest.raises(TypeError):
        ketama.Ring(SERVERS, "libketama", None, "extra")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword"):
        ketama.Ring(SERVERS, tag="x")  # type: ignore[call-arg]


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_subclass_pickle_keeps_attributes(protocol: int) -> None:
    r = _Tagged(SERVERS, "blue")
    r.extra = [1, 2]  # type: ignore[attr-defined]
    clone = pickle.loads(pickle.dumps(r, protocol=protocol))
    assert type(clone) is _Tagged
    assert (clone.tag, clone.extra, clone.servers) == ("blue", [1, 2], SERVERS)  # type: ignore[attr-defined]
    assert clone.points() == r.points()
    c = copy.deepcopy(r)
    assert (c.tag, c.servers) == ("blue", SERVERS)
    c.add("10.0.0.9:11211")
    assert len(r) == 3  # independent


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_subclass_with_custom_new_unpickles(protocol: int) -> None:
    r = _CustomNew(4)
    r.note = "n"  # type: ignore[attr-defined]
    clone = pickle.loads(pickle.dumps(r, protocol=protocol))
    assert type(clone) is _CustomNew
    assert (clone.servers, clone.note) == (r.servers, "n")  # type: ignore[attr-defined]
    assert clone.get_many(["a", "b"]) == r.get_many(["a", "b"])


def test_plain_ring_pickle_has_no_state() -> None:
    fn, args, state = ketama.Ring(SERVERS).__reduce__()
    assert state is None and args[0] is ketama.Ring
