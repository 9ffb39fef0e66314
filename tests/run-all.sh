#!/usr/bin/env bash
# Every test of the project, as CI runs it: lints, the Rust suites (core, CLI, C ABI), the
# no_std proofs, the C/valgrind/install/PHP suite, the Python suite, the mixed-language fleet
# on live memcached (tests/e2e), packaging and a short fuzz run. Installs what is missing
# (Debian packages, a Python venv, PHP) first, so it works on a fresh machine.
#
# Each stage runs under a time limit (minutes, the second argument of `stage`): a stage that
# hangs fails with its name instead of silently eating CI's budget. Each stage prints its wall
# time and the CPU seconds its processes used (the CPU figure does not depend on what else the
# machine runs). KETAMA_STAGE_LIMIT_SCALE multiplies every limit (e.g. 3 on a loaded machine).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

start=$SECONDS
scale=${KETAMA_STAGE_LIMIT_SCALE:-1}
summary=()

# CPU seconds (user + sys) of the finished child processes so far, into $cpu. `times` runs in
# this shell (a $(...) subshell would report its own, empty, children).
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
cpu_used() {
    times >"$times_file"
    cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.0f", t }' "$times_file")
}

# stage NAME LIMIT_MINUTES COMMAND...: runs COMMAND (in its own process group, so a timeout
# stops everything it started), prints its times, stops the whole run if it fails. Run from a
# terminal, the command stays in the terminal's foreground group (a background group reading
# the terminal would be stopped); a timeout then stops only the command itself.
foreground=()
[[ -t 0 ]] && foreground=(--foreground)
stage() {
    local name=$1 limit=$(($2 * scale)) rc=0 t0=$SECONDS cpu cpu0
    shift 2
    cpu_used
    cpu0=$cpu
    printf '\n==== %s (at %ds, limit %d min)\n' "$name" "$((SECONDS - start))" "$limit"
    timeout "${foreground[@]}" --kill-after=20 "${limit}m" "$@" || rc=$?
    local line
    cpu_used
    line=$(printf '%5ds wall %5ds CPU  %s' "$((SECONDS - t0))" "$((cpu - cpu0))" "$name")
    summary+=("$line")
    printf '==== %s\n' "$line"
    if ((rc == 124 || rc == 137)); then
        printf '\nFAILED: stage "%s" did not finish within %d minutes\n' "$name" "$limit"
        exit 1
    elif ((rc != 0)); then
        printf '\nFAILED: stage "%s" (exit %d)\n' "$name" "$rc"
        exit "$rc"
    fi
}

stage "toolchain and system packages" 15 bash tests/setup.sh

stage "format" 2 cargo fmt --all --check
stage "lints (clippy)" 15 cargo clippy --workspace --all-targets --locked -- -D warnings

# KETAMA_REQUIRE_MEMCACHED: the live tests (simulate --live, audit) fail instead of skipping
stage "Rust tests: core (vectors from the real clients), CLI, C ABI" 25 \
    env KETAMA_REQUIRE_MEMCACHED=1 cargo test --workspace --exclude ketama-py --locked

stage "no_std builds" 10 bash tests/no_std/check.sh

stage "C ABI: header freshness, C tests under valgrind/ASan, install + pkg-config, libketama drop-in, PHP FFI" 25 \
    bash ffi-c/test.sh

stage "Python package" 20 bash python/test.sh

stage "Java port: unit tests, every vector file, spymemcached/xmemcached adapters, conformance kit" 10 \
    bash java/test.sh
# KETAMA_REQUIRE_CLI: the conformance-kit run of the JS port fails instead of skipping
stage "JavaScript package: every vector file, directly and through ketama conformance; memjs hook; tsc" 5 \
    env KETAMA_REQUIRE_CLI=1 bash js/test.sh
stage "Go port: vet, unit tests, every vector file through ketama conformance, gomemcache adapter" 10 \
    bash go/test.sh

stage "Mixed-language fleet on live memcached: PHP and Java write, Python, C and PHP read, ketama audit" 15 \
    bash tests/e2e/test.sh

stage "Packaging: wheel on every CPython without Rust, sdist, Debian packages + pkg-config/CMake/PHP, composer" 30 \
    bash tests/packaging.sh

stage "Fuzzing: every cargo-fuzz target for a few seconds (fuzz/README.md for longer runs)" 15 \
    bash fuzz/run.sh "${KETAMA_FUZZ_SECONDS:-5}"

printf '\n==== stage times\n'
printf '%s\n' "${summary[@]}"
printf '\nall suites passed in %ds\n' "$((SECONDS - start))"
