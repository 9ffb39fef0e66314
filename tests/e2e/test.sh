#!/usr/bin/env bash
# The mixed-language fleet test: PHP (php-memcached) and Java (spymemcached) write to
# real memcached servers on 127.0.0.1; our Python package, a C program on libketama.so and PHP's
# Ketama\Client read every key back; `ketama audit` names the writer. See fleet.py.
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

venv="${KETAMA_VENV:-$root/python/.venv}"
if ! "$venv/bin/python" -c 'import ketama, pymemcache' >/dev/null 2>&1; then
    echo "e2e: installing the Python package into $venv"
    [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q "$root/python[test]"
fi

timeout 600 python3 "$here/fleet.py" --ketama "$target/debug/ketama" --ketama-lib "$lib" \
    --c-reader "$work/c_reader" --python "$venv/bin/python" --php php --java java \
    --java-cp "$spy:$work" --memcached "$(command -v memcached || echo /usr/bin/memcached)" --work "$work"
