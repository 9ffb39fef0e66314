#!/usr/bin/env bash
# Records what the real libketama does with the hostile servers files of
# tests/dropin/libketama-files.json, into tests/vectors/dropin/libketama-files.json.
#
#   KETAMA_SRC=/path/to/ketama bash tests/oracles/libketama/generate.sh
#
# KETAMA_SRC is a checkout of github.com/RJ/ketama (no registry packages libketama). Its
# libketama/ketama.c and md5.c are compiled unmodified (warnings off: GCC 12 rejects them
# under the Makefile's -Werror) in a temporary folder with probe.c, and removed afterwards;
# nothing fetched is kept. CI does not run this: it checks the committed file.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${KETAMA_SRC:?set KETAMA_SRC to a checkout of github.com/RJ/ketama}
[[ -f $src/libketama/ketama.c ]] || { echo "generate.sh: no libketama/ketama.c under $src" >&2; exit 1; }
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "unknown commit")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/libketama/ketama.c" "$src/libketama/ketama.h" "$src/libketama/md5.c" "$src/libketama/md5.h" "$tmp/"
gcc -fPIC -O2 -w -c "$tmp/md5.c" -o "$tmp/md5.o"
gcc -fPIC -O2 -w -c "$tmp/ketama.c" -o "$tmp/ketama.o"
gcc -shared -Wl,-soname,libketama.so.1 -o "$tmp/libketama.so.1" "$tmp/ketama.o" "$tmp/md5.o" -lm
gcc -O1 -w -I"$tmp" -o "$tmp/probe" "$here/probe.c" "$tmp/libketama.so.1" -lm
source="libketama (github.com/RJ/ketama libketama/ at $commit, ketama.c and md5.c built unmodified with gcc $(gcc -dumpfullversion) -O2, warnings off; $(ldd --version | sed -n 1p)), driven by tests/oracles/libketama/probe.c: ketama_roll(file), ketama_error(), the continuum, ketama_get_server(key) per key; one process per file, 5 s limit"
python3 "$here/record.py" "$tmp/probe" "$tmp" "$source"
