#!/usr/bin/env bash
# Everything for the C ABI: build, header freshness, C tests (+valgrind), install +
# pkg-config, the libketama golden output, PHPUnit (vectors, errors, php-memcached agreement,
# the Predis distributor on live redis-server) and PHP preloading. Installs the Debian
# packages it needs when missing.
#   ffi-c/test.sh                  (KETAMA_VALGRIND_ALL=1: every vector file under valgrind)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

step() { printf '\n== %s\n' "$*"; }
# A failure that stops the script: what failed, and how to run that part again.
die() {
    printf 'ffi-c/test.sh: FAILED: %s\n  rerun: %s\n' "$1" "$2" >&2
    exit 1
}
# Any other command that stops the script (set -e) says which one and where.
trap 'rc=$?; printf "ffi-c/test.sh: FAILED (exit %s) at line %s: %s\n  rerun: bash ffi-c/test.sh\n" \
    "$rc" "$LINENO" "$BASH_COMMAND" >&2' ERR

# --- packages -------------------------------------------------------------------------
source "$(dirname "${BASH_SOURCE[0]}")/../tests/lib/need.sh"
need_packages gcc g++ make pkg-config valgrind python3 php8.2-cli php8.2-memcached php8.2-memcache \
    memcached phpunit util-linux php-nrk-predis redis-server

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
failed=()

# --- build + Rust unit tests + header ---------------------------------------------------
# The crate's Rust tests (cargo test -p ketama-ffi) run in tests/run-all.sh's workspace stage;
# `make install` below builds the library this script tests.
step "header freshness (ffi-c/gen-header.sh --check)"
"$here/gen-header.sh" --check || failed+=("header")

# --- install, then build every C test against the installed prefix ----------------------
step "make install PREFIX=$prefix"
install_cmd="make -C ffi-c install PREFIX=/tmp/ketama-prefix CARGO_PROFILE=debug CARGO_FEATURES=test-panic"
make -s -C "$here" install PREFIX="$prefix" CARGO_PROFILE=debug CARGO_FEATURES=test-panic >/dev/null \
    || die "make install (the build or the install step; make's errors are above)" "$install_cmd"
for f in libketama.so libketama.so.0; do
    [[ -L "$prefix/lib/$f" ]] || die "make install wrote no symbolic link lib/$f" "$install_cmd; ls -l /tmp/ketama-prefix/lib"
done
[[ -f "$prefix/lib/libketama.a" ]] || die "make install wrote no lib/libketama.a" "$install_cmd; ls -l /tmp/ketama-prefix/lib"
soname=$(readelf -d "$prefix/lib/libketama.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[[ $soname == libketama.so.0 ]] \
    || die "lib/libketama.so.0 has soname '${soname:-none}', not libketama.so.0" "$install_cmd; readelf -d /tmp/ketama-prefix/lib/libketama.so.0"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cflags="-std=c11 -Wall -Wextra -pedantic -Werror -g"
libdir=$(pkg-config --variable=libdir ketama)
rpath="-Wl,-rpath,$libdir"
c="$here/tests/c"
# shellcheck disable=SC2046
{
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_api" "$c/test_api.c" $(pkg-config --libs ketama) $rpath -lpthread
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_stepwise" "$c/test_stepwise.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_points" "$c/test_points.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_bad_input" "$c/test_bad_input.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_vectors" "$c/test_vectors.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_buckets" "$c/test_buckets.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_compat" "$c/test_compat.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_libketama_files" "$c/test_libketama_files.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_raw" "$c/test_raw.c" $(pkg-config --libs ketama) $rpath
    cc $cflags $(pkg-config --cflags ketama-compat) -o "$tmp/golden" "$c/libketama_golden.c" $(pkg-config --libs ketama-compat) $rpath
    # static library: the same API test linked against libketama.a
    cc $cflags $(pkg-config --cflags ketama) -o "$tmp/test_api_static" "$c/test_api.c" \
        "$libdir/libketama.a" $(pkg-config --libs-only-other --static ketama) -lgcc_s -lutil -lrt -lpthread -lm -ldl
    # the headers as C++
    c++ -std=c++11 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags ketama) -o "$tmp/header_cpp" \
        "$c/header_cpp.cpp" $(pkg-config --libs ketama) $rpath
}
linked=$(ldd "$tmp/test_api" | sed -n 's/.*libketama.so.0 => \([^ ]*\).*/\1/p')
[[ $linked == "$libdir/libketama.so.0" ]] \
    || die "the C tests load libketama.so.0 from '${linked:-nowhere}', not the installed $libdir" \
        "bash ffi-c/test.sh (then: ldd on the test binary; LD_LIBRARY_PATH set?)"

step "C API and error paths"
RUST_BACKTRACE=0 "$tmp/test_api" || failed+=("test_api")
RUST_BACKTRACE=0 "$tmp/test_api_static" || failed+=("test_api_static")
"$tmp/header_cpp" || failed+=("header_cpp")

step "C: the shared bad-input matrix (tests/bad-input.json)"
RUST_BACKTRACE=0 "$tmp/test_bad_input" tests/bad-input.json || failed+=("test_bad_input")

step "C: stepwise changes equal fresh builds, every profile"
"$tmp/test_stepwise" || failed+=("test_stepwise")

step "C: rings from explicit points (ketama_ring_create_points)"
"$tmp/test_points" || failed+=("test_points")

step "C: every tests/vectors/*.json, tests/vectors/options/*.json and the dead-server files of tests/vectors/extra/"
"$tmp/test_vectors" tests/vectors/*.json tests/vectors/options/*.json tests/vectors/extra/*-dead-*.json >"$tmp/vectors.out" || true
grep -v '^PASS' "$tmp/vectors.out" || true
tail -1 "$tmp/vectors.out" | grep -q ', 0 failed' || failed+=("C vectors")

step "C: every tests/vectors/buckets/*.json through ketama_bucket()"
"$tmp/test_buckets" tests/vectors/buckets/*.json || failed+=("C bucket vectors")

step "AddressSanitizer + UBSan (C side): API test and every vector file"
# shellcheck disable=SC2046
{
    cc $cflags -fsanitize=address,undefined -fno-omit-frame-pointer $(pkg-config --cflags ketama) \
        -o "$tmp/test_api_asan" "$c/test_api.c" $(pkg-config --libs ketama) $rpath -lpthread
    cc $cflags -fsanitize=address,undefined -fno-omit-frame-pointer $(pkg-config --cflags ketama) \
        -o "$tmp/test_vectors_asan" "$c/test_vectors.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags -fsanitize=address,undefined -fno-omit-frame-pointer $(pkg-config --cflags ketama) \
        -o "$tmp/test_bad_input_asan" "$c/test_bad_input.c" "$c/json.c" $(pkg-config --libs ketama) $rpath
    cc $cflags -fsanitize=address,undefined -fno-omit-frame-pointer $(pkg-config --cflags ketama) \
        -o "$tmp/test_raw_asan" "$c/test_raw.c" $(pkg-config --libs ketama) $rpath
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
RUST_BACKTRACE=0 "$tmp/test_api_asan" >"$tmp/asan-api.out" 2>&1 || { tail -30 "$tmp/asan-api.out"; failed+=("asan test_api"); }
RUST_BACKTRACE=0 "$tmp/test_bad_input_asan" tests/bad-input.json >"$tmp/asan-bad.out" 2>&1 || { tail -30 "$tmp/asan-bad.out"; failed+=("asan test_bad_input"); }
"$tmp/test_raw_asan" >"$tmp/asan-raw.out" 2>&1 || { tail -30 "$tmp/asan-raw.out"; failed+=("asan test_raw"); }
"$tmp/test_vectors_asan" tests/vectors/*.json >"$tmp/asan-vectors.out" 2>&1 || true
tail -1 "$tmp/asan-vectors.out" | grep -q ', 0 failed' && echo "asan: clean ($(tail -1 "$tmp/asan-vectors.out"))" \
    || { grep -v '^PASS' "$tmp/asan-vectors.out" | tail -30; failed+=("asan vectors"); }
unset ASAN_OPTIONS UBSAN_OPTIONS

step "libketama drop-in: API, quirks, libketama-*.json"
"$tmp/test_compat" tests/vectors/libketama-*.json || failed+=("test_compat")

step "libketama drop-in: hostile servers files against the real libketama's answers (tests/dropin/libketama-files.json)"
"$tmp/test_libketama_files" tests/dropin/libketama-files.json tests/vectors/dropin/libketama-files.json \
    || failed+=("test_libketama_files")

step "C: continua over raw node names (ketama_raw_ring_*), (ptr, len) names"
"$tmp/test_raw" || failed+=("test_raw")

step "libketama golden output (ketama_test over ketama.servers, 1,000,000 keys)"
sum=$("$tmp/golden" "$here/tests/data/ketama.servers" | md5sum | cut -d' ' -f1)
echo "md5 $sum (libketama: 5672b131391f5aa2b280936aec1eea74)"
[[ $sum == 5672b131391f5aa2b280936aec1eea74 ]] || failed+=("golden")

step "valgrind (test_api, test_compat, test_libketama_files, test_raw, vectors: one file per profile and kind)"
if [[ "${KETAMA_VALGRIND_ALL:-0}" == 1 ]]; then
    vfiles=(tests/vectors/*.json)
else
    mapfile -t vfiles < <(python3 - <<'PY'
import glob, json, os
best = {}
for f in sorted(glob.glob("tests/vectors/*.json")):
    d = json.load(open(f, encoding="utf-8"))
    k = (d.get("kind", "locate"), d.get("profile"), d.get("hash") if d.get("kind") == "hash" else None)
    if k not in best or os.path.getsize(f) < os.path.getsize(best[k]):
        best[k] = f
print("\n".join(sorted(best.values())))
PY
    )
fi
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
    --show-leak-kinds=definite,indirect,possible)
for t in test_api test_compat test_libketama_files test_raw; do
    args=()
    [[ $t == test_compat ]] && args=(tests/vectors/libketama-*.json)
    [[ $t == test_libketama_files ]] && args=(tests/dropin/libketama-files.json tests/vectors/dropin/libketama-files.json)
    if RUST_BACKTRACE=0 "${vg[@]}" "$tmp/$t" "${args[@]}" >"$tmp/vg-$t.out" 2>&1; then
        echo "valgrind $t: clean"
    else
        echo "valgrind $t: FAILED (exit $?)"; tail -30 "$tmp/vg-$t.out"; failed+=("valgrind $t")
    fi
done
rc=0
"${vg[@]}" "$tmp/test_vectors" "${vfiles[@]}" >"$tmp/vg-vectors.out" 2>&1 || rc=$?
if [[ $rc == 99 ]]; then
    echo "valgrind test_vectors: ERRORS"; grep -v '^PASS' "$tmp/vg-vectors.out" | tail -30; failed+=("valgrind vectors")
else
    echo "valgrind test_vectors: clean over ${#vfiles[@]} files ($(tail -1 "$tmp/vg-vectors.out"))"
fi

# --- PHP ------------------------------------------------------------------------------------
export KETAMA_LIB="$libdir/libketama.so.0"   # the installed library (header found beside it)
step "PHPUnit (KETAMA_LIB=$KETAMA_LIB)"
(cd "$here/php" && phpunit -d ffi.enable=1 --do-not-cache-result) || failed+=("phpunit")

step "pda/flexihash's own test suite against Ketama\\Flexihash (SKIPPED without its source)"
bash "$root/tests/dropin/fetch-and-run.sh" flexihash || failed+=("flexihash suite")

step "PHP preloading"
cat >"$tmp/preloaded.php" <<PHP
<?php
require '$here/php/tests/bootstrap.php';
FFI::scope('KETAMA'); // throws unless preloaded
\$r = new Ketama\Ring(['10.0.1.1:11211' => 600, '10.0.1.2:11211' => 300]);
echo 'preloaded: ', \$r->get('user:1'), "\n";
PHP
want="preloaded: $(php -d ffi.enable=1 -r "require '$here/php/tests/bootstrap.php'; echo (new Ketama\Ring(['10.0.1.1:11211' => 600, '10.0.1.2:11211' => 300]))->get('user:1');")"
got=$(php -d ffi.enable=preload -d ffi.preload="$prefix/share/ketama/ketama_ffi_preload.h" "$tmp/preloaded.php" 2>&1 || true)
[[ $got == "$want" ]] && echo "ffi.preload: ok" || { echo "ffi.preload: $got"; failed+=("ffi.preload"); }
chmod 755 "$tmp"; chmod -R a+rX "$tmp"
as_user=(); [[ $(id -u) == 0 ]] && as_user=(runuser -u nobody --)
got=$("${as_user[@]}" env KETAMA_LIB="$KETAMA_LIB" php -d opcache.enable_cli=1 -d ffi.enable=preload \
      -d opcache.preload="$here/php/preload.php" "$tmp/preloaded.php" 2>&1 || true)
[[ $got == "$want" ]] && echo "opcache.preload + FFI::load: ok" || { echo "opcache.preload: $got"; failed+=("opcache.preload"); }

step "summary"
if ((${#failed[@]})); then
    echo "FAILED: ${failed[*]}"
    echo "rerun: bash ffi-c/test.sh (each step's command is above its output)"
    exit 1
fi
echo "all ffi-c tests passed"
