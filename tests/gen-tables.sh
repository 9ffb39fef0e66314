#!/usr/bin/env bash
# Writes everything generated from core's profile and hash rows: the README's profile table,
# the crate docs' table in core/src/profile/mod.rs and docs/compat.md's profile list
# (core/tests/tables.rs), then the exported spec (spec/profiles.json, `ketama profiles
# --format spec`) and the copy each port embeds, and the error table (spec/errors.json,
# ffi-c/tests/status_table.rs: every C status, core's errors among them), then what the
# bindings and ports generate from those two files (tests/gen/ports.py: error classes, knob
# constants, Java's profile table).
#   tests/gen-tables.sh            regenerate them in place
#   tests/gen-tables.sh --check    fail if a committed table, the spec or a port's copy is stale
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
copies=(go/profiles.json js/spec/profiles.json)
spec=$(mktemp)
trap 'rm -f "$spec"' EXIT
if [[ "${1:-}" == "--check" ]]; then
    cargo test -q -p ketama-core --test tables
    cargo test -q -p ketama-ffi --test status_table
    cargo run -q -p ketama-cli -- profiles --format spec > "$spec"
    stale=0
    for f in spec/profiles.json "${copies[@]}"; do
        cmp -s "$spec" "$f" || { echo "stale: $f (run tests/gen-tables.sh)" >&2; stale=1; }
    done
    python3 tests/gen/ports.py --check || stale=1
    exit "$stale"
fi
KETAMA_WRITE_TABLES=1 cargo test -q -p ketama-core --test tables generated_tables_are_fresh
KETAMA_WRITE_TABLES=1 cargo test -q -p ketama-ffi --test status_table errors_json_is_fresh
cargo run -q -p ketama-cli -- profiles --format spec > "$spec"
for f in spec/profiles.json "${copies[@]}"; do
    cp "$spec" "$f"
done
python3 tests/gen/ports.py
echo "gen-tables: tables, spec/profiles.json, spec/errors.json and ${#copies[@]} port copies written"
