#!/usr/bin/env bash
# Regenerates every vector file in tests/vectors/ by running the REAL clients (installed from
# Debian, Maven Central, PyPI, npm and the Go module proxy by each family's script).
# Usage: bash tests/oracles/regenerate.sh [family ...]   (default: all families)
# CI does not run this; it checks the committed vectors. libketama-*.json are recorded outputs
# of the real libketama (no registry packages it): see tests/vectors/README.md.
# The later client families (dalli ... xmemcached-gwhalin) write to tests/vectors/pending/ until their
# profiles exist; mcrouter needs git clones of facebook/mcrouter and facebook/folly
# (MCROUTER_GIT, FOLLY_GIT; see tests/oracles/mcrouter/README.md); nginx and perl-memcached need
# root (unshare).
# memcached-proxy needs MEMCACHED_GIT (a git clone of memcached/memcached; see its generate.sh).
# redis-rb needs REDIS_RB_GIT and REDIS_CLIENT_GIT (git clones) for 5.x: see redis-rb/README.md.
# enyim needs ENYIM_GIT (a git clone of enyim/EnyimMemcached; see enyim/README.md).
# `buckets` needs GO_MAGLEV_GIT and GO_MPCHASH_GIT (git clones): see buckets/generate.sh.
# `libketama` (dropin/libketama-files.json: the real libketama over hostile servers files)
# needs KETAMA_SRC, a git clone of RJ/ketama: see libketama/generate.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
families=("$@")
if [ ${#families[@]} -eq 0 ]; then
  families=(libmemcached java live python node go flexihash buckets jumpback-anchor
            dalli nginx whalin folsom memjs mcrouter xmemcached-gwhalin
            pyclients memcached-proxy evcache libketama
            predis phpredis redis-rb redis-shard perl-memcached
            jedis go-redis finagle enyim)
fi
for f in "${families[@]}"; do
  echo "== regenerating vectors: $f"
  bash "$here/$f/generate.sh"
done
echo "done: $(ls "$here/../vectors"/*.json "$here/../vectors"/buckets/*.json | wc -l) vector files, $(ls "$here/../vectors/pending"/*.json 2>/dev/null | wc -l) pending (families without a profile yet)"
