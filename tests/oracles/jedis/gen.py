"""Writes tests/vectors/jedis-*.json, jedis-named-*.json, jedis-2-named-*.json, jedis-4-*.json and
options/<profile>-key-tag-*.json from the real Jedis drivers (see README.md).

Only chooses keys and servers, formats JSON and compares client versions: every `expect` is the
shard a real ShardedJedis / JedisSharding chose. Run by generate.sh, which exports the driver
commands JEDIS3, JEDIS2, JEDIS210 and JEDIS4.
"""
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402
import shard_keys  # noqa: E402

V3, V2, V210, V4, JDK = sys.argv[1:6]
GEN = "tests/oracles/jedis/generate.sh"
V = F.vectorlib
S = F.server
PORT = 6379
TAG = "\\{(.+?)\\}"


def cmd(var):
    return shlex.split(os.environ[var])


# ---- server sets -------------------------------------------------------------------------

def ten_mixed():
    return [S("10.0.1.1", 6379), S("10.0.1.2", 6379), S("10.0.1.3", 6380), S("10.0.1.4", 7000),
            S("cache1.example.com", 6379), S("cache2.example.com", 6390), S("192.168.100.7", 6379),
            S("172.16.5.9", 16379), S("redis-10.internal", 6379), S("10.0.1.10", 6379)]


def hostnames():
    names = ["redis1.example.com", "redis2.example.com", "r-a.internal", "redis-03.prod.example.net",
             "localhost", "node6.example.org"]
    return [S(n, PORT + (i % 3)) for i, n in enumerate(names)]


def ipv6():
    return [S("2001:db8::1", 6379, label="[2001:db8::1]:6379"),
            S("2001:db8::2", 6379, label="[2001:db8::2]:6379"),
            S("fd00::a:b", 6380, label="[fd00::a:b]:6380"),
            S("::1", 6379, label="[::1]:6379"), S("10.9.0.4", 6379)]


def reordered():
    s = ten_mixed()
    return [s[i] for i in (3, 0, 9, 5, 1, 8, 2, 7, 4, 6)]


def weighted(ws, base="10.5"):
    return [S("%s.0.%d" % (base, i + 1), PORT + (i % 2), w) for i, w in enumerate(ws)]


def named(servers, names):
    return [dict(s, name=n) for s, n in zip(servers, names)]


BASE_SETS = {
    "one": V.set_one(),
    "two": V.set_two(),
    "eight-one-host": [S("127.0.0.1", 6379 + i) for i in range(8)],
    "ten-mixed": ten_mixed(),
    "reordered": reordered(),
    "hostnames": hostnames(),
    "ipv6": ipv6(),
    "hundred-fifty": V.set_equal(150, base="10.1", port=PORT, port_cycle=3),
}

# Weights: 160 * weight points per shard, an int product (Sharded.initialize).
WEIGHT_SETS = {
    "weighted": weighted([1, 2, 3, 5]),
    "weighted-large": weighted([1, 100, 1000, 7, 40], base="10.6"),
    "weight-zero": weighted([1, 0, 2, 0, 1], base="10.7"),
    "all-weight-zero": weighted([0, 0], base="10.8"),
    # 160 * 13421773 overflows to a negative int (no point); 160 * 26843546 wraps to 64 points
    "weight-overflow": weighted([1, 13421773, 26843546, 2], base="10.9"),
}
WEIGHT_NOTES = {
    "weight-zero": "Weight 0 gives a shard no point: it is never chosen.",
    "all-weight-zero": "Every weight 0: no point on the ring, getShardInfo throws "
                       "NoSuchElementException for every key (null).",
    "weight-overflow": "Points per shard = 160 * weight as a Java int: 160 * 13421773 overflows to "
                       "a negative count (no point), 160 * 26843546 wraps to 64 points.",
}

NAMES10 = ["shard-a", "shard-b", "cache:1", "redis-main", "R2", "东京", "node/7", "s_8", "9", "último"]
NAMED_SETS = {
    "names": named(ten_mixed(), NAMES10),
    "names-weighted": named(weighted([1, 2, 3, 5, 1]), ["alpha", "beta", "gamma", "delta", "eps"]),
    "names-hundred-fifty": named(V.set_equal(150, base="10.2", port=PORT, port_cycle=2),
                                 ["shard%03d" % i for i in range(150)]),
    "names-reordered": named(ten_mixed(), NAMES10)[::-1],
}


def node_fields(servers, mode):
    out = []
    for s in servers:
        name = s.get("name", s["label"]) if mode == "named" else ""
        out.append([s["host"], s["port"], s["weight"], name])
    return out


def run(var, jobs):
    return F.run_line_driver(cmd(var), jobs)


def job(servers, keys, mode, tag):
    return {"params": [mode, "default" if tag else "none"], "servers": node_fields(servers, mode),
            "keys": keys}


def points_job(servers, mode):
    return {"params": [mode, "none", "points"], "servers": node_fields(servers, mode), "keys": ["p"]}


def labels(servers, answers):
    return [None if a is None else servers[int(a)]["label"] for a in answers]


def strip_names(servers):
    return [{k: v for k, v in s.items() if k != "name"} for s in servers]


def write(profile, setname, servers, keys, expect, source, tag=False):
    name = "%s-%s.json" % (profile, setname)
    if tag:
        name = "options/%s-key-tag-%s.json" % (profile, setname)
    path = V.write_vector(name, source, GEN, keys, expect, profile=profile, servers=servers)
    if tag:  # the client's option, as recorded: core maps it to its hash-tag knob
        import json
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # Our name for the option: hash_tag "{}" selects the Jedis pattern TAG.
        head = '{\n"options": ' + json.dumps({"hash_tag": "{}"}) + ",\n"
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(head + text[2:])
        json.loads(head + text[2:])


TAG_NOTE = (" Recorded WITH the client's key-tag option: the ShardedJedis(shards, "
            "ShardedJedis.DEFAULT_KEY_TAG_PATTERN) constructor, Pattern \\{(.+?)\\} (the file's "
            "our option hash_tag {}, the file's options): when Matcher.find() succeeds, only group(1) is hashed.")
NO_TAG = " No key-tag pattern (the default constructor): the whole key is hashed."


def src3(mode, version, tag, note=""):
    if mode == "named":
        shard = ("new JedisShardInfo(host, name, port, 2000, weight) (named shards; name = the "
                 "server's `name`, else its label)")
    else:
        shard = ("new JedisShardInfo(host, port, 2000, 2000, weight) (unnamed shards: only the "
                 "list position is hashed)")
    return ("redis.clients:jedis %s (Maven Central, OpenJDK %s): new ShardedJedis(shards%s) with "
            "shards = %s in file order; expect = the shard of sj.getShardInfo(key) (the lookup "
            "every ShardedJedis command makes); null = the client threw. Each shard's "
            "createResource() (a connecting `new Jedis`) returns null instead: the lookup never "
            "reads it.%s%s" % (version, JDK, ", ShardedJedis.DEFAULT_KEY_TAG_PATTERN" if tag else "",
                               shard, TAG_NOTE if tag else NO_TAG, (" " + note) if note else ""))


def src4(tag, note=""):
    return ("redis.clients:jedis %s (Maven Central, OpenJDK %s): new JedisSharding(new "
            "ShardedConnectionProvider(hostAndPorts)%s) (the provider JedisSharding(List<HostAndPort>) "
            "builds) with new HostAndPort(host, port) in file order; per key the JedisSharding's own "
            "ShardedCommandObjects builds GET key and expect = provider.getNode(args.getKeyHash()), "
            "the node getConnection(args) asks a pool for (no pool is asked, nothing connects). 4.x "
            "has no weights and no names: the file's weights are ignored by the client.%s%s"
            % (V4, JDK, ", JedisSharding.DEFAULT_KEY_TAG_PATTERN" if tag else "",
               TAG_NOTE.replace("ShardedJedis(shards, ShardedJedis.", "JedisSharding(provider, "
                                "JedisSharding.") if tag else NO_TAG, (" " + note) if note else ""))


def agree(a, b):
    return sum(1 for x, y in zip(a, b) if x == y)


def main():
    keys = shard_keys.keys()
    report = []

    # ---- jedis (3.x unnamed), jedis-named (3.x named), jedis-2-named (2.9.x named) ------------
    unnamed_sets = dict(BASE_SETS, **WEIGHT_SETS)
    named_sets = dict(BASE_SETS, **WEIGHT_SETS, **NAMED_SETS)
    jobs_u = [job(s, keys, "unnamed", False) for s in unnamed_sets.values()]
    jobs_n = [job(s, keys, "named", False) for s in named_sets.values()]
    tag_sets = {n: named_sets[n] for n in ("two", "ten-mixed", "names")}
    utag = ("two", "ten-mixed")
    jobs_ut = [job(unnamed_sets[n], keys, "unnamed", True) for n in utag]
    jobs_nt = [job(s, keys, "named", True) for s in tag_sets.values()]
    all_jobs = jobs_u + jobs_n + jobs_ut + jobs_nt
    pts = ([points_job(s, "unnamed") for s in unnamed_sets.values()] +
           [points_job(s, "named") for s in named_sets.values()])
    res = {}
    for var in ("JEDIS3", "JEDIS2", "JEDIS210"):
        out = run(var, all_jobs + pts)
        res[var] = out[:len(all_jobs)]
        res[var + "_points"] = [int(p[0]) for p in out[len(all_jobs):]]
    nu, nn, nut = len(jobs_u), len(jobs_n), len(jobs_ut)
    r3, r2, r210 = res["JEDIS3"], res["JEDIS2"], res["JEDIS210"]

    # points: 160 * weight (int) per shard, and no two points equal (TreeMap size)
    for i, servers in enumerate(list(unnamed_sets.values()) + list(named_sets.values())):
        want = sum(max(0, (160 * s["weight"] + 2 ** 31) % 2 ** 32 - 2 ** 31) for s in servers)
        for var in ("JEDIS3", "JEDIS2", "JEDIS210"):
            assert res[var + "_points"][i] == want, (var, i, res[var + "_points"][i], want)

    # 2.10.x equals 3.x, named and unnamed, with and without the tag pattern
    for i in range(len(all_jobs)):
        assert r210[i] == r3[i], ("jedis 2.10 differs from 3.x", i)
    report.append("jedis %s equals %s on all %d jobs (unnamed, named, key tag)" % (V210, V3, len(all_jobs)))
    # 2.9.x unnamed equals 3.x unnamed
    for i in list(range(nu)) + list(range(nu + nn, nu + nn + nut)):
        assert r2[i] == r3[i], ("jedis 2.9 unnamed differs from 3.x", i)
    report.append("jedis %s unnamed equals %s unnamed on all %d jobs" % (V2, V3, nu + nut))

    for (sname, servers), r in zip(unnamed_sets.items(), r3[:nu]):
        write("jedis", sname, strip_names(servers), keys, labels(servers, r),
              src3("unnamed", V3, False, WEIGHT_NOTES.get(sname, "")))
    for sname, r in zip(utag, r3[nu + nn:nu + nn + nut]):
        servers = unnamed_sets[sname]
        write("jedis", sname, strip_names(servers), keys, labels(servers, r),
              src3("unnamed", V3, True), tag=True)
    named_out = r3[nu:nu + nn]
    for (sname, servers), r3n, r2n in zip(named_sets.items(), named_out, r2[nu:nu + nn]):
        note = WEIGHT_NOTES.get(sname, "")
        write("jedis-named", sname, servers, keys, labels(servers, r3n), src3("named", V3, False, note))
        src2 = src3("named", V2, False, note) + (
            " 2.9.x points are name + \"*\" + weight + n (jedis 2.10.0 dropped the weight from the "
            "string: 2.10.x named equals jedis-named).")
        write("jedis-2-named", sname, servers, keys, labels(servers, r2n), src2)
        report.append("jedis-named ~ jedis-2-named %-20s %d/%d" % (sname, agree(r3n, r2n), len(keys)))
    for (sname, servers), r3n, r2n in zip(tag_sets.items(), r3[nu + nn + nut:], r2[nu + nn + nut:]):
        write("jedis-named", sname, servers, keys, labels(servers, r3n), src3("named", V3, True), tag=True)
        write("jedis-2-named", sname, servers, keys, labels(servers, r2n),
              src3("named", V2, True) + " 2.9.x points are name + \"*\" + weight + n.", tag=True)

    # ---- jedis-4 (JedisSharding: no weights, no names) ---------------------------------------
    sets4 = dict(BASE_SETS, **{"weights-ignored": weighted([1, 2, 3, 5]),
                               "two-hundred": V.set_equal(200, base="10.3", port=PORT, port_cycle=4)})
    tag4 = {n: sets4[n] for n in ("two", "ten-mixed")}
    jobs4 = ([{"params": ["none"], "servers": [[s["host"], s["port"]] for s in ss], "keys": keys}
              for ss in sets4.values()] +
             [{"params": ["default"], "servers": [[s["host"], s["port"]] for s in ss], "keys": keys}
              for ss in tag4.values()] +
             [{"params": ["none", "points"], "servers": [[s["host"], s["port"]] for s in ss],
               "keys": ["p"]} for ss in sets4.values()])
    out4 = run("JEDIS4", jobs4)
    for (sname, ss), p in zip(sets4.items(), out4[len(sets4) + len(tag4):]):
        assert int(p[0]) == 160 * len(ss), (sname, p)
    for (sname, servers), r in zip(sets4.items(), out4[:len(sets4)]):
        note = ("The client has no weights: the file's weights (1, 2, 3, 5) are ignored."
                if sname == "weights-ignored" else "")
        write("jedis-4", sname, strip_names(servers), keys, labels(servers, r), src4(False, note))
    for (sname, servers), r in zip(tag4.items(), out4[len(sets4):len(sets4) + len(tag4)]):
        write("jedis-4", sname, strip_names(servers), keys, labels(servers, r), src4(True), tag=True)

    # jedis (3.x, weights 1) equals jedis-4 on every set where all weights are 1
    by3 = dict(zip(unnamed_sets, r3[:nu]))
    for (sname, servers), r in zip(sets4.items(), out4[:len(sets4)]):
        if sname in by3:
            if all(s["weight"] == 1 for s in unnamed_sets[sname]):
                assert by3[sname] == r, ("jedis-4 differs from jedis", sname)
                report.append("jedis ~ jedis-4 %-20s all %d (weights 1)" % (sname, len(keys)))
        elif sname == "weights-ignored":
            report.append("jedis(weighted) ~ jedis-4(weights-ignored) %d/%d"
                          % (agree(by3["weighted"], r), len(keys)))
    for (sname, _), r in zip(tag4.items(), out4[len(sets4):len(sets4) + len(tag4)]):
        r3t = r3[nu + nn + list(tag4).index(sname)]
        assert r3t == r, ("jedis-4 with key tag differs from jedis with key tag", sname)
        report.append("jedis ~ jedis-4 key-tag %-12s all %d" % (sname, len(keys)))
    print("\n".join(report))


if __name__ == "__main__":
    main()
