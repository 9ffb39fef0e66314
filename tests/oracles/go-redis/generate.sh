#!/usr/bin/env bash
# Regenerates tests/vectors/go-redis-*.json (v9 Ring) and go-redis-v7-*.json (v7 Ring) from the
# REAL go-redis modules, versions pinned in go.mod / go.sum and fetched through the Go module
# proxy. Pure computation: no shard client ever connects (see README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
CACHE="$REPO/tests/oracles/.cache/go-redis"
source "$HERE/../../lib/need.sh"
need_packages --cmd go golang-go
need_packages --cmd unshare util-linux
for want in "github.com/redis/go-redis/v9 v9.23.0" "github.com/go-redis/redis/v7 v7.4.1"; do
  grep -q "^	$want\$" "$HERE/go.mod" || { echo "go.mod must pin $want" >&2; exit 1; }
done
mkdir -p "$CACHE"
(cd "$HERE" && GOFLAGS=-buildvcs=false go build -o "$CACHE/oracle" .)
rm -f "$REPO"/tests/vectors/go-redis-*.json
isolated() { if unshare -n true 2>/dev/null; then unshare -n "$@"; else "$@"; fi; }
cd "$REPO"
isolated python3 "$HERE/gen.py" "$CACHE/oracle"
python3 "$REPO/tests/vectors/manifest.py"
