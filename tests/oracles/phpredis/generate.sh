#!/usr/bin/env bash
# Regenerates tests/vectors/phpredis-array-*.json (default and consistent => true) from the REAL
# phpredis RedisArray (Debian php8.2-redis 5.3.7) on Debian's PHP 8.2. Offline: lazy_connect,
# and _target() only computes the placement.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
source "$ROOT/tests/lib/need.sh"
need_packages php8.2-cli php8.2-redis
DEB="$(dpkg-query -W -f '${Version}' php8.2-redis)"
UP="$(php -r 'echo phpversion("redis");')"
[ "$UP" = "5.3.7" ] || { echo "expected phpredis 5.3.7, got $UP" >&2; exit 1; }
PHPV="$(php -r 'echo "PHP ", PHP_VERSION;')"
rm -f "$ROOT"/tests/vectors/phpredis-array-*.json
python3 "$HERE/gen.py" "$UP" "$DEB" "$PHPV"
