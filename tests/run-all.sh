#!/usr/bin/env bash
# Every test of the project, as CI runs it: lints, the Rust suites (core, CLI, C ABI), the
# no_std proofs, the C/valgrind/install/PHP suite, the Python suite and the mixed-language
# fleet on live memcached (tests/e2e). Installs what is
# missing (Debian packages, a Python venv, PHP) first, so it works on a fresh machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# Each stage prints its wall time when the next one starts (and at the end), so a slow
# stage is visible in CI's log.
start=$SECONDS
stage_start=$SECONDS
stage_name=""
# CPU seconds (user + sys) used by finished child processes so far: unlike wall time, it does
# not depend on what else the machine runs.
cpu_used() { times | awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.0f", t }'; }
stage_cpu=0
step() {
    local cpu
    cpu=$(cpu_used)
    if [[ -n "$stage_name" ]]; then
        printf '==== %ds wall, %ds CPU: %s\n' "$((SECONDS - stage_start))" "$((cpu - stage_cpu))" "$stage_name"
    fi
    stage_name=$*
    stage_start=$SECONDS
    stage_cpu=$cpu
    printf '\n==== %s (at %ds)\n' "$*" "$((SECONDS - start))"
}

step "toolchain and system packages"
bash tests/setup.sh

step "format and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

step "Rust tests: core (vectors from the real clients), CLI, C ABI"
# KETAMA_REQUIRE_MEMCACHED: the live tests (simulate --live, audit) fail instead of skipping
KETAMA_REQUIRE_MEMCACHED=1 cargo test --workspace --exclude ketama-py --locked

step "no_std builds"
bash tests/no_std/check.sh

step "C ABI: header freshness, C tests under valgrind, make install + pkg-config, libketama drop-in, PHP FFI"
bash ffi-c/test.sh

step "Python package"
bash python/test.sh

step "Mixed-language fleet on live memcached: PHP and Java write, Python, C and PHP read, ketama audit"
bash tests/e2e/test.sh

step "Packaging: wheel on every CPython without Rust, sdist, Debian packages + pkg-config/CMake/PHP, composer"
bash tests/packaging.sh

step "Fuzzing: every cargo-fuzz target for a few seconds (fuzz/README.md for longer runs)"
bash fuzz/run.sh "${KETAMA_FUZZ_SECONDS:-5}"

step "done"
printf '\nall suites passed in %ds\n' "$((SECONDS - start))"
