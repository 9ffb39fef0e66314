#!/usr/bin/env bash
# The Java port's lookup against spymemcached's KetamaNodeLocator.getPrimary (docs/performance.md).
# Builds java/ (Maven, tests skipped), compiles Bench.java against the port's jar and
# spymemcached 2.12.3 from Maven Central, runs it once. A benchmark, not a test.
#   bash bench/java/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/target"
mkdir -p "$out"
mvn -q -B -f "$root/java/pom.xml" -pl core,spymemcached -am install -DskipTests
repo="${MAVEN_REPO:-$HOME/.m2/repository}"
spy="$repo/net/spy/spymemcached/2.12.3/spymemcached-2.12.3.jar"
cp="$root/java/core/target/classes:$spy"
javac -nowarn -d "$out" -cp "$cp" "$here/Bench.java"
java -Xms512m -Xmx512m -XX:+UseParallelGC -cp "$out:$cp" Bench
