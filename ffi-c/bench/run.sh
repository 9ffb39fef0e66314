#!/usr/bin/env bash
# Speed against the real clients, measured in one run each and reported as ratios:
# libmemcached (C) and php-memcached (PHP) beside libketama on the same ring and keys.
# Python's comparison with uhashring is python/bench/bench.py; Rust's criterion benches are
# `cargo bench -p ketama-core`. Not part of the test suite (timings are not assertions).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
make -s -C "$root/ffi-c" install PREFIX="$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cc -O2 -o "$prefix/compare" "$here/compare_libmemcached.c" $(pkg-config --cflags --libs ketama) -lmemcached -Wl,-rpath,"$prefix/lib"
echo "== C: libmemcached 1.1.4 vs libketama"
"$prefix/compare" "${1:-50}" 200000 5
echo "== PHP: php-memcached 3.2.0 vs Ketama\\Ring (FFI)"
KETAMA_LIB="$prefix/lib/libketama.so" php -d ffi.enable=1 "$here/compare_php.php" "${1:-50}" 100000
