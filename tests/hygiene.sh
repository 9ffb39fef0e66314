#!/usr/bin/env bash
# Checks of the tree itself, in seconds:
# - comments state rules, not history: no source file cites an issue number or a numbered trap
#   of the client notes (the word trap, or COMPAT, followed by the trap's number, with or
#   without its T);
# - no source file over 600 lines but the profile table (core/src/profile.rs);
# - Debian packages are installed only through tests/lib/need.sh (one helper for every script).
# Generated files are checked by their generators (gen-header.sh --check, gen-tables.sh --check;
# the ports' generated files by tests/gen/ports.py --check, below).
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
sources() {
    git ls-files -- '*.rs' '*.py' '*.php' '*.go' '*.java' '*.js' '*.mjs' '*.ts' '*.rb' '*.c' '*.h' '*.sh' \
        | grep -v -E '^(tests/vectors|include)/|\.d\.ts$'
}

history='\b[Ii]ssue[- ]#?[0-9]+|\b[Tt][Rr][Aa][Pp][Ss]?[- ]+(#|[Nn][Oo]\.? ?)?[Tt]?[0-9]+|\b(COMPAT|client-notes)(\.md)?[ ,]+[Tt][0-9]+\b'
if hits=$(sources | xargs grep -n -E "$history" 2>/dev/null); then
    printf 'comments citing issue numbers or traps (state the rule, or link to docs/):\n%s\n' "$hits"
    fail=1
fi

long=$(sources | grep -v -x 'core/src/profile.rs' | xargs wc -l | awk '$2 != "total" && $1 > 600')
if [[ -n $long ]]; then
    printf 'source files over 600 lines (split them by concern):\n%s\n' "$long"
    fail=1
fi

if hits=$(git ls-files -- '*.sh' '.ci/*' | grep -v -x 'tests/lib/need.sh' \
    | xargs grep -n -E 'apt-get( -[a-z]+)* (install|update)' 2>/dev/null | grep -v -E ':[0-9]+:\s*#|"[^"]*apt-get install[^"]*"'); then
    printf 'apt-get outside tests/lib/need.sh (source it and call need_packages):\n%s\n' "$hits"
    fail=1
fi

# The files the bindings and ports generate from spec/errors.json and spec/profiles.json
# (tests/gen/ports.py; reading the committed spec files only, so it runs before any build).
if ! python3 tests/gen/ports.py --check; then
    printf 'generated files are stale: run bash tests/gen-tables.sh\n'
    fail=1
fi

if ((fail)); then
    exit 1
fi
echo "hygiene: comments, file sizes and package installs as the rules say"
