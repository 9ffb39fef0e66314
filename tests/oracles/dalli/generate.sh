#!/usr/bin/env bash
# Regenerates tests/vectors/pending/dalli-*.json from the REAL Dalli (Debian ruby-dalli 3.0.x on
# Debian's ruby). Pure computation: the servers' liveness probe is stubbed, no socket is opened.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
need=()
command -v ruby >/dev/null 2>&1 || need+=(ruby)
dpkg-query -W ruby-dalli >/dev/null 2>&1 || need+=(ruby-dalli)
command -v memcached >/dev/null 2>&1 || need+=(memcached)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi
DEB="$(dpkg-query -W -f '${Version}' ruby-dalli)"
UP="$(ruby -e 'require "dalli"; print Dalli::VERSION')"
case "$UP" in 3.0.*) ;; *) echo "expected dalli 3.0.x, got $UP" >&2; exit 1 ;; esac
RUBYV="$(ruby -e 'print "ruby ", RUBY_VERSION')"
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/dalli-*.json
python3 "$HERE/gen.py" "$UP/$DEB" "$RUBYV"
# Failover with servers that do not answer (live ones: memcached on 127.0.0.1).
rm -f "$ROOT"/tests/vectors/dalli-failover-*.json "$ROOT"/tests/vectors/extra/dalli-dead-*.json
python3 "$HERE/failover_gen.py" "$UP" "$DEB" "$RUBYV" "$(memcached -V | cut -d' ' -f2)"
