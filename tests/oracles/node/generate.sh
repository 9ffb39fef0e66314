#!/usr/bin/env bash
# Regenerate tests/vectors/node-hashring-*.json and hash_ring-*.json from npm hashring.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
CACHE="$REPO/tests/oracles/.cache/node"
HASHRING_VERSION=3.2.0

source "$HERE/../../lib/need.sh"
need_packages --cmd node nodejs npm
need_packages --cmd npm npm
mkdir -p "$CACHE"
have="$(node -p "try{require('$CACHE/node_modules/hashring/package.json').version}catch(e){''}")"
if [ "$have" != "$HASHRING_VERSION" ]; then
    npm install --prefix "$CACHE" --no-save --no-package-lock --no-audit --no-fund \
        "hashring@$HASHRING_VERSION" >/dev/null
fi
cd "$REPO"
HASHRING_MODULES="$CACHE/node_modules" /usr/bin/env python3 "$HERE/node_oracle.py"
