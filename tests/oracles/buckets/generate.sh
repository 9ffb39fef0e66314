#!/usr/bin/env bash
# Regenerates tests/vectors/buckets/*.json from the REAL bucket functions:
#   guava     Guava (Maven Central com.google.guava:guava)      Hashing.consistentHash
#   jumpback  hash4j (Maven Central com.dynatrace.hash4j:hash4j) jumpBackHash(splitMix64_V1())
#   jump      github.com/dgryski/go-jump (Go module proxy)
#   fliphash  DataDog's fliphash crate (crates.io)
#   maglev-go github.com/dgryski/go-maglev @8961b9b1b8e6 with github.com/dchest/siphash
#   mpchash-go github.com/dgryski/go-mpchash @7382f34c4cd1
# The Go module proxy answers 403 for go-maglev and go-mpchash, so this script needs a git
# clone of each (GO_MAGLEV_GIT, GO_MPCHASH_GIT: a clone or bare git dir of
# github.com/dgryski/go-maglev and go-mpchash) and checks out the pinned commits into
# tests/oracles/.cache (never committed).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
CACHE="$ROOT/tests/oracles/.cache"
M2="$CACHE/m2"
WORK="$CACHE/buckets"
OUT="$ROOT/tests/vectors/buckets"
GUAVA_VERSION=33.5.0-jre
HASH4J_VERSION=0.30.0
FLIPHASH_VERSION=0.1.0
MAGLEV_COMMIT=8961b9b1b8e6dadf116d6bac0474fc8dd10bc28f
MPCHASH_COMMIT=7382f34c4cd1ffb9a4600229effe59414edaa6e5
: "${GO_MAGLEV_GIT:?set GO_MAGLEV_GIT to a git clone of github.com/dgryski/go-maglev}"
: "${GO_MPCHASH_GIT:?set GO_MPCHASH_GIT to a git clone of github.com/dgryski/go-mpchash}"

need_apt=()
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v go >/dev/null 2>&1 || need_apt+=(golang-go)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
source "$HERE/../../lib/need.sh"
need_packages "${need_apt[@]}"
mkdir -p "$M2" "$WORK"

# Java: Guava and hash4j from Maven Central.
GUAVA_JAR="$M2/com/google/guava/guava/$GUAVA_VERSION/guava-$GUAVA_VERSION.jar"
HASH4J_JAR="$M2/com/dynatrace/hash4j/hash4j/$HASH4J_VERSION/hash4j-$HASH4J_VERSION.jar"
for art in "com.google.guava:guava:$GUAVA_VERSION" "com.dynatrace.hash4j:hash4j:$HASH4J_VERSION"; do
  mvn -q -B -Dmaven.repo.local="$M2" dependency:get -Dartifact="$art" -Dtransitive=false >&2
done
rm -rf "$WORK/java-classes" && mkdir -p "$WORK/java-classes"
javac -nowarn -d "$WORK/java-classes" -cp "$GUAVA_JAR:$HASH4J_JAR" "$HERE/java/BucketOracle.java"
JDK_MAJOR="$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')"

# Go: go-jump and siphash through the module proxy; go-maglev and go-mpchash at pinned commits.
for pair in "go-maglev:$GO_MAGLEV_GIT:$MAGLEV_COMMIT" "go-mpchash:$GO_MPCHASH_GIT:$MPCHASH_COMMIT"; do
  IFS=: read -r name src commit <<<"$pair"
  rm -rf "${WORK:?}/$name" && mkdir -p "$WORK/$name"
  git --git-dir="$( [ -d "$src/.git" ] && echo "$src/.git" || echo "$src")" archive "$commit" \
    | tar -x -C "$WORK/$name"
  rm -f "$WORK/$name"/*_test.go
  printf 'module github.com/dgryski/%s\n\ngo 1.20\n\nrequire github.com/dchest/siphash v1.2.3\n' \
    "$name" >"$WORK/$name/go.mod"
done
(cd "$HERE/go" && GOFLAGS=-mod=mod go build -o "$WORK/go-oracle" .)
GO_VERSION="$(go env GOVERSION)"

# Rust: the fliphash crate from crates.io, in its own workspace.
CARGO_TARGET_DIR="$WORK/fliphash-target" cargo build -q --release \
  --manifest-path "$HERE/fliphash/Cargo.toml"

META=$(cat <<JSON
{"guava": "$GUAVA_VERSION", "hash4j": "$HASH4J_VERSION", "jdk": "$JDK_MAJOR",
 "go": "$GO_VERSION", "go-jump": "v0.0.0-20170409065014-e1f439676b57",
 "go-maglev": "commit $MAGLEV_COMMIT", "go-mpchash": "commit $MPCHASH_COMMIT",
 "siphash": "v1.2.3", "fliphash": "$FLIPHASH_VERSION"}
JSON
)
rm -f "$OUT"/*.json
cd "$ROOT"
BUCKETS_META="$META" JAVA_CP="$WORK/java-classes:$GUAVA_JAR:$HASH4J_JAR" \
  GO_ORACLE="$WORK/go-oracle" FLIPHASH_ORACLE="$WORK/fliphash-target/release/fliphash-oracle" \
  python3 "$HERE/gen.py" "$OUT"
