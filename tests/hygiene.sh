#!/usr/bin/env bash
# Checks of the tree itself, in seconds:
# - comments state rules, not history: no source file cites an issue number or a "trap N";
# - no source file over 600 lines;
# - Debian packages are installed only through tests/lib/need.sh (one helper for every script).
# Generated files are checked by their generators (gen-header.sh --check, gen-tables.sh --check).
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
sources() {
    git ls-files -- '*.rs' '*.py' '*.php' '*.go' '*.java' '*.js' '*.mjs' '*.ts' '*.rb' '*.c' '*.h' '*.sh' \
        | grep -v -E '^(tests/vectors|include)/|\.d\.ts$'
}

if hits=$(sources | xargs grep -n -E '\b[Ii]ssue[- ]#?[0-9]+|\btrap [0-9]+' 2>/dev/null); then
    printf 'comments citing issue numbers or traps (state the rule, or link to docs/):\n%s\n' "$hits"
    fail=1
fi

long=$(sources | xargs wc -l | awk '$2 != "total" && $1 > 600')
if [[ -n $long ]]; then
    printf 'source files over 600 lines (split them by concern):\n%s\n' "$long"
    fail=1
fi

if hits=$(git ls-files -- '*.sh' '.ci/*' | grep -v -x 'tests/lib/need.sh' \
    | xargs grep -n -E 'apt-get( -[a-z]+)* (install|update)' 2>/dev/null | grep -v -E ':[0-9]+:\s*#|"[^"]*apt-get install[^"]*"'); then
    printf 'apt-get outside tests/lib/need.sh (source it and call need_packages):\n%s\n' "$hits"
    fail=1
fi

if ((fail)); then
    exit 1
fi
echo "hygiene: comments, file sizes and package installs as the rules say"
