#!/usr/bin/env bash
# The Java port against the Rust core and against spymemcached, in one run: the core's own
# lookups on the same ring (bench/rust/examples/port_floor.rs, release build) and the port's
# and spymemcached's (Bench.java: Ring.get, Ring.index, Ring.getMany, KetamaNodeLocator.getPrimary)
# alternate three times; each figure is the median of its three, and the ratios are made of
# those (docs/performance.md). Builds java/ (Maven, tests skipped), compiles Bench.java against
# the port's classes and spymemcached 2.12.3 from Maven Central. A benchmark, not a test.
#   bash bench/java/run.sh          the ratio table
#   bash bench/java/run.sh --tsv    rows for bench/compare.sh's results (path servers anchor ours)
#                                   on stdout, the table on stderr
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/target"
mkdir -p "$out"
tsv=0
[[ "${1:-}" == "--tsv" ]] && tsv=1
source "$root/tests/lib/need.sh"
need_packages --cmd mvn maven >&2
need_packages --cmd javac default-jdk-headless >&2
mvn -q -B -f "$root/java/pom.xml" -pl core,spymemcached -am install -DskipTests >&2
repo="${MAVEN_REPO:-$HOME/.m2/repository}"
spy="$repo/net/spy/spymemcached/2.12.3/spymemcached-2.12.3.jar"
cp="$root/java/core/target/classes:$spy"
javac -nowarn -d "$out" -cp "$cp" "$here/Bench.java"
(cd "$root" && cargo build -q --release -p ketama-bench --example port_floor >&2)
target=$(cd "$root" && cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
raw="$out/raw.tsv"
{
    printf '# load average before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    for _ in 1 2 3; do
        "$target/release/examples/port_floor" spymemcached 100
        java -Xms512m -Xmx512m -XX:+UseParallelGC -cp "$out:$cp" Bench
    done
    printf '# load average after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$raw"
python3 - "$raw" "$tsv" <<'PY'
import statistics, sys
facts, runs = {}, {}
for line in open(sys.argv[1], encoding="utf-8"):
    name, _, value = line.rstrip("\n").partition("\t")
    if name.startswith("#"):
        facts[name.lstrip("# ")] = value
    else:
        runs.setdefault(name, []).append(float(value))
ns = {k: statistics.median(v) for k, v in runs.items()}
core1, core_many = ns["core_single"], ns["core_batch"]
get, many, spy = ns["java_get"], ns["java_get_many"], ns["spymemcached_get_primary"]
rows = [
    ("Java `Ring.get(String)`", "Rust core `locate_index`", core1, get, get / core1, "<= 2x the core", get / core1 <= 2.0),
    ("Java `Ring.index(String)`", "Rust core `locate_index`", core1, ns["java_index"], ns["java_index"] / core1, "(no goal)", None),
    ("Java `Ring.getMany` (1,000 keys a call, per key)", "Rust core `locate_batch` (1,000 keys a call)", core_many, many,
     many / core_many, "<= 1.5x the core", many / core_many <= 1.5),
    ("Java `Ring.get(String)`", "spymemcached 2.12.3 `getPrimary`", spy, get, spy / get, ">= 2.1x faster", spy / get >= 2.1),
]
table = [f"- {k}: {v}" for k, v in facts.items()]
table += ["- 100 servers `10.0.x.y:11211`, profile spymemcached (KETAMA_HASH), 65,536 keys `user:N:profile`;"
          " each figure the median of 3 alternated runs (each the median of 15 rounds)", "",
          "| path | against | theirs | ours | ratio | goal | met |", "|---|---|---:|---:|---:|---|---|"]
for what, anchor, a, o, r, goal, met in rows:
    table.append(f"| {what} | {anchor} | {a:,.0f} ns | {o:,.0f} ns | {r:.2f}x | {goal} | "
                 f"{'-' if met is None else ('yes' if met else 'no')} |")
text = "\n".join(table)
if sys.argv[2] == "1":
    print(text, file=sys.stderr)
    print(f"java_get_vs_core\t100\t{core1:.1f}\t{get:.1f}")
    print(f"java_get_many_vs_core\t100\t{core_many:.1f}\t{many:.1f}")
    print(f"java_get_vs_spymemcached\t100\t{spy:.1f}\t{get:.1f}")
else:
    print(text)
PY
