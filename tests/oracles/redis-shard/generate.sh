#!/usr/bin/env bash
# Regenerates tests/vectors/redis-shard-*.json from the REAL redis-shard (Zhihu), installed
# from PyPI at the pinned version with its dependency redis-py into a venv in a temporary
# directory (removed at exit). Offline apart from pip: nothing connects.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
REDIS_SHARD=0.3.7
REDIS_PY=8.1.0
PY="${REDIS_SHARD_PYTHON:-}"
if [ -z "$PY" ]; then
  for c in "$HOME/.pyenv/versions/3.11.7/bin/python" python3.11 python3; do
    if command -v "$c" >/dev/null 2>&1; then PY="$(command -v "$c")"; break; fi
  done
fi
if ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  source "$ROOT/tests/lib/need.sh"
  need_packages python3-venv
fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
"$PY" -m venv "$TMP/venv"
"$TMP/venv/bin/pip" install -q "redis-shard==$REDIS_SHARD" "redis==$REDIS_PY"
rm -f "$ROOT"/tests/vectors/redis-shard-*.json
"$TMP/venv/bin/python" "$HERE/oracle.py"
