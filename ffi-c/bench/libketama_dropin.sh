#!/usr/bin/env bash
# libketama (C) -> ours: the same program (compare_libketama.c) built against the original
# last.fm libketama and against our drop-in, same servers file and keys, one run; prints
# both timings, the ratio and the load average. The answers' checksums must match.
#
#   ffi-c/bench/libketama_dropin.sh [keys=200000] [rounds=5]
#
# The original: github.com/RJ/ketama at LIBKETAMA_PIN, from $LIBKETAMA_SRC (a git checkout)
# or $KETAMA_MIRROR/RJ+ketama/repo (KETAMA_MIRROR defaults to /work/.mirror); built as its
# Makefile does (-O3 -fPIC, without -Werror, which GCC 12 trips on). Ours: $KETAMA_LIB or
# target/release/libketama.so (cargo build --release -p ketama-ffi).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
LIBKETAMA_PIN=18cf9a7717dad0d8106a5205900a17617043fe2c
src=${LIBKETAMA_SRC:-${KETAMA_MIRROR:-/work/.mirror}/RJ+ketama/repo}
ours=${KETAMA_LIB:-$root/target/release/libketama.so}
[[ -d "$src" ]] || { echo "SKIPPED: libketama source not at hand (set LIBKETAMA_SRC)"; exit 0; }
[[ -f "$ours" ]] || { echo "build ours first: cargo build --release -p ketama-ffi" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$src" archive "$LIBKETAMA_PIN" libketama | tar x -C "$tmp"
(cd "$tmp/libketama" && gcc -fPIC -O3 -c md5.c && gcc -fPIC -O3 -c ketama.c 2>/dev/null &&
    gcc -shared -Wl,-soname,libketama.so.1 -o libketama.so.1 ketama.o md5.o -lm && ln -s libketama.so.1 libketama.so)
mkdir -p "$tmp/ours/include" "$tmp/ours/lib"
cp "$root/include/ketama_compat.h" "$tmp/ours/include/ketama.h"
cp "$ours" "$tmp/ours/lib/libketama.so.0"
ln -s libketama.so.0 "$tmp/ours/lib/libketama.so"
cc -O2 -I"$tmp/libketama" -o "$tmp/orig" "$here/compare_libketama.c" -L"$tmp/libketama" -lketama -lm -Wl,-rpath,"$tmp/libketama"
cc -O2 -I"$tmp/ours/include" -o "$tmp/mine" "$here/compare_libketama.c" -L"$tmp/ours/lib" -lketama -Wl,-rpath,"$tmp/ours/lib"
servers="$root/ffi-c/tests/data/ketama.servers"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); servers: $(grep -c . "$servers") ($servers)"
a=$("$tmp/orig" "$servers" "${1:-200000}" "${2:-5}")
b=$("$tmp/mine" "$servers" "${1:-200000}" "${2:-5}")
echo "libketama (original): $a"
echo "ketama (drop-in):     $b"
[[ "${a#* checksum }" == "${b#* checksum }" ]] || { echo "answers differ" >&2; exit 1; }
awk -v a="${a%% *}" -v b="${b%% *}" 'BEGIN { printf "speed-up: %.1fx\n", a / b }'
