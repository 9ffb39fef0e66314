#!/usr/bin/env python3
"""Writes tests/vectors/jumpback-anchor/hash4j.json from hash4j's JumpBackAnchorHash.

usage: gen.py CLASSPATH OUT.json

Deterministic sequences (fixed seed) of add / remove / get / state operations on fresh
hashers, starting with n buckets added (1 .. 3000), then random removals (working, already
removed and out-of-range buckets), re-adds and lookups of 64-bit hashes including 0, 2^63 and
2^64-1. The oracle (JumpBackAnchorOracle.java) runs them on the real library; the JSON keeps
each operation with hash4j's answer.
"""
import json
import random
import subprocess
import sys

EDGE = [0, 1, 2**63, 2**64 - 1, 2**63 - 1]


def sequences(rng):
    out = []
    for n in [1, 2, 3, 5, 10, 17, 64, 100, 1000, 3000]:
        for round_ in range(3):
            ops = [["add"] for _ in range(n)]
            working = list(range(n))
            gets = 40 if n <= 100 else 20
            steps = min(2 * n, 60)
            for h in EDGE:
                ops.append(["get", str(h)])
            for _ in range(steps):
                r = rng.random()
                if r < 0.55 and working:
                    b = rng.choice(working)
                    working.remove(b)
                    ops.append(["remove", b])
                elif r < 0.65:
                    ops.append(["remove", rng.randrange(0, n + 5)])
                else:
                    ops.append(["add"])
                    working = None  # the oracle's answer decides; re-derived below
                    break
                for _ in range(gets // 4):
                    ops.append(["get", str(rng.getrandbits(64))])
            ops.append(["state"])
            for _ in range(gets):
                ops.append(["get", str(rng.getrandbits(64))])
            out.append(ops)
    # Long mixed histories: removals and re-adds interleaved, lookups after each change.
    for n in [8, 50, 400]:
        ops = [["add"] for _ in range(n)]
        for _ in range(120):
            r = rng.random()
            if r < 0.5:
                ops.append(["remove", rng.randrange(0, n + 2)])
            else:
                ops.append(["add"])
            for _ in range(5):
                ops.append(["get", str(rng.getrandbits(64))])
            if rng.random() < 0.2:
                ops.append(["state"])
        out.append(ops)
    # Removing every bucket, then lookups (empty) and growing again.
    ops = [["add"] for _ in range(6)]
    for b in [2, 0, 5, 4, 1, 3]:
        ops.append(["remove", b])
        ops.append(["get", "12345"])
    ops += [["state"], ["add"], ["get", "12345"], ["add"], ["get", "99"], ["state"]]
    out.append(ops)
    return out


def main():
    cp, path = sys.argv[1], sys.argv[2]
    rng = random.Random(20261130)
    seqs = sequences(rng)
    text = []
    for ops in seqs:
        text.append("reset")
        text += [" ".join(str(x) for x in op) for op in ops]
    res = subprocess.run(
        ["java", "-cp", cp, "JumpBackAnchorOracle"],
        input="\n".join(text) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    answers = res.stdout.split("\n")
    i = 0
    cases = []
    for ops in seqs:
        assert answers[i] == "ok"
        i += 1
        rows = []
        for op in ops:
            rows.append(op + [answers[i]])
            i += 1
        cases.append(rows)
    doc = {
        "source": "hash4j 0.30.0 ConsistentHashing.jumpBackAnchorHash("
        "PseudoRandomGeneratorProvider.splitMix64_V1()), via "
        "tests/oracles/jumpback-anchor/JumpBackAnchorOracle.java",
        "format": "each sequence starts from an empty hasher; each row is an operation and "
        "hash4j's answer: [add, bucket], [remove, b, true|false], [get, hash, bucket|empty], "
        "[state, hex of getState()]",
        "sequences": cases,
    }
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{path}: {len(cases)} sequences, {sum(len(c) for c in cases)} operations")


if __name__ == "__main__":
    main()
