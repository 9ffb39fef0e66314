"""Writes tests/vectors/enyim-*.json (DefaultNodeLocator) and enyim-ketama-*.json
(KetamaNodeLocator) from EnyimMemcached's own locators (EnyimOracle.exe, see README.md), after
a self-test on the spymemcached vectors of Enyim's KetamaTest. Only chooses keys and servers and
formats JSON: every `expect` comes from the driver.
"""
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402
import shard_keys  # noqa: E402

COMMIT, MONO, KETAMA_TEST = sys.argv[1:4]
GEN = "tests/oracles/enyim/generate.sh"
V = F.vectorlib
S = F.server

SETS = {
    "one": V.set_one(),
    "two": V.set_two(),
    "eight-one-host": [S("127.0.0.1", 11211 + i) for i in range(8)],
    "ten-mixed": [S("10.0.1.1", 11211), S("10.0.1.2", 11211), S("10.0.1.3", 12000),
                  S("10.0.1.4", 11212), S("192.168.100.7", 11211), S("172.16.5.9", 21211),
                  S("10.0.1.7", 11311), S("10.0.1.8", 11211), S("10.20.30.40", 1),
                  S("10.0.1.10", 65535)],
    "ipv6": [S("2001:db8::1", 11211, label="[2001:db8::1]:11211"),
             S("2001:db8::2", 11212, label="[2001:db8::2]:11212"),
             S("fd00::a:b", 11311, label="[fd00::a:b]:11311"),
             S("::1", 11211, label="[::1]:11211"), S("10.9.0.4", 11211)],
    "two-hundred": V.set_equal(200, base="10.1", port=11211, port_cycle=3),
    "weights-ignored": [S("10.5.0.%d" % (i + 1), 11211, w) for i, w in enumerate([1, 2, 3, 5])],
}
NOTES = {
    "ipv6": " IPv6 literals through AddServer(host, port) (AddServer(\"host:port\") splits on "
            "':' and refuses them); EndPoint.ToString() is '[compressed address]:port'.",
    "weights-ignored": " The locators have no weights: the file's weights are ignored.",
}
LOCATORS = {
    "enyim": ("default", "DefaultNodeLocator (the locator MemcachedClientConfiguration uses when "
                         "none is configured)"),
    "enyim-ketama": ("ketama", "KetamaNodeLocator from KetamaNodeLocatorFactory.Create() with no "
                               "parameters (hashName unset: MD5)"),
}


def source(locator):
    return (
        "EnyimMemcached (github enyim/EnyimMemcached, branch develop, commit %s; its locator, "
        "hash, key-transformer and ConfigurationHelper sources compiled unchanged with Debian "
        "mono-mcs, run on %s): %s; each server's EndPoint = ConfigurationHelper.ResolveToEndPoint("
        "host, port) as MemcachedClientConfiguration.AddServer(host, port) builds it (IP literals "
        "only: a host name would be resolved by DNS to its first IPv4 address, and that address "
        "hashed); locator.Initialize(nodes in file order) as DefaultServerPool does, with "
        "always-alive stand-in nodes; per key DefaultKeyTransformer.Transform(key) (null = "
        "refused: a char 0x00..0x20) then locator.Locate(key), as MemcachedClient does. The "
        "KetamaNodeLocator first reproduced Enyim's own KetamaTest (spymemcached's vectors, "
        "%d keys on 10.0.1.1-8:11211)." % (COMMIT, MONO, locator, SELFTEST[0]))


SELFTEST = [0]


def selftest(cmd):
    text = open(KETAMA_TEST, encoding="latin-1").read()  # a Latin-1 licence footer
    pairs = re.findall(r'new \[\] \{"([^"]*)", "([^"]*)"\}', text)
    assert len(pairs) > 3000, len(pairs)
    servers = [["10.0.1.%d" % i, "11211"] for i in range(1, 9)]
    labels = ["10.0.1.%d:11211" % i for i in range(1, 9)]
    r = F.run_line_driver(cmd, [{"params": ["ketama"], "servers": servers,
                                 "keys": [k for k, _ in pairs]}])[0]
    bad = [(k, e, labels[int(a)]) for (k, e), a in zip(pairs, r) if labels[int(a)] != e]
    assert not bad, ("KetamaTest self-test failed", len(bad), bad[:3])
    SELFTEST[0] = len(pairs)
    print("enyim: KetamaTest self-test %d/%d" % (len(pairs), len(pairs)))


def main():
    cmd = shlex.split(os.environ["ENYIM_ORACLE"])
    selftest(cmd)
    keys = shard_keys.keys()
    fields = {n: [[s["host"], s["port"]] for s in ss] for n, ss in SETS.items()}
    eps = F.run_line_driver(cmd, [{"params": ["endpoints"], "servers": fields[n],
                                   "keys": ["e"] * len(SETS[n])} for n in SETS])
    for (n, ss), ep in zip(SETS.items(), eps):
        for s, e in zip(ss, ep):
            assert e == s["label"], ("EndPoint text differs from the label", n, e, s["label"])
    for profile, (kind, desc) in LOCATORS.items():
        res = F.run_line_driver(cmd, [{"params": [kind], "servers": fields[n], "keys": keys}
                                      for n in SETS])
        for (n, ss), r in zip(SETS.items(), res):
            V.write_vector("%s-%s.json" % (profile, n), source(desc) + NOTES.get(n, ""), GEN, keys,
                           [None if a is None else ss[int(a)]["label"] for a in r],
                           profile=profile, servers=ss)


if __name__ == "__main__":
    main()
