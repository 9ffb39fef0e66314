#!/usr/bin/env bash
# Records pecl memcache's failover (tests/vectors/extra/pecl-memcache*-dead-*.json) with the real
# client (Debian php8.2-memcache) and real memcached daemons on loopback; see pecl_failover.py.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../../lib/need.sh"
need=()
command -v php >/dev/null 2>&1 || need+=(php-cli)
php -m 2>/dev/null | grep -qx memcache || need+=(php-memcache)
command -v memcached >/dev/null 2>&1 || need+=(memcached)
need_packages "${need[@]}"
exec python3 "$HERE/pecl_failover.py"
