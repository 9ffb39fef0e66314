#!/usr/bin/env bash
# The JavaScript port against npm hashring 3.2.0 (installs it here when missing), then
# bench/js/compare.js. A benchmark, not a test: CI does not run it.
#   bash bench/js/run.sh [SERVERS ...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! node -e "process.exit(require('$here/node_modules/hashring/package.json').version === '3.2.0' ? 0 : 1)" 2>/dev/null; then
    (cd "$here" && npm install --no-audit --no-fund --no-package-lock >&2)
fi
exec node "$here/compare.js" "$@"
