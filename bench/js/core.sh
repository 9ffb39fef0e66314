#!/usr/bin/env bash
# The JavaScript port against the Rust core and against npm hashring, in one run:
#   JS Ring.get      vs  core Ring::locate_index   (goal: within 2x)
#   JS Ring.getMany  vs  core Ring::locate_batch   (goal: within 1.5x, per key)
# on the same ring and keys (libmemcached-weighted, md5, SERVERS servers of weight 1, keys
# user:N:profile: bench/js/core.js, bench/rust/examples/js_floor.rs), in ROUNDS rounds, each
# timing the core then the port (so both see the same load), then the median of the rounds'
# ratios; then bench/js/run.sh (Ring.get against hashring 3.2.0, the ratio kept at or above
# docs/performance.md's). A benchmark, not a test: nothing here asserts a speed.
#
#   bash bench/js/core.sh [--rows] [SERVERS]   (default 100)
#
# --rows: only `path servers anchor_ns ours_ns` rows (bench/compare.sh's results.tsv; the
# anchor is the core, or hashring). Env: ROUNDS (default 5), KETAMA_JS_PKG (the JS package
# to time, default js/: a copy of an older tree gives the "before" figures).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rows=0
if [[ "${1:-}" == "--rows" ]]; then
    rows=1
    shift
fi
servers="${1:-100}"
rounds="${ROUNDS:-5}"
pkg="${KETAMA_JS_PKG:-$root/js}"
say() { printf '== %s\n' "$*" >&2; }

say "the Rust core's side (cargo build --release -p ketama-bench --example js_floor)"
(cd "$root" && cargo build -q --release -p ketama-bench --example js_floor >&2)
floor="$root/target/release/examples/js_floor"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for ((r = 1; r <= rounds; r++)); do
    say "round $r of $rounds: core, then JS ($pkg), $servers servers"
    "$floor" --budget 0.5 "$servers" | sed "s/^/$r\t/" >>"$out"
    node "$here/core.js" --budget 1 --pkg "$pkg" "$servers" | sed "s/^/$r\t/" >>"$out"
done
# rows: round path servers - ns
node - "$out" "$rows" <<'EOF'
const fs = require('fs');
const [file, rowsOnly] = process.argv.slice(2);
const by = {};
for (const line of fs.readFileSync(file, 'utf8').trim().split('\n')) {
  const [round, name, n, , ns] = line.split('\t');
  (by[round] = by[round] || {})[name] = { n, ns: ns === '-' ? NaN : Number(ns) };
}
const median = (xs) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] / 2 + s[s.length >> 1] / 2 : NaN;
};
const pairs = [
  ['js_get_md5', 'core_locate_index_md5', 'JS Ring.get vs core locate_index', 2],
  ['js_get_many_md5', 'core_locate_batch_md5', 'JS Ring.getMany vs core locate_batch (per key)', 1.5],
];
const rounds = Object.values(by);
const out = [];
if (rowsOnly !== '1') out.push('path\tservers\tcore_ns\tjs_ns\tjs/core\tgoal\tmet\tper-round js/core');
for (const [js, core, what, goal] of pairs) {
  const ratios = rounds.map((r) => r[js].ns / r[core].ns);
  const coreNs = median(rounds.map((r) => r[core].ns));
  const jsNs = median(rounds.map((r) => r[js].ns));
  const ratio = median(ratios);
  const n = rounds[0][js].n;
  if (rowsOnly === '1') {
    // a package without getMany has no batch row
    if (!Number.isNaN(jsNs)) out.push(`${js}\t${n}\t${coreNs.toFixed(1)}\t${jsNs.toFixed(1)}`);
  } else {
    const met = Number.isNaN(ratio) ? 'not measured' : ratio <= goal ? 'yes' : 'no';
    out.push(`${what}\t${n}\t${coreNs.toFixed(1)}\t${jsNs.toFixed(1)}\t${ratio.toFixed(2)}x\t<= ${goal}x\t${met}\t${ratios.map((x) => x.toFixed(2)).join(' ')}`);
  }
}
process.stdout.write(`${out.join('\n')}\n`);
EOF
say "JS Ring.get against npm hashring 3.2.0 (bench/js/run.sh)"
if ((rows)); then
    # the get rows as path servers hashring_ns ours_ns
    bash "$here/run.sh" "$servers" | awk -F'\t' '$1 ~ /^get / { printf "js_get_vs_hashring\t%s\t%s\t%s\n", $2, $3, $4 }'
else
    bash "$here/run.sh" 10 "$servers" 1000
fi
