#!/usr/bin/env bash
# Regenerates tests/vectors/pending/folsom-*.json from the REAL com.spotify:folsom 1.21.0 (Maven
# Central, with its Guava) on OpenJDK 17. Pure computation: no socket is opened (see README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../lib/java.sh"
VERSION=1.21.0
FJ="$(maven_jar com.spotify folsom $VERSION)"
CP="$FJ:$(maven_jar com.google.guava guava 32.1.3-android)"
CLASSES="$ROOT/tests/oracles/.cache/folsom-classes"
rm -rf "$CLASSES"; mkdir -p "$CLASSES"
javac -nowarn -d "$CLASSES" -cp "$CP" "$HERE/../lib/LineIO.java" "$HERE/FolsomOracle.java"
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/folsom-*.json
isolated python3 "$HERE/gen.py" "$VERSION" java -cp "$CLASSES:$CP" FolsomOracle
