#!/usr/bin/env bash
# The Go port against github.com/dgryski/go-ketama, in one run: go test's benchmark functions
# for both (the same 100-server ring, the same keys), then the ratio; then the port's Get and
# GetMany against the Rust core's locate_index and locate_batch on that ring and those keys
# (bench/rust/examples/port_anchor.rs, release build), alternately, then the ratios. A
# benchmark, not a test.
#   bench/go/run.sh            (env GO_KETAMA_SRC: a go-ketama checkout; default: a local
#                               clone, $KETAMA_MIRROR/dgryski+go-ketama/repo, at GO_KETAMA_PIN)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
GO_KETAMA_PIN=8c956565334cb132fb0564e4530fe19d8622e07e
src="${GO_KETAMA_SRC:-${KETAMA_MIRROR:-/work/.mirror}/dgryski+go-ketama/repo}"
rm -rf .cache/go-ketama
mkdir -p .cache/go-ketama
if git -C "$src" cat-file -e "$GO_KETAMA_PIN^{commit}" 2>/dev/null; then
    git -C "$src" archive "$GO_KETAMA_PIN" ketama.go go.mod | tar x -C .cache/go-ketama
elif [[ -f $src/ketama.go ]]; then
    cp "$src/ketama.go" "$src/go.mod" .cache/go-ketama/
else
    echo "bench/go: no go-ketama source at $src (the Go module proxy does not serve it); set GO_KETAMA_SRC" >&2
    exit 2
fi
GO=$(command -v go || echo /usr/local/go/bin/go)
export GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
"$GO" test -count=1 -run TestSameAnswers . >/dev/null
# Both benchmark functions alternately (the same load for both), then the median ratio.
BENCH_RATIO=1 "$GO" test -count=1 -run '^TestRatio$' -v . | grep -E '^(round|median|best)'
root=$(cd "$here/../.." && pwd)
(cd "$root" && cargo build -q --release -p ketama-bench --example port_anchor)
target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
BENCH_CORE="$target/release/examples/port_anchor" "$GO" test -count=1 -run '^TestCoreRatio$' -v . |
    grep -E '^(round|median)'
