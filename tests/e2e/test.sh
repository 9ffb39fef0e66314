#!/usr/bin/env bash
# The mixed-language fleet test: PHP (php-memcached) and Java (spymemcached) write to real
# memcached servers on 127.0.0.1; our Python package, a C program on libketama.so, PHP's
# Ketama\Client, spymemcached with our Java NodeLocator and Node (memjs over our JavaScript
# ring) read every key back; `ketama audit` names the writer. See fleet.py.
# Installs what is missing (Debian packages; the Python package into python/.venv as
# python/test.sh does), builds the CLI, the library, the C reader and the Java writer.
#   tests/e2e/test.sh        (env KETAMA_VENV: the venv to use, default python/.venv)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

source "$root/tests/lib/need.sh"
need_packages memcached php8.2-cli php8.2-memcached php8.2-memcache libspymemcached-java gcc python3-venv
# any JDK with javac will do
need_packages --cmd javac default-jdk-headless
# the Go reader: any Go 1.19+ (the machine's, else Debian's golang-go)
[[ -x /usr/local/go/bin/go ]] || need_packages --cmd go golang-go

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build -q -p ketama-cli -p ketama-ffi
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
lib="$target/debug/libketama.so"
# the SONAME is libketama.so.0: link through a directory holding that name
mkdir "$work/lib"
ln -s "$lib" "$work/lib/libketama.so.0"
ln -s "$lib" "$work/lib/libketama.so"
cc -std=c11 -Wall -Wextra -pedantic -Werror -I include -o "$work/c_reader" "$here/c_reader.c" \
    -L "$work/lib" -lketama -Wl,-rpath,"$work/lib"
spy=/usr/share/java/spymemcached.jar
javac -nowarn -cp "$spy" -d "$work" "$here/SpyWriter.java"
# the Java reader: spymemcached through our NodeLocator (the port's sources compiled as they are)
javac -nowarn -encoding UTF-8 -cp "$spy" -d "$work" "$root"/java/core/src/main/java/org/ketama/*.java \
    "$root"/java/spymemcached/src/main/java/org/ketama/spymemcached/*.java "$here/SpyReader.java"

go_bin=$(command -v go || echo /usr/local/go/bin/go)
(cd "$here/go_reader" && GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0 "$go_bin" build -o "$work/go_reader" .)

venv="${KETAMA_VENV:-$root/python/.venv}"
if ! "$venv/bin/python" -c 'import ketama, pymemcache' >/dev/null 2>&1; then
    echo "e2e: installing the Python package into $venv"
    [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q "$root/python[test]"
fi

# the Node reader: the JavaScript package and memjs (js/test.sh installs them the same way)
need_packages --cmd node nodejs
need_packages --cmd npm npm
node -e "require('$root/js/node_modules/memjs/package.json')" 2>/dev/null || (cd "$root/js" && npm ci --no-audit --no-fund >/dev/null)

timeout 600 python3 "$here/fleet.py" --ketama "$target/debug/ketama" --ketama-lib "$lib" \
    --c-reader "$work/c_reader" --go-reader "$work/go_reader" --python "$venv/bin/python" --php php --java java \
    --java-cp "$spy:$work" --memcached "$(command -v memcached || echo /usr/bin/memcached)" --work "$work" \
    --node "$(command -v node)"
