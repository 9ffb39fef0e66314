#!/usr/bin/env bash
# Regenerates tests/vectors/cache-memcached-fast-*.json (ketama_points 150 and 0) and
# tests/vectors/cache-memcached-*.json by observing the REAL Perl clients (Debian
# libcache-memcached-fast-perl 0.28, libcache-memcached-perl 1.30) talking to loopback
# stand-ins inside a private network + mount namespace (unshare): the clients never reach
# anything but the namespace's own loopback device. Needs root (unshare, ip, mount).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
source "$ROOT/tests/lib/need.sh"
need_packages perl libcache-memcached-fast-perl libcache-memcached-perl libstring-crc32-perl \
  libsocket6-perl iproute2 util-linux
FAST="$(perl -MCache::Memcached::Fast -e 'print $Cache::Memcached::Fast::VERSION')"
CM="$(perl -MCache::Memcached -e 'print $Cache::Memcached::VERSION')"
CRC="$(perl -MString::CRC32 -e 'print $String::CRC32::VERSION')"
[ "$FAST" = "0.28" ] || { echo "expected Cache::Memcached::Fast 0.28, got $FAST" >&2; exit 1; }
[ "$CM" = "1.30" ] || { echo "expected Cache::Memcached 1.30, got $CM" >&2; exit 1; }
FAST_DEB="$(dpkg-query -W -f '${Version}' libcache-memcached-fast-perl)"
CM_DEB="$(dpkg-query -W -f '${Version}' libcache-memcached-perl)"
PERLV="$(perl -e 'printf "perl %vd", $^V')"
rm -f "$ROOT"/tests/vectors/cache-memcached-*.json
unshare --net --mount --propagation private --fork \
  python3 "$HERE/live.py" "$FAST" "$FAST_DEB" "$CM" "$CM_DEB" "$CRC" "$PERLV"
