"""Perl memcached clients observed live (see README.md). Run ONLY by generate.sh, inside
`unshare --net --mount`: a private network namespace whose loopback device carries every
case address (10.x, 172.16.x, 192.168.x, 2001:db8::x, ...) and a private /etc/hosts that maps
each host name to a 127.77.0.x address (localhost to 127.0.0.1). A stand-in listens on every
case address:port (standin.py); the client is given the case's own address strings, so what
it hashes is exactly the file's host and port; each key is set to its index and the stand-in
that received it names the server.

Usage: python3 live.py FAST_VERSION FAST_DEB CM_VERSION CM_DEB STRING_CRC32_VERSION PERL
"""
import ipaddress
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
import shard_inputs as S  # noqa: E402
from standin import StandIns  # noqa: E402

GEN = "tests/oracles/perl-memcached/live.py"
FAST_V, FAST_DEB, CM_V, CM_DEB, CRC_V, PERL = sys.argv[1:7]
LIVE = ("observed live: every server a loopback stand-in at the case's own address "
        "(private network namespace, host names in a private /etc/hosts) answering STORED; "
        "set(key, i) for every key, the key as its UTF-8 bytes; expect = the stand-in that "
        "received the key (each key reached exactly one, every set returned true)")
PROFILES = {
    "cache-memcached-fast": (
        "fast", 150,
        "Cache::Memcached::Fast %s (Debian libcache-memcached-fast-perl %s, %s): "
        "Cache::Memcached::Fast->new({servers => [{address => 'host:port', weight => W}, ...], "
        "ketama_points => 150, connect_timeout => 5, io_timeout => 5}), no namespace; IPv6 "
        "given as 'addr:port' (no brackets: the client splits at the last ':' and connects to "
        "the host part as it is); " + LIVE),
    "cache-memcached-fast-compat": (
        "fast", 0,
        "Cache::Memcached::Fast %s (Debian libcache-memcached-fast-perl %s, %s): "
        "Cache::Memcached::Fast->new({servers => [{address => 'host:port', weight => W}, ...], "
        "ketama_points => 0, connect_timeout => 5, io_timeout => 5}), no namespace; IPv6 "
        "given as 'addr:port' (no brackets); " + LIVE),
    "cache-memcached": (
        "cm", None,
        "Cache::Memcached %s (Debian libcache-memcached-perl %s, String::CRC32 %s, Socket6 for "
        "IPv6, %s): Cache::Memcached->new({servers => [['host:port', W], ...], "
        "connect_timeout => 5, select_timeout => 5}) (a lone server as the plain 'host:port' "
        "string: 1.30 dies on a lone ['host:port', W]), no namespace; IPv6 given as "
        "'[addr]:port'; 0 connect failures asserted; " + LIVE),
}


def sets():
    """(name, servers, keys, profiles). Cache::Memcached::Fast refuses a weight of 0 ('Server
    weight should be positive'), so the zero-weight set is Cache::Memcached's only; its
    ketama mode makes 150 * weight points a server (inserted one by one), so the sets with
    weights in the thousands over many servers are the compatible modes' only."""
    full, small = S.keys_full(), S.keys_small()
    every = tuple(PROFILES)
    compat = ("cache-memcached-fast-compat", "cache-memcached")
    weighted = dict(S.weighted_sets(port=11211))
    rng_weights = [(i * 7919) % 500 + 1 for i in range(150)]
    out = [
        ("one", [S.server("10.0.0.1", 11211)], full, every),
        ("one-weighted", [S.server("10.0.0.9", 11299, 7)], small, every),
        ("two", [S.server("10.0.0.1", 11211), S.server("10.0.0.2", 11211)], full, every),
        ("three", [S.server("10.0.0.%d" % i, 11211) for i in (1, 2, 3)], small, every),
        ("ten-mixed", S.ten_mixed(port=11211), full, every),
        ("hundred-fifty", S.many(150, port=11211), full, every),
        ("hostnames", S.hostnames(11211), small, every),
        ("ipv6", S.ipv6(11211), small, every),
        ("same-host", S.same_host(11211), small, every),
        ("weighted", weighted["weighted"], small, every),
        ("skewed", weighted["skewed"], small, every),
        ("libketama-weights", weighted["libketama-weights"], small, every),
        ("three-weighted", weighted["three-weighted"], small, every),
        ("hundred-fifty-weighted", [S.server(s["host"], s["port"], i % 5 + 1) for i, s in
                                    enumerate(S.many(150, port=11211))], small, every),
        ("zero-weight", weighted["zero-weight"], small, ("cache-memcached",)),
        ("large-weights", [S.server("10.11.0.1", 11211, 1000000), S.server("10.11.0.2", 11211, 1),
                           S.server("10.11.0.3", 11211, 3), S.server("10.11.0.4", 11212, 70000)],
         small, compat),
        ("hundred-fifty-heavy", [S.server(s["host"], s["port"], w) for s, w in
                                 zip(S.many(150, base="10.12", port=11211), rng_weights)],
         full, compat),
    ]
    return out


def address(kind, s):
    """The address string the client is given (the file's host and port)."""
    if ":" in s["host"] and kind == "fast":
        return "%s:%d" % (s["host"], s["port"])
    if ":" in s["host"]:
        return "[%s]:%d" % (s["host"], s["port"])
    return "%s:%d" % (s["host"], s["port"])


def setup_namespace(all_servers):
    """Loopback up, every IP literal on it, host names in a private /etc/hosts.
    Returns host -> IP the stand-in listens on."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    where, lines = {}, []
    for s in all_servers:
        h = s["host"]
        if h in where:
            continue
        try:
            ip = ipaddress.ip_address(h)
        except ValueError:
            addr = "127.0.0.1" if h == "localhost" else "127.77.0.%d" % (len(lines) + 1)
            lines.append("%s %s" % (addr, h))
            where[h] = addr
            continue
        where[h] = str(ip)
        if ip.is_loopback:
            continue
        if ip.version == 6:
            subprocess.run(["ip", "-6", "addr", "add", "%s/128" % ip, "dev", "lo", "nodad"],
                           check=True)
        else:
            subprocess.run(["ip", "addr", "add", "%s/32" % ip, "dev", "lo"], check=True)
    hosts = tempfile.NamedTemporaryFile("w", suffix=".hosts", delete=False)
    hosts.write("\n".join(lines) + "\n")
    hosts.close()
    subprocess.run(["mount", "--bind", hosts.name, "/etc/hosts"], check=True)
    return where


def run_job(standins, where, kind, points, servers, keys):
    with tempfile.NamedTemporaryFile("w", suffix=".job", delete=False, encoding="ascii") as f:
        f.write("C %s %s\n" % (kind, points if points is not None else ""))
        for s in servers:
            f.write("S %s %d\n" % (address(kind, s), s["weight"]))
        for k in keys:
            f.write("K %s\n" % k.encode("utf-8").hex())
        path = f.name
    try:
        out = subprocess.run(["perl", os.path.join(HERE, "driver.pl"), path], check=True,
                             stdout=subprocess.PIPE).stdout.decode("ascii").split("\n")
    finally:
        os.unlink(path)
    ok, tail = out[:len(keys)], out[len(keys)]
    assert tail == "connect_failures 0", tail
    log, errors = standins.take()
    assert not errors, errors[:5]
    label = {(where[s["host"]], s["port"]): s["label"] for s in servers}
    assert len(label) == len(servers)
    got = [[] for _ in keys]
    for ip, port, data in log:
        got[int(data)].append(label[(ip, port)])
    expect = []
    for k, okay, g in zip(keys, ok, got):
        assert okay == "1" and len(g) == 1, (k, okay, g)
        expect.append(g[0])
    return expect


def main():
    todo = sets()
    for _, servers, keys, _ in todo:
        assert not any("\r\n" in k for k in keys)
    where = setup_namespace([s for _, servers, _, _ in todo for s in servers])
    standins = StandIns((where[s["host"]], s["port"]) for _, servers, _, _ in todo
                        for s in servers)
    try:
        results = {}
        for profile, (kind, points, source) in PROFILES.items():
            what = (source % (FAST_V, FAST_DEB, PERL) if kind == "fast"
                    else source % (CM_V, CM_DEB, CRC_V, PERL))
            for name, servers, keys, profiles in todo:
                if profile not in profiles:
                    continue
                expect = run_job(standins, where, kind, points, servers, keys)
                results[(profile, name)] = expect
                S.write("%s-%s.json" % (profile, name), what, GEN, profile, servers, keys,
                        expect)
        cross_check(results)
    finally:
        standins.close()


def cross_check(results):
    """Print where the compatible mode agrees with Cache::Memcached (informational)."""
    for (profile, name), expect in sorted(results.items()):
        if profile != "cache-memcached-fast-compat":
            continue
        other = results.get(("cache-memcached", name))
        if other is not None:
            diff = sum(a != b for a, b in zip(expect, other))
            print("cross-check %s: compat vs cache-memcached: %d of %d keys differ"
                  % (name, diff, len(expect)))


if __name__ == "__main__":
    main()
