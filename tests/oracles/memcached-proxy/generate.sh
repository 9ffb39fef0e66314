#!/usr/bin/env bash
# Regenerates tests/vectors/memcached-proxy*.json from memcached's own proxy hashing code:
# proxy_ring_hash.c, proxy_jump_hash.c, proxy_xxhash.c, md5.c and xxhash.h of a memcached
# release, compiled alone with harness.c against Debian's Lua 5.4 (a full --enable-proxy
# build downloads its vendored Lua at build time, which this offline setup cannot).
# Needs MEMCACHED_GIT: a git clone of memcached/memcached holding tag $MEMCACHED_TAG.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
MEMCACHED_TAG="${MEMCACHED_TAG:-1.6.45}"
: "${MEMCACHED_GIT:?set MEMCACHED_GIT to a git clone of memcached/memcached}"
source "$ROOT/tests/lib/need.sh"
need_packages liblua5.4-dev
need_packages --cmd cc gcc
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
for f in proxy_ring_hash.c proxy_jump_hash.c proxy_xxhash.c md5.c md5.h xxhash.h; do
  git -C "$MEMCACHED_GIT" show "$MEMCACHED_TAG:$f" > "$TMP/$f"
done
COMMIT="$(git -C "$MEMCACHED_GIT" rev-parse "$MEMCACHED_TAG^{commit}")"
cp "$HERE/proxy.h" "$HERE/harness.c" "$TMP/"
cc -O1 -std=gnu11 -I"$TMP" -I/usr/include/lua5.4 -o "$TMP/harness" "$TMP/harness.c" \
  "$TMP/proxy_ring_hash.c" "$TMP/proxy_jump_hash.c" "$TMP/proxy_xxhash.c" "$TMP/md5.c" -llua5.4
LUAV="$(dpkg-query -W -f '${Version}' liblua5.4-dev)"
cd "$ROOT"
python3 "$HERE/gen.py" "$TMP/harness" "$MEMCACHED_TAG" "$COMMIT" "$LUAV"
