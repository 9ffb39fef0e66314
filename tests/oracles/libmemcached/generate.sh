#!/usr/bin/env bash
# Regenerates tests/vectors/{libhashkit,libmemcached,modula,php-memcached}-*.json from the real
# libmemcached/libhashkit 1.1.4 (Debian) and php-memcached 3.2.0 (Debian php8.2-memcached).
# See README.md beside this file. Needs root for apt-get when packages are missing.
# Usage: generate.sh [--only php-prefix]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
CACHE="$ROOT/tests/oracles/.cache/libmemcached"
mkdir -p "$CACHE"

# ---------------------------------------------------------------- packages
PKGS=(libmemcached-dev libhashkit-dev libmemcached11 libhashkit2 php8.2-cli php8.2-memcached
      pkg-config gcc g++ cmake make bison flex python3 dpkg-dev ca-certificates curl)
source "$HERE/../../lib/need.sh"
need_packages "${PKGS[@]}"

LM_VER="$(dpkg-query -W -f='${Version}' libmemcached11)"   # e.g. 1.1.4-1
UPSTREAM="$(pkg-config --modversion libmemcached)"          # e.g. 1.1.4
HK_VER="$(dpkg-query -W -f='${Version}' libhashkit2)"
PHPM_VER="$(dpkg-query -W -f='${Version}' php8.2-memcached)"

# `--only php-prefix`: only the php-memcached prefix files (php and the packages above; no build)
if [ "${1:-}" = --only ]; then
  [ "${2:-}" = php-prefix ] || { echo "usage: $0 [--only php-prefix]" >&2; exit 2; }
  VERSIONS="$(python3 -c 'import json,sys; print(json.dumps(dict(zip(sys.argv[1::2], sys.argv[2::2]))))' \
    upstream "$UPSTREAM" libmemcached11 "$LM_VER" libhashkit2 "$HK_VER" php8.2-memcached "$PHPM_VER" \
    php_memcached_upstream "$(php -r 'echo phpversion("memcached");')" php "$(php -r 'echo PHP_VERSION;')" \
    orig_sha256 "(not used by these files)")"
  LMORACLE=/nonexistent LM_NDEBUG_LIBDIR= LM_VERSIONS="$VERSIONS" python3 "$HERE/generate.py" --only php-prefix
  exit 0
fi

# ---------------------------------------------------------------- Debian's source (an -DNDEBUG build: no abort at 101 servers, hsieh)
# Debian's build keeps assertions on and aborts on the 101st server in consistent modes. The same
# source built with -DNDEBUG gives the 200+ server vectors. apt-get source with a private
# deb-src list (no change to the system's apt configuration).
SRC="$CACHE/src"
ORIG="$SRC/libmemcached_${UPSTREAM}.orig.tar.gz"
DSC="$SRC/libmemcached_${LM_VER}.dsc"
mkdir -p "$SRC"
if [ ! -f "$ORIG" ] || [ ! -f "$DSC" ]; then
  APT="$CACHE/apt"
  mkdir -p "$APT/lists/partial"
  echo "deb-src http://deb.debian.org/debian bookworm main" > "$APT/sources.list"
  APTOPT=(-o "Dir::Etc::SourceList=$APT/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$APT/lists" -o "Debug::NoLocking=1")
  apt-get "${APTOPT[@]}" update
  # The .debian.tar.xz may be unreachable (it was in this project's sandbox): keep going with the
  # signed .dsc and the pristine upstream tarball it names.
  (cd "$SRC" && apt-get "${APTOPT[@]}" source --download-only "libmemcached=$LM_VER") || true
fi
[ -f "$ORIG" ] && [ -f "$DSC" ] || { echo "could not fetch libmemcached source ($DSC, $ORIG)" >&2; exit 1; }
ORIG_SHA="$(sha256sum "$ORIG" | cut -d' ' -f1)"
grep -q " $ORIG_SHA $(stat -c %s "$ORIG") libmemcached_${UPSTREAM}.orig.tar.gz" "$DSC" \
  || { echo "orig tarball sha256 does not match $DSC" >&2; exit 1; }

SRCDIR="$CACHE/libmemcached-$UPSTREAM"
[ -d "$SRCDIR" ] || tar -xzf "$ORIG" -C "$CACHE"
build() {  # build <dir> <extra cmake args...>  (only the two libraries we need)
  local dir="$1"; shift
  if [ ! -f "$dir/src/libmemcached/libmemcached.so.11" ] || [ ! -f "$dir/src/libhashkit/libhashkit.so.2" ]; then
    mkdir -p "$dir"
    (cd "$dir" && cmake "$SRCDIR" -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS="-O2 -DNDEBUG" \
        -DCMAKE_CXX_FLAGS="-O2 -DNDEBUG" -DBUILD_TESTING=OFF -DBUILD_DOCS=OFF \
        -DBUILD_DOCS_MAN=OFF -DENABLE_SASL=OFF -DENABLE_MEMASLAP=OFF "$@" >/dev/null \
      && make -j2 libmemcached libhashkit >/dev/null)
  fi
}
build "$CACHE/build-ndebug"
build "$CACHE/build-hsieh" -DENABLE_HASH_HSIEH=ON
NDEBUG_LIBDIR="$CACHE/build-ndebug/src/libmemcached:$CACHE/build-ndebug/src/libhashkit"
HSIEH_LIBDIR="$CACHE/build-hsieh/src/libhashkit"

# Debian's build (documented in README.md): 101 servers in CONSISTENT_KETAMA abort.
cc -O2 -Wall -o "$CACHE/lmoracle" "$HERE/lmoracle.c" $(pkg-config --cflags --libs libmemcached) -lhashkit
{ echo "behavior DISTRIBUTION 2"; for i in $(seq 1 101); do echo "add 10.9.0.$i 11211"; done; } > "$CACHE/t5.ops"
if (echo 6b6579 | "$CACHE/lmoracle" locate "$CACHE/t5.ops") >/dev/null 2>&1; then
  echo "note: Debian's libmemcached did NOT abort at 101 servers (the assertion is gone?)"
else
  echo "confirmed: Debian's libmemcached aborts at the 101st server (consistent mode)"
fi
echo 6b6579 | LD_LIBRARY_PATH="$NDEBUG_LIBDIR" "$CACHE/lmoracle" locate "$CACHE/t5.ops" >/dev/null

VERSIONS="$(python3 -c 'import json,sys; print(json.dumps(dict(zip(sys.argv[1::2], sys.argv[2::2]))))' \
  upstream "$UPSTREAM" libmemcached11 "$LM_VER" libhashkit2 "$HK_VER" php8.2-memcached "$PHPM_VER" \
  php_memcached_upstream "$(php -r 'echo phpversion("memcached");')" php "$(php -r 'echo PHP_VERSION;')" \
  orig_sha256 "$ORIG_SHA")"

LMORACLE="$CACHE/lmoracle" LM_NDEBUG_LIBDIR="$NDEBUG_LIBDIR" LM_HSIEH_LIBDIR="$HSIEH_LIBDIR" \
  LM_VERSIONS="$VERSIONS" python3 "$HERE/generate.py"
