#!/usr/bin/env bash
# Regenerates tests/vectors/predis-*.json and predis-ketama-*.json from the REAL Predis 1.1
# (Debian php-nrk-predis) on Debian's PHP 8.2. Offline: Predis connects lazily and the driver
# asserts that nothing connected.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
source "$ROOT/tests/lib/need.sh"
need_packages php8.2-cli php-nrk-predis
DEB="$(dpkg-query -W -f '${Version}' php-nrk-predis)"
UP="$(php -r 'require_once "Predis/Autoloader.php"; Predis\Autoloader::register(); echo Predis\Client::VERSION;')"
[ "$UP" = "1.1.10" ] || { echo "expected Predis 1.1.10, got $UP" >&2; exit 1; }
PHPV="$(php -r 'echo "PHP ", PHP_VERSION;')"
rm -f "$ROOT"/tests/vectors/predis-*.json
python3 "$HERE/gen.py" "$UP" "$DEB" "$PHPV"
