#!/usr/bin/env bash
# Regenerates tests/vectors/pending/xmemcached-gwhalin-*.json from the REAL xmemcached 2.4.9
# (Maven Central) on OpenJDK 17. Pure computation: no socket, no DNS query (see README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../lib/java.sh"
VERSION=2.4.9
XJ="$(maven_jar com.googlecode.xmemcached xmemcached $VERSION)"
CP="$XJ:$(maven_jar org.slf4j slf4j-api 1.7.21)"
CLASSES="$ROOT/tests/oracles/.cache/xmc-gwhalin-classes"
rm -rf "$CLASSES"; mkdir -p "$CLASSES"
javac -nowarn -d "$CLASSES" -cp "$CP" "$HERE/../lib/LineIO.java" "$HERE/XmcGwhalinOracle.java"
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/xmemcached-gwhalin-*.json
isolated python3 "$HERE/gen.py" "$VERSION" java -cp "$CLASSES:$CP" XmcGwhalinOracle
