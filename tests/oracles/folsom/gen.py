"""Writes tests/vectors/pending/folsom-*.json from the real folsom (see README.md)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import families as F  # noqa: E402

VERSION = sys.argv[1]
CMD = sys.argv[2:]
GEN = "tests/oracles/folsom/gen.py"
SOURCE = ("com.spotify:folsom %s (Maven Central, OpenJDK 17): AbstractRequest.encodeKey(key, UTF_8, "
          "250) then, as MemcacheClientBuilder.connectRaw does, 1 address -> that client, else "
          "new ketama.Continuum(AddressAndClient(HostAndPort.fromParts(host, port), client) ...)"
          ".findClient(keyBytes); no weights (all 1); null = key refused by encodeKey")
HSOURCE = ("com.spotify:folsom %s: ketama.Hasher.hash(AbstractRequest.encodeKey(key, UTF_8, 250))"
           ".asInt() & 0xffffffff (Guava murmur3_32, seed 0, of the key's UTF-8 bytes); "
           "null = key refused by encodeKey")

V = F.vectorlib
SETS = {
    "one": [F.server("10.0.0.1", 11211)],
    "two": V.set_two(),
    "ten-mixed": V.set_ten_mixed(),
    "hostnames": F.hostname_set(6),
    "ipv6": F.ipv6_set(),
    "two-hundred-fifty": V.set_equal(250, base="10.7"),
}


def main():
    keys = F.keys()
    names = list(SETS)
    jobs = [{"params": ["locate"], "servers": [[s["host"], s["port"]] for s in SETS[n]],
             "keys": keys} for n in names]
    jobs.append({"params": ["hash"], "servers": [], "keys": keys})
    res = F.run_line_driver(CMD, jobs)
    for n, r in zip(names, res):
        labels = [SETS[n][int(i)]["label"] if i is not None else None for i in r]
        F.write("folsom-%s.json" % n, SOURCE % VERSION, GEN, "folsom", SETS[n], keys, labels)
    path = F.vectorlib.write_vector(F.PENDING + "folsom-hash-murmur3_32.json", HSOURCE % VERSION,
                                    GEN, keys, [None if h is None else int(h) for h in res[-1]],
                                    hash_name="murmur3_32", kind="hash")
    # the shared writer leaves `profile` out of kind "hash" files; this one needs it: its nulls
    # are folsom's key refusals (tests/vectors/README.md)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.replace('"kind": "hash",\n', '"kind": "hash",\n"profile": "folsom",\n', 1)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main()
