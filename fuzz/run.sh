#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS seconds each (default 5) on a copy of its committed
# seed corpus, and fails if any target finds a crash. Installs cargo-fuzz (and the nightly
# toolchain it needs) only when missing.
#   fuzz/run.sh [SECONDS] [TARGET...]
# Prints, per target, the executions libFuzzer reports. See fuzz/README.md for longer runs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
secs=${1:-5}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(servers_file names ring_ops c_abi batch)

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: installing the nightly toolchain" >&2
    rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

cargo +nightly fuzz build -O >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()
for t in "${targets[@]}"; do
    # Work on a copy: the committed corpus stays the small seed set.
    mkdir -p "$tmp/$t"
    cp corpus/"$t"/* "$tmp/$t/" 2>/dev/null || true
    log="$tmp/$t.log"
    if cargo +nightly fuzz run -O "$t" "$tmp/$t" -- -max_total_time="$secs" -max_len=4096 \
        -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
        execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
        printf 'fuzz %-13s ok   %s executions in %ss\n' "$t" "${execs:-?}" "$secs"
    else
        printf 'fuzz %-13s FAIL (see below; reproducer under fuzz/artifacts/%s/)\n' "$t" "$t"
        tail -40 "$log"
        failed+=("$t")
    fi
done
if ((${#failed[@]})); then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
