#!/usr/bin/env python3
"""Writes tests/vectors/buckets/*.json from the real bucket functions.

Usage: gen.py OUT_DIR   with these environment variables naming the oracles (see generate.sh):
  JAVA_CP, GO_ORACLE, FLIPHASH_ORACLE   the commands' locations
  BUCKETS_META                          JSON: versions of every reference, for the `source` text
The (input, buckets) pairs are deterministic (SplitMix64 from fixed seeds), so a rerun with the
same library versions writes the same files.
"""
import json
import os
import subprocess
import sys

MASK = (1 << 64) - 1
MAX31 = (1 << 31) - 1
LCG = 2862933555777941757


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


SPECIAL_INPUTS = [0, 1, 2, 3, 42, (1 << 32) - 1, 1 << 32, 1 << 53, (1 << 63) - 1, 1 << 63,
                  (1 << 63) + 1, MASK - 1, MASK]
SPECIAL_BUCKETS = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 16, 17, 100, 807, 1000, 1024, 1025, 65535,
                   65536, 65537, 100001, 1 << 20, (1 << 24) + 1, 1 << 30, (1 << 30) + 1,
                   MAX31 - 1, MAX31]


def log_uniform_buckets(rng, limit):
    """A bucket count in 1..=limit, uniform in log scale."""
    bits = limit.bit_length()
    while True:
        n = rng.next() >> (64 - bits)
        n >>= rng.next() % bits
        if 1 <= n <= limit:
            return n


def lcg_top_all_ones(steps, low):
    """An input whose `steps`-th LCG state has its top 31 bits all ones (Guava's int wrap)."""
    inv = pow(LCG, -1, 1 << 64)
    state = (0xFFFFFFFE << 32 | low) & MASK
    for _ in range(steps):
        state = ((state - 1) * inv) & MASK
    return state


def pure_cases(seed, random_count=3000):
    rng = SplitMix64(seed)
    inputs = SPECIAL_INPUTS + [rng.next() for _ in range(20)]
    cases = [(i, n) for i in inputs for n in SPECIAL_BUCKETS]
    cases += [(rng.next(), log_uniform_buckets(rng, MAX31)) for _ in range(random_count)]
    return cases


def table_cases(seed, counts, per_count):
    rng = SplitMix64(seed)
    cases = []
    for n in counts:
        near = [65536, 65537, 65538, 65537 * 3 + 5]
        for i in SPECIAL_INPUTS + near + [rng.next() for _ in range(per_count)]:
            cases.append((i, n))
    return cases


def run(cmd, cases):
    stdin = "".join(f"{i} {n}\n" for i, n in cases)
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True).stdout
    got = [int(x) for x in out.split()]
    if len(got) != len(cases):
        sys.exit(f"{cmd}: {len(got)} answers for {len(cases)} cases")
    return [[str(i), n, b] for (i, n), b in zip(cases, got)]


def write(out_dir, name, algorithm, source, generator, cases, note=None):
    doc = {"source": source, "generator": generator, "kind": "bucket", "algorithm": algorithm}
    if note:
        doc["note"] = note
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=1)[:-2])  # header, then one case per line
        f.write(',\n "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n ]\n}\n")
    print(f"{path}: {len(cases)} cases")


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    meta = json.loads(os.environ["BUCKETS_META"])
    java = ["java", "-cp", os.environ["JAVA_CP"], "BucketOracle"]
    go = [os.environ["GO_ORACLE"]]
    gen = "tests/oracles/buckets/generate.sh"

    # Guava: its own HashingTest golden values, the example, Guava's int wrap at the
    # first and second LCG steps, then the common grid.
    guava_extra = [(i, 100) for i in range(20)] + [
        (10863919174838991, 11), (2016238256797177309, 11), (1673758223894951030, 11),
        (2, 100001), (2201, 100001), (2202, 100001), (2687259751451158933, 807)]
    for steps in (1, 2, 3):
        for low in (0, 1, 0xFFFFFFFF):
            for n in (2, 100, 807, MAX31):
                guava_extra.append((lcg_top_all_ones(steps, low), n))
    guava_cases = guava_extra + pure_cases(0x6775617661)
    write(out_dir, "guava.json", "guava",
          f"Guava {meta['guava']} com.google.common.hash.Hashing.consistentHash(long input, "
          f"int buckets) on OpenJDK {meta['jdk']}; input = the unsigned value's 64-bit "
          "two's-complement long. The first 27 cases are Guava's own HashingTest golden values "
          "and the issue's 2687259751451158933/807 -> 195; then inputs whose 1st-3rd LCG "
          "state wraps Guava's int", gen, run(java + ["guava"], guava_cases))

    write(out_dir, "jumpback-hash4j.json", "jumpback",
          f"hash4j {meta['hash4j']} ConsistentHashing.jumpBackHash("
          "PseudoRandomGeneratorProvider.splitMix64_V1()).getBucket(long hash, int numBuckets) "
          f"on OpenJDK {meta['jdk']}; input = the unsigned value's 64-bit two's-complement long",
          gen, run(java + ["jumpback"], pure_cases(0x6A6B)))

    write(out_dir, "jump-go.json", "jump",
          f"github.com/dgryski/go-jump {meta['go-jump']} jump.Hash(key uint64, numBuckets int) "
          f"({meta['go']}), a line-for-line port of Lamping & Veach 2014's JumpConsistentHash",
          gen, run(go + ["jump"], pure_cases(0x6A756D70)))

    write(out_dir, "fliphash.json", "fliphash",
          f"crates.io fliphash {meta['fliphash']} fliphash::fliphash_64(input, ..=buckets - 1) "
          "(seed 0)", gen, run([os.environ["FLIPHASH_ORACLE"]], pure_cases(0x666C6970)))

    maglev_counts = [1, 2, 3, 4, 5, 7, 10, 13, 16, 31, 64, 100, 127, 255, 256, 500, 1000, 1023,
                     4096, 10000, 32768, 65536, 65537]
    write(out_dir, "maglev-go.json", "maglev-go",
          f"github.com/dgryski/go-maglev {meta['go-maglev']} maglev.New([\"backend-0\" .. "
          "\"backend-(N-1)\"], maglev.SmallM = 65537).Lookup(input) with github.com/dchest/siphash "
          f"{meta['siphash']} ({meta['go']}); expect = the backend's index",
          gen, run(go + ["maglev"], table_cases(0x6D61676C, maglev_counts, 120)))

    mpc_counts = [1, 2, 3, 5, 6, 7, 11, 12, 13, 64, 100, 1000, 6000, 6001, 20000, 65536]
    write(out_dir, "mpchash-go.json", "mpchash-go",
          f"github.com/dgryski/go-mpchash {meta['go-mpchash']} mpchash.New([\"shard-1\" .. "
          "\"shard-N\"], siphash64seed, [2]uint64{1, 2}, 21).Hash(decimal text of input) with "
          "siphash64seed(b, s) = siphash.Hash(s, 0, b) (go-mpchash's compat test), "
          f"github.com/dchest/siphash {meta['siphash']} ({meta['go']}); "
          "expect = the shard's 0-based index (shard-1 -> 0)",
          gen, run(go + ["mpchash"], table_cases(0x6D706368, mpc_counts, 180)))


if __name__ == "__main__":
    main()
