#!/usr/bin/env bash
# Regenerates tests/vectors/jedis-*.json, jedis-named-*.json, jedis-2-named-*.json, jedis-4-*.json
# and options/jedis*-key-tag-*.json from the REAL Jedis (redis.clients:jedis from Maven Central)
# on OpenJDK 17: ShardedJedis of 3.10.0 and 2.9.3 (2.10.2 is run too and checked against 3.10.0),
# JedisSharding of 4.4.8. Pure computation: nothing connects (see README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/../lib/java.sh"
V3=3.10.0    # the newest 3.x: ShardedJedis, unnamed and named shards
V2=2.9.3     # the newest 2.x whose named points carry the weight (name*<weight><n>)
V210=2.10.2  # the newest 2.x: named points without the weight (checked equal to 3.x)
V4=4.4.8     # the newest 4.x: JedisSharding
jar() { echo "$M2/${1//.//}/$2/$3/$2-$3.jar"; }
# classpath: the jar and its compile-scope dependencies (its pom)
classpath() {
  local cp="$(maven_jar redis.clients jedis "$1")" gav g a v j
  shift
  for gav in "$@"; do
    IFS=: read -r g a v <<<"$gav"
    j="$(jar "$g" "$a" "$v")"
    [ -f "$j" ] || j="$(maven_jar "$g" "$a" "$v")"
    cp="$cp:$j"
  done
  echo "$cp"
}
CP3="$(classpath $V3 org.slf4j:slf4j-api:1.7.30 org.apache.commons:commons-pool2:2.11.1)"
CP2="$(classpath $V2 org.slf4j:slf4j-api:1.7.22 org.apache.commons:commons-pool2:2.4.3)"
CP210="$(classpath $V210 org.slf4j:slf4j-api:1.7.22 org.apache.commons:commons-pool2:2.4.3)"
CP4="$(classpath $V4 org.slf4j:slf4j-api:1.7.36 org.apache.commons:commons-pool2:2.11.1 \
  org.json:json:20231013 com.google.code.gson:gson:2.10.1)"
CLASSES="$ROOT/tests/oracles/.cache/jedis-classes"
rm -rf "$CLASSES"
compile() {  # compile DIR CLASSPATH SOURCE
  mkdir -p "$CLASSES/$1"
  javac -nowarn -d "$CLASSES/$1" -cp "$2" "$HERE/../lib/LineIO.java" "$HERE/$3" 2>&1 \
    | grep -v -e '^Note:' >&2 || true
  [ -n "$(ls "$CLASSES/$1")" ]
}
compile v3 "$CP3" JedisOracle.java
compile v2 "$CP2" JedisOracle.java
compile v210 "$CP210" JedisOracle.java
compile v4 "$CP4" Jedis4Oracle.java
rm -f "$ROOT"/tests/vectors/jedis-*.json "$ROOT"/tests/vectors/options/jedis-*.json
export JEDIS3="java -cp $CLASSES/v3:$CP3 JedisOracle"
export JEDIS2="java -cp $CLASSES/v2:$CP2 JedisOracle"
export JEDIS210="java -cp $CLASSES/v210:$CP210 JedisOracle"
export JEDIS4="java -cp $CLASSES/v4:$CP4 Jedis4Oracle"
isolated python3 "$HERE/gen.py" "$V3" "$V2" "$V210" "$V4" "$JDK_MAJOR"
python3 "$ROOT/tests/vectors/manifest.py"
