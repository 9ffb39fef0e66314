#!/usr/bin/env bash
# Writes the tables generated from core's profile rows: the README's profile table, the crate
# docs' table in core/src/profile.rs and docs/compat.md's profile list (core/tests/tables.rs).
#   tests/gen-tables.sh            regenerate them in place
#   tests/gen-tables.sh --check    fail if a committed table is stale (as `cargo test` does)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [[ "${1:-}" == "--check" ]]; then
    exec cargo test -q -p ketama-core --test tables
fi
KETAMA_WRITE_TABLES=1 cargo test -q -p ketama-core --test tables generated_tables_are_fresh
