#!/usr/bin/env bash
# The Java port's tests: unit tests, every vector file read directly, the spymemcached and
# xmemcached adapters against those clients' own locators, the Jedis router (on live
# redis-server, with Jedis 4.4.8 and again with 3.10.0), and the port through the conformance
# kit (`ketama conformance --all`), in one Maven reactor build.
# Installs Maven and a JDK (Debian) when missing; Maven fetches its dependencies from Maven
# Central into ~/.m2. Builds the `ketama` CLI for the kit when cargo is there.
#   java/test.sh            (env KETAMA_BIN: the ketama CLI to use)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

source "$root/tests/lib/need.sh"
need_packages --cmd mvn maven
need_packages --cmd javac default-jdk-headless
need_packages --cmd redis-server redis-server

if [[ -z "${KETAMA_BIN:-}" ]]; then
    cd "$root"
    cargo build -q -p ketama-cli
    target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    export KETAMA_BIN="$target/debug/ketama"
fi

cd "$here"
# KETAMA_REQUIRE_CLI: the conformance-kit test fails instead of skipping without the CLI.
KETAMA_REQUIRE_CLI=1 KETAMA_REQUIRE_REDIS=1 mvn -q -B test
# The Jedis router once more on Jedis 3.x (it uses only JedisPool, which 3.x and 4.x share);
# the 4.x run's reports are kept beside it for the summary.
rm -rf "$here/jedis/target/surefire-reports-jedis4"
mv "$here/jedis/target/surefire-reports" "$here/jedis/target/surefire-reports-jedis4"
KETAMA_REQUIRE_REDIS=1 mvn -q -B -pl jedis -am test -Djedis.version=3.10.0 -Dtest='org/ketama/jedis/*' \
    -Dsurefire.failIfNoSpecifiedTests=false
# Maven is quiet: one summary line from Surefire's reports.
python3 - "$here" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
t = f = s = 0
for p in glob.glob(sys.argv[1] + "/*/target/surefire-reports*/TEST-*.xml"):
    r = ET.parse(p).getroot()
    t += int(r.get("tests", 0)); s += int(r.get("skipped", 0))
    f += int(r.get("failures", 0)) + int(r.get("errors", 0))
print(f"java: {t - f - s} passed, {f} failed, {s} skipped")
PY
