#!/usr/bin/env bash
# The JavaScript package's tests: its dev dependencies from the registry (npm ci: memjs for the
# hook test, typescript for the declarations), the types checked by tsc, then node --test
# (every vector file directly, hashes, API and errors, the shared bad-input matrix, memjs, the
# spec copy, and the conformance kit when the ketama CLI is there: env KETAMA_BIN, else
# target/debug/ketama; KETAMA_REQUIRE_CLI=1 makes a missing kit a failure). Installs Node.js
# when it is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
source "$here/../tests/lib/need.sh"
need_packages --cmd node nodejs
need_packages --cmd npm npm
major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 18)); then
    echo "js/test.sh: Node.js >= 18 needed for node --test (have $(node --version))" >&2
    exit 1
fi
if ! node -e "require('./node_modules/memjs/package.json'); require('./node_modules/typescript/package.json')" 2>/dev/null \
    || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --no-audit --no-fund >&2
fi
echo "== tsc --noEmit (index.d.ts, test/types.ts)"
node_modules/.bin/tsc -p tsconfig.json
echo "== node --test"
node --test test/
