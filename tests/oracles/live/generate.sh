#!/usr/bin/env bash
# Live oracles: pecl memcache 4.0.5.2 (php8.2-memcache) and twemproxy 0.5.0 (nutcracker).
# Starts memcached daemons on 127.0.0.0/8 only, stores keys through the real clients, asks each
# daemon which keys it holds, writes tests/vectors/pecl-memcache-*.json and twemproxy-*.json.
# Usage: tests/oracles/live/generate.sh [--only pecl|twemproxy|twemproxy-hash-tag]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"

need=()
for pkg in memcached nutcracker php8.2-cli php8.2-memcache python3; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        need+=("$pkg")
    fi
done
source "$HERE/../../lib/need.sh"
need_packages "${need[@]}"

WORK="$(mktemp -d)"
cleanup() {
    # kill only the daemons and proxies this run started (their pids are listed by live.py)
    if [ -f "$WORK/pids" ]; then
        while read -r pid; do
            kill "$pid" 2>/dev/null || true
        done < "$WORK/pids"
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

PYTHON="$(command -v python3)"
timeout 3000 "$PYTHON" "$HERE/live.py" --work "$WORK" --out "$ROOT/tests/vectors" "$@"
