#!/usr/bin/env bash
# Regenerates tests/vectors/pending/mcrouter-*.json by compiling mcrouter's own hashing sources
# (mcrouter/lib/fbi/hash.c, mcrouter/lib/WeightedCh3HashFunc.cpp) and folly's
# folly/hash/SpookyHashV2.cpp in a temporary directory. Their sources are NOT part of this repo:
# point MCROUTER_GIT / FOLLY_GIT at git clones of facebook/mcrouter and facebook/folly (bare or
# not; default: the session mirrors under /work/.mirror). Only the two headers the build would
# otherwise pull from all of folly (Range, json/dynamic) and mcrouter's checkLogic helper are
# replaced by the minimal stand-ins in stub/ (no hashing code in them). See README.md.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
MCROUTER_GIT="${MCROUTER_GIT:-/work/.mirror/facebook+mcrouter/repo}"
FOLLY_GIT="${FOLLY_GIT:-/work/.mirror/facebook+folly/repo}"
source "$HERE/../../lib/need.sh"
need_packages --cmd g++ g++
for g in "$MCROUTER_GIT" "$FOLLY_GIT"; do
  git -C "$g" rev-parse HEAD >/dev/null 2>&1 || { echo "not a git repository: $g (set MCROUTER_GIT / FOLLY_GIT)" >&2; exit 1; }
done
MREV="$(git -C "$MCROUTER_GIT" rev-parse HEAD)"
FREV="$(git -C "$FOLLY_GIT" rev-parse HEAD)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/src" "$TMP/cfg/folly"
git -C "$MCROUTER_GIT" archive HEAD mcrouter/lib/fbi/hash.c mcrouter/lib/fbi/hash.h mcrouter/lib/fbi/decls.h \
  mcrouter/lib/Ch3HashFunc.h mcrouter/lib/WeightedCh3HashFunc.h mcrouter/lib/WeightedCh3HashFunc.cpp \
  mcrouter/lib/WeightedChHashFuncBase.h mcrouter/lib/HashFunctionType.h | tar x -C "$TMP/src"
git -C "$FOLLY_GIT" archive HEAD folly/hash/SpookyHashV2.h folly/hash/SpookyHashV2.cpp folly/CPortability.h \
  folly/Portability.h folly/Likely.h folly/lang folly/portability | tar x -C "$TMP/src"
echo '#pragma once' > "$TMP/cfg/folly/folly-config.h"   # what CMake would generate; nothing needed
gcc -O2 -c -I"$TMP/src" "$TMP/src/mcrouter/lib/fbi/hash.c" -o "$TMP/hash.o"
g++ -std=c++20 -O2 -I"$HERE/stub" -I"$TMP/cfg" -I"$TMP/src" "$HERE/driver.cpp" \
  "$TMP/src/mcrouter/lib/WeightedCh3HashFunc.cpp" "$TMP/src/folly/hash/SpookyHashV2.cpp" "$TMP/hash.o" \
  -o "$TMP/mcdrv"
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/mcrouter-*.json "$ROOT"/tests/vectors/extra/mcrouter-raw-hashes.json
python3 "$HERE/gen.py" "commit $MREV with folly commit $FREV" "$TMP/mcdrv"
