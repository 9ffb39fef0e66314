#!/usr/bin/env bash
# Regenerates tests/vectors/finagle-*.json from the REAL Twitter util-hashing and
# finagle-partitioning 24.2.0 (Maven Central), checked against finagle-memcached 18.10.0, the
# newest finagle-memcached the registry serves. Pure computation: nothing connects (README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../lib/java.sh"
WORK="$ROOT/tests/oracles/.cache/finagle"
rm -rf "$WORK"; mkdir -p "$WORK/c24" "$WORK/c18"
# A throwaway pom per classpath: Maven resolves each artifact with its runtime dependencies.
pom() {  # pom NAME GROUP:ARTIFACT:VERSION[:EXCLUDED-ARTIFACT] ...
  local name="$1" deps="" gav g a v x
  shift
  for gav in "$@"; do
    IFS=: read -r g a v x <<<"$gav"
    deps+="<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>"
    [ -n "$x" ] && deps+="<exclusions><exclusion><groupId>$g</groupId><artifactId>$x</artifactId></exclusion></exclusions>"
    deps+="</dependency>"
  done
  cat >"$WORK/$name.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>ketama-oracles</groupId><artifactId>$name</artifactId><version>1</version>
<dependencies>$deps</dependencies></project>
POM
  mvn -q -B -Dmaven.repo.local="$M2" -f "$WORK/$name.xml" dependency:build-classpath \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/$name.cp" >&2
  cat "$WORK/$name.cp"
}
CP24="$(pom finagle24 com.twitter:util-hashing_2.13:24.2.0 com.twitter:finagle-partitioning_2.13:24.2.0)"
# finagle-memcached_2.12 18.10.0's pom names util-zk-test, which the registry does not serve and
# the classes used here never load.
CP18="$(pom finagle18 com.twitter:finagle-memcached_2.12:18.10.0:util-zk-test_2.12)"
for want in util-hashing_2.13-24.2.0.jar finagle-partitioning_2.13-24.2.0.jar; do
  [[ ":$CP24:" == *"/$want:"* ]] || { echo "classpath lacks $want" >&2; exit 1; }
done
for want in finagle-memcached_2.12-18.10.0.jar util-hashing_2.12-18.10.0.jar; do
  [[ ":$CP18:" == *"/$want:"* ]] || { echo "classpath lacks $want" >&2; exit 1; }
done
javac -nowarn -d "$WORK/c24" -cp "$CP24" "$HERE/../lib/LineIO.java" "$HERE/FinagleOracle.java"
javac -nowarn -d "$WORK/c18" -cp "$CP18" "$HERE/../lib/LineIO.java" "$HERE/Finagle18Check.java"
rm -f "$ROOT"/tests/vectors/finagle-*.json
export FINAGLE24="java -cp $WORK/c24:$CP24 FinagleOracle"
export FINAGLE18="java -cp $WORK/c18:$CP18 Finagle18Check"
isolated python3 "$HERE/gen.py" "$JDK_MAJOR"
python3 "$ROOT/tests/vectors/manifest.py"
