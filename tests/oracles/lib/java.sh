# Sourced by the Java oracles' generate.sh: JDK + Maven from Debian, a Maven cache in
# tests/oracles/.cache/m2, and `isolated` which runs a command without network access when the
# kernel lets us (unshare -n: only a private loopback), as a second guard on top of drivers that
# never connect.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
M2="$ROOT/tests/oracles/.cache/m2"
need_apt=()
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/need.sh"
need_packages "${need_apt[@]}"
JDK_MAJOR="$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')"

# maven_jar GROUP ARTIFACT VERSION -> prints the jar path (fetched with its dependencies once)
maven_jar() {
  local g="$1" a="$2" v="$3"
  local jar="$M2/${g//.//}/$a/$v/$a-$v.jar"
  if [ ! -f "$jar" ]; then
    mkdir -p "$M2"
    mvn -q -B -Dmaven.repo.local="$M2" dependency:get -Dartifact="$g:$a:$v" -Dtransitive=true >&2
  fi
  echo "$jar"
}

isolated() {
  if unshare -n true 2>/dev/null; then unshare -n "$@"; else "$@"; fi
}
