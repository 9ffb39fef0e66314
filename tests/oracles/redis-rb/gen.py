"""Writes tests/vectors/redis-rb-*.json (redis-rb 4.x, Debian) or redis-rb-5-*.json (5.x from
its source) from the real Redis::Distributed (driver.rb; see README.md).
Usage: python3 gen.py 4 VERSION DEBIAN_VERSION RUBY
       python3 gen.py 5 VERSION COMMIT REDIS_CLIENT_VERSION COMMIT RUBY REDIS_RB_LIB REDIS_CLIENT_LIB"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import shard_inputs as S  # noqa: E402

GEN = "tests/oracles/redis-rb/gen.py"
SOURCE = ("%s: Redis::Distributed.new(['redis://host:port', ...]) with default options "
          "(tag /^\\{(.+?)\\}/, HashRing with 160 points a node; 'redis://[v6]:port' for IPv6; "
          "in the named-ids files each node is {url:, id: name}, the server's `name`); expect = "
          "the node of dist.node_for(key), the node of every single-key command, mapped back by "
          "object identity; each node's Redis#id asserted; key tags always on (tag: nil or false "
          "also gives the default regexp; only another regexp changes it); nothing connects")


def sets():
    full, small = S.keys_full(), S.keys_small()
    named = [S.server("10.0.3.%d" % (i + 1), 6379, name=n) for i, n in
             enumerate(["cache-a", "cache-b", "shard:3", "node 4", "é-node", "cache-a:6379"])]
    return [
        ("one", [S.server("10.0.0.1", 6379)], full),
        ("two", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379)], full),
        ("three", [S.server("10.0.0.1", 6379), S.server("10.0.0.2", 6379),
                   S.server("10.0.0.3", 6379)], small),
        ("ten-mixed", S.ten_mixed(), full),
        ("hundred-fifty", S.many(150), full),
        ("hostnames", S.hostnames(), small),
        ("ipv6", S.ipv6(), small),
        ("same-host", S.same_host(), small),
        ("named-ids", named, small),
    ]


def url(s):
    host = "[%s]" % s["host"] if ":" in s["host"] else s["host"]
    return "redis://%s:%d" % (host, s["port"])


def node_id(major, s):
    """The Redis#id each version builds (asserted by the driver, not used to place keys)."""
    if "name" in s:
        return s["name"]
    if major == "4":
        return "redis://%s:%d/0" % (s["host"], s["port"])
    return url(s)


def main():
    major = sys.argv[1]
    if major == "4":
        version, deb, ruby = sys.argv[2:5]
        profile = "redis-rb"
        what = "redis-rb %s (Debian ruby-redis %s, %s)" % (version, deb, ruby)
        cmd = ["ruby", os.path.join(HERE, "driver.rb"), version]
    else:
        version, commit, rc_version, rc_commit, ruby, rb_lib, rc_lib = sys.argv[2:9]
        profile = "redis-rb-5"
        what = ("redis-rb %s (github redis/redis-rb tag v%s, commit %s) with redis-client %s "
                "(github redis-rb/redis-client tag v%s, commit %s) and Debian "
                "ruby-connection-pool, loaded unmodified with %s" % (
                    version, version, commit, rc_version, rc_version, rc_commit, ruby))
        cmd = ["ruby", "-I", rb_lib, "-I", rc_lib, os.path.join(HERE, "driver.rb"), version,
               rc_version]
    todo = sets()
    jobs = [{"servers": [{"url": url(s), "id": s.get("name")} for s in servers],
             "ids": [node_id(major, s) for s in servers], "keys": keys}
            for _, servers, keys in todo]
    res = S.run_driver(cmd, jobs)
    for (name, servers, keys), r in zip(todo, res):
        assert None not in r, name
        S.write("%s-%s.json" % (profile, name), SOURCE % what, GEN, profile, servers, keys,
                [servers[i]["label"] for i in r])


if __name__ == "__main__":
    main()
