#!/usr/bin/env bash
# The rust stage of tests/run-all.sh builds the workspace once (`cargo test`); every later
# stage's `cargo build -p ...` (the C library, the CLI, its man pages) must find that build
# fresh instead of compiling the crates again. Cargo keeps one build per feature set, so this
# holds only while each crate resolves to the same features in the test build as in those
# builds: a dev-dependency that turns on a feature of a shared crate (or a crate selected by
# `--workspace` that others use without its default features) forks the build. Compares the
# features per crate, `cargo tree` only (no compilation), and names what differs.
#   tests/one-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The rust stage's selection (tests/lib/test-build.sh) and the later builds: `cargo build -p
# ketama-cli` (the ports, the e2e scripts), its examples (`cargo run --example gen-assets`:
# dev-dependencies resolved too), the C library with the C tests' feature (ffi-c/test.sh,
# ruby/test.sh) and both at once (tests/e2e). A build of ketama-ffi without `test-panic`
# (packaging, tests/e2e/redis.sh) recompiles that one crate only.
source tests/lib/test-build.sh
later_builds=(
    "-p ketama-cli -e normal,build"
    "-p ketama-cli -e normal,build,dev"
    "-p ketama-ffi --features test-panic -e normal,build"
    "-p ketama-cli -p ketama-ffi --features ketama-ffi/test-panic -e normal,build"
)

features() {
    cargo tree --locked "$@" -f '{p} [{f}]' --prefix none | sed 's/ (\*)//; s/ (proc-macro)//' | sort -u
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
features "${test_build[@]}" -e normal,build,dev >"$tmp/test"
fail=0
for b in "${later_builds[@]}"; do
    # shellcheck disable=SC2086
    features $b >"$tmp/later"
    if diff=$(comm -13 "$tmp/test" "$tmp/later") && [[ -n $diff ]]; then
        printf '`cargo build %s` would compile these again (features differ from the test build):\n%s\n' "$b" "$diff"
        printf 'the test build has:\n'
        cut -d' ' -f1 <<<"$diff" | while read -r c; do grep "^$c " "$tmp/test" || true; done
        fail=1
    fi
done
if ((fail)); then
    echo "align the features (Cargo.toml: enable them in the dependency that lacks them, or turn off what only a dev-dependency wants)" >&2
    exit 1
fi
echo "one build: the later builds reuse the test build's crates"
