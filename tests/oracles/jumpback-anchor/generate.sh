#!/usr/bin/env bash
# Regenerates tests/vectors/jumpback-anchor/hash4j.json from the REAL hash4j (Maven Central
# com.dynatrace.hash4j:hash4j): ConsistentHashing.jumpBackAnchorHash(splitMix64_V1()) driven
# by JumpBackAnchorOracle.java with the operation sequences of gen.py (fixed seed).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
CACHE="$ROOT/tests/oracles/.cache"
M2="$CACHE/m2"
WORK="$CACHE/jumpback-anchor"
HASH4J_VERSION=0.30.0

need_apt=()
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
fi
mkdir -p "$M2" "$WORK"
HASH4J_JAR="$M2/com/dynatrace/hash4j/hash4j/$HASH4J_VERSION/hash4j-$HASH4J_VERSION.jar"
mvn -q -B -Dmaven.repo.local="$M2" dependency:get \
  -Dartifact="com.dynatrace.hash4j:hash4j:$HASH4J_VERSION" -Dtransitive=false >&2
rm -rf "$WORK/classes" && mkdir -p "$WORK/classes"
javac -nowarn -d "$WORK/classes" -cp "$HASH4J_JAR" "$HERE/JumpBackAnchorOracle.java"
mkdir -p "$ROOT/tests/vectors/jumpback-anchor"
python3 "$HERE/gen.py" "$WORK/classes:$HASH4J_JAR" "$ROOT/tests/vectors/jumpback-anchor/hash4j.json"
