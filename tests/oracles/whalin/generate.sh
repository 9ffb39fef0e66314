#!/usr/bin/env bash
# Regenerates tests/vectors/pending/whalin-*.json from the REAL com.whalin:Memcached-Java-Client
# 3.0.2 (Maven Central) on OpenJDK 17, and tests/vectors/extra/whalin-*-dead-*.json (the dead-server
# jobs listen and connect on 127.0.0.1 only; see README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../lib/java.sh"
WJ="$(maven_jar com.whalin Memcached-Java-Client 3.0.2)"
CP="$WJ:$(maven_jar commons-pool commons-pool 1.5.6):$(maven_jar org.slf4j slf4j-api 1.6.4)"
CLASSES="$ROOT/tests/oracles/.cache/whalin-classes"
rm -rf "$CLASSES"; mkdir -p "$CLASSES"
javac -nowarn -d "$CLASSES" -cp "$CP" "$HERE/../lib/LineIO.java" "$HERE/WhalinOracle.java"
# loopback_only CMD...: CMD in a private network namespace whose only interface is a loopback
# brought up for it (the dead-server jobs need 127.0.0.1), when the kernel lets us; else as is.
loopback_only() {
  if unshare -n sh -c 'ip link set lo up' 2>/dev/null; then
    unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
  else
    "$@"
  fi
}
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/whalin-*.json
loopback_only python3 "$HERE/gen.py" java -Dfile.encoding=UTF-8 -cp "$CLASSES:$CP" WhalinOracle
