#!/usr/bin/env bash
# Regenerate tests/vectors/uhashring-*.json from the real uhashring (PyPI).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
CACHE="$REPO/tests/oracles/.cache"
VENV="$CACHE/venv-uhashring"
UHASHRING_VERSION=2.5

PY=/usr/bin/python3
if ! "$PY" -m venv --help >/dev/null 2>&1 || ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
    source "$HERE/../../lib/need.sh"
    need_packages python3-venv
fi
mkdir -p "$CACHE"
if [ ! -x "$VENV/bin/python" ] || \
   [ "$("$VENV/bin/python" -c 'from importlib.metadata import version; print(version("uhashring"))' 2>/dev/null)" != "$UHASHRING_VERSION" ]; then
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q "uhashring==$UHASHRING_VERSION"
fi
cd "$REPO"
"$VENV/bin/python" "$HERE/uhashring_oracle.py"
