#!/usr/bin/env bash
# Regenerates tests/vectors/evcache-*.json from the REAL Netflix EVCache client
# (com.netflix.evcache:evcache-core from Maven Central, with the spymemcached it depends on) on
# OpenJDK 17. Pure computation: no socket is opened and no DNS query is sent (see README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../lib/java.sh"
VERSION=5.9.0   # the newest evcache-core on Maven Central
SPY=2.11.4      # the net.spy:spymemcached its pom asks for
EVC="$(maven_jar com.netflix.evcache evcache-core $VERSION)"
jar() { echo "$M2/${1//.//}/$2/$3/$2-$3.jar"; }
# evcache-core's pom excludes every transitive dependency of its own dependencies, so the
# classpath lists what the locator and the client's property lookups load.
CP="$EVC"
for gav in net.spy:spymemcached:$SPY com.netflix.archaius:archaius-core:0.7.6 \
    commons-configuration:commons-configuration:1.8 commons-lang:commons-lang:2.6 \
    commons-logging:commons-logging:1.2 org.slf4j:slf4j-api:1.7.26 \
    com.netflix.spectator:spectator-api:0.92.0 com.netflix.spectator:spectator-ext-ipc:0.92.0 \
    io.reactivex:rxjava:1.3.8 com.google.guava:guava:19.0 com.google.inject:guice:4.1.0 \
    javax.inject:javax.inject:1; do
  IFS=: read -r g a v <<<"$gav"
  j="$(jar "$g" "$a" "$v")"
  [ -f "$j" ] || j="$(maven_jar "$g" "$a" "$v")"
  CP="$CP:$j"
done
CLASSES="$ROOT/tests/oracles/.cache/evcache-classes"
rm -rf "$CLASSES"; mkdir -p "$CLASSES"
javac -nowarn -XDignore.symbol.file -d "$CLASSES" -cp "$CP" "$HERE/../lib/LineIO.java" "$HERE/EvcacheOracle.java" 2>&1 \
  | grep -v -e 'Unsafe' -e '^\s*\^' -e 'warning' >&2 || true
rm -f "$ROOT"/tests/vectors/evcache-*.json
isolated python3 "$HERE/gen.py" "$VERSION" "$SPY" java -cp "$CLASSES:$CP" EvcacheOracle
python3 "$ROOT/tests/vectors/manifest.py"
