#!/usr/bin/env bash
# Regenerates tests/vectors/{spymemcached,xmemcached,java-hash}-*.json from the REAL Java clients:
#   spymemcached 2.12.3  - Debian package libspymemcached-java (/usr/share/java/spymemcached.jar)
#   xmemcached 2.4.9     - Maven Central com.googlecode.xmemcached:xmemcached:2.4.9 (+ slf4j-api)
# on OpenJDK 17. Pure computation: no connection is opened and no DNS query is sent.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
CACHE="$ROOT/tests/oracles/.cache"
M2="$CACHE/m2"
CLASSES="$CACHE/java-classes"
OUT="$ROOT/tests/vectors"
XMC_VERSION=2.4.9
SLF4J_VERSION=1.7.21   # the version xmemcached 2.4.9's pom asks for

need_apt=()
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
[ -f /usr/share/java/spymemcached.jar ] || need_apt+=(libspymemcached-java)
source "$HERE/../../lib/need.sh"
need_packages "${need_apt[@]}"

XMC_JAR="$M2/com/googlecode/xmemcached/xmemcached/$XMC_VERSION/xmemcached-$XMC_VERSION.jar"
SLF4J_JAR="$M2/org/slf4j/slf4j-api/$SLF4J_VERSION/slf4j-api-$SLF4J_VERSION.jar"
if [ ! -f "$XMC_JAR" ] || [ ! -f "$SLF4J_JAR" ]; then
  mkdir -p "$M2"
  mvn -q -B -Dmaven.repo.local="$M2" dependency:get \
      -Dartifact="com.googlecode.xmemcached:xmemcached:$XMC_VERSION" -Dtransitive=true >&2
  mvn -q -B -Dmaven.repo.local="$M2" dependency:get \
      -Dartifact="org.slf4j:slf4j-api:$SLF4J_VERSION" -Dtransitive=false >&2
fi

SPY_JAR=/usr/share/java/spymemcached.jar
SPY_DEB="$(dpkg-query -W -f '${Version}' libspymemcached-java)"
SPY_UP="${SPY_DEB%%+*}"
XMC_POM_VER="$(unzip -p "$XMC_JAR" META-INF/maven/com.googlecode.xmemcached/xmemcached/pom.properties | sed -n 's/^version=//p' | tr -d '\r')"
JDK_MAJOR="$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')"
[ "$XMC_POM_VER" = "$XMC_VERSION" ] || { echo "unexpected xmemcached jar version $XMC_POM_VER" >&2; exit 1; }

rm -rf "$CLASSES"
mkdir -p "$CLASSES/spy" "$CLASSES/xmc"
javac -nowarn -d "$CLASSES/spy" -cp "$SPY_JAR" "$HERE/SpyOracle.java"
javac -nowarn -d "$CLASSES/xmc" -cp "$XMC_JAR:$SLF4J_JAR" "$HERE/XmcOracle.java"

# Drop previous outputs of this family so that renamed/removed vectors do not linger.
rm -f "$OUT"/spymemcached-*.json "$OUT"/xmemcached-*.json "$OUT"/java-hash-*.json

# Assertions stay OFF (no -ea), as in production: spymemcached's KetamaNodeLocator asserts
# "no collisions" and would otherwise refuse the CRC_HASH / NATIVE_HASH rings it builds.
export JAVA_ORACLE_META="{\"spy\": {\"upstream\": \"$SPY_UP\", \"debian\": \"$SPY_DEB\"}, \"xmc\": \"$XMC_POM_VER\", \"jdk\": \"$JDK_MAJOR\"}"
python3 "$HERE/gen.py" "$OUT" \
  java -Xmx2g -Dnet.spy.log.LoggerImpl='SpyOracle$CountingLogger' -cp "$CLASSES/spy:$SPY_JAR" SpyOracle \
  -- \
  java -Xmx2g -cp "$CLASSES/xmc:$XMC_JAR:$SLF4J_JAR" XmcOracle
