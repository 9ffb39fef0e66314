#!/usr/bin/env bash
# Regenerates tests/vectors/jumpback-anchor/hash4j.json from the REAL hash4j (Maven Central
# com.dynatrace.hash4j:hash4j): ConsistentHashing.jumpBackAnchorHash(splitMix64_V1()) driven
# by JumpBackAnchorOracle.java with the operation sequences of gen.py (fixed seed).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# JDK, Maven and the shared Maven cache (ROOT, M2, maven_jar)
source "$HERE/../lib/java.sh"
WORK="$ROOT/tests/oracles/.cache/jumpback-anchor"
HASH4J_VERSION=0.30.0

HASH4J_JAR="$(maven_jar com.dynatrace.hash4j hash4j "$HASH4J_VERSION")"
rm -rf "$WORK/classes" && mkdir -p "$WORK/classes"
javac -nowarn -d "$WORK/classes" -cp "$HASH4J_JAR" "$HERE/JumpBackAnchorOracle.java"
mkdir -p "$ROOT/tests/vectors/jumpback-anchor"
python3 "$HERE/gen.py" "$WORK/classes:$HASH4J_JAR" "$ROOT/tests/vectors/jumpback-anchor/hash4j.json"
