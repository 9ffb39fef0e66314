#!/usr/bin/env bash
# Regenerates the vector files of the Python clients (pymemcache, Django PyMemcacheCache,
# python-memcached, emcache) from the REAL clients, installed from PyPI at the pinned versions
# below into a venv in a temporary directory (removed at exit). Offline apart from pip;
# python-memcached connects to listening sockets on 127.0.0.1 only.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
PYMEMCACHE=4.0.0
DJANGO=5.2.19
PYTHON_MEMCACHED=1.62
EMCACHE=1.3.3

PY="${PYCLIENTS_PYTHON:-}"
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
"$TMP/venv/bin/pip" install -q "pymemcache==$PYMEMCACHE" "Django==$DJANGO" \
  "python-memcached==$PYTHON_MEMCACHED" "emcache==$EMCACHE"
cd "$ROOT"
for d in pymemcache_oracle django_oracle emcache_oracle python_memcached_oracle \
         python_memcached_failover pymemcache_failover; do
  "$TMP/venv/bin/python" "$HERE/$d.py"
done
