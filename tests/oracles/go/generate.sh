#!/usr/bin/env bash
# Regenerate tests/vectors/groupcache-*.json and gomemcache-*.json from the real Go packages
# (versions pinned in go.mod/go.sum, fetched through the Go module proxy).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
CACHE="$REPO/tests/oracles/.cache/go"

source "$HERE/../../lib/need.sh"
need_packages --cmd go golang-go
mkdir -p "$CACHE"
(cd "$HERE" && GOFLAGS=-buildvcs=false go build -o "$CACHE/oracle" .)
cd "$REPO"
ORACLE_BIN="$CACHE/oracle" /usr/bin/env python3 "$HERE/go_oracle.py"
