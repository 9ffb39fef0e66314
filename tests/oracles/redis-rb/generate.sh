#!/usr/bin/env bash
# Regenerates tests/vectors/redis-rb-*.json from the REAL redis-rb 4.8 (Debian ruby-redis) and
# tests/vectors/redis-rb-5-*.json from the REAL redis-rb 5.x, loaded unmodified from its own
# source (tag $REDIS_RB_TAG of REDIS_RB_GIT, a git clone of github redis/redis-rb) with its
# dependency redis-client (tag $REDIS_CLIENT_TAG of REDIS_CLIENT_GIT, a clone of github
# redis-rb/redis-client) and Debian's ruby-connection-pool: RubyGems is not reachable here.
# The two source trees are extracted to a temporary directory (removed at exit). Offline:
# nothing connects.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
REDIS_RB_TAG="${REDIS_RB_TAG:-v5.4.1}"
REDIS_RB_COMMIT=6784a3204be44d4ca7891a901295e4a4007a13a5
REDIS_CLIENT_TAG="${REDIS_CLIENT_TAG:-v0.30.0}"
REDIS_CLIENT_COMMIT=92980770a3c09e327813406d234afa4b05c11cce
REDIS_RB_GIT="${REDIS_RB_GIT:-/work/.mirror/redis+redis-rb/repo}"
REDIS_CLIENT_GIT="${REDIS_CLIENT_GIT:-/work/.mirror/redis-rb+redis-client/repo}"
source "$ROOT/tests/lib/need.sh"
need_packages ruby ruby-redis ruby-connection-pool
RUBYV="$(ruby -e 'print "ruby ", RUBY_VERSION')"

# redis-rb 4.x (Debian)
DEB="$(dpkg-query -W -f '${Version}' ruby-redis)"
UP="$(ruby -e 'require "redis"; print Redis::VERSION')"
[ "$UP" = "4.8.0" ] || { echo "expected redis-rb 4.8.0 (Debian ruby-redis), got $UP" >&2; exit 1; }
rm -f "$ROOT"/tests/vectors/redis-rb-*.json
python3 "$HERE/gen.py" 4 "$UP" "$DEB" "$RUBYV"

# redis-rb 5.x (source)
for pair in "$REDIS_RB_GIT:$REDIS_RB_TAG:$REDIS_RB_COMMIT" \
            "$REDIS_CLIENT_GIT:$REDIS_CLIENT_TAG:$REDIS_CLIENT_COMMIT"; do
  IFS=: read -r git tag commit <<<"$pair"
  got="$(git -C "$git" rev-parse "$tag^{commit}" 2>/dev/null)" || {
    echo "no tag $tag in $git (set REDIS_RB_GIT / REDIS_CLIENT_GIT to git clones)" >&2; exit 1; }
  [ "$got" = "$commit" ] || { echo "$git $tag is $got, expected $commit" >&2; exit 1; }
done
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/redis-rb" "$TMP/redis-client"
git -C "$REDIS_RB_GIT" archive "$REDIS_RB_TAG" lib | tar -x -C "$TMP/redis-rb"
git -C "$REDIS_CLIENT_GIT" archive "$REDIS_CLIENT_TAG" lib | tar -x -C "$TMP/redis-client"
python3 "$HERE/gen.py" 5 "${REDIS_RB_TAG#v}" "$REDIS_RB_COMMIT" "${REDIS_CLIENT_TAG#v}" \
  "$REDIS_CLIENT_COMMIT" "$RUBYV" "$TMP/redis-rb/lib" "$TMP/redis-client/lib"
