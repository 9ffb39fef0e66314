#!/usr/bin/env bash
# Regenerates tests/vectors/pending/memjs-*.json from the REAL npm memjs (installed from npm into
# tests/oracles/.cache/memjs). Pure computation: memjs connects only when a command is sent.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
CACHE="$ROOT/tests/oracles/.cache/memjs"
VERSION=1.3.2
source "$HERE/../../lib/need.sh"
need_packages --cmd node nodejs npm
if [ ! -f "$CACHE/node_modules/memjs/package.json" ] || \
   [ "$(node -p "require('$CACHE/node_modules/memjs/package.json').version")" != "$VERSION" ]; then
  mkdir -p "$CACHE"
  (cd "$CACHE" && npm install --no-audit --no-fund --silent "memjs@$VERSION" >&2)
fi
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/memjs-*.json
NODE_PATH="$CACHE/node_modules" python3 "$HERE/gen.py" "$VERSION" "$CACHE/node_modules"
