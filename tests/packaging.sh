#!/usr/bin/env bash
# ketama installs the way each ecosystem installs things. Builds the artefacts and
# proves them on this machine, as a user without a Rust toolchain would meet them:
#   1. crates.io: `cargo package -p ketama-core` (metadata, README, licences, builds alone);
#   2. Python: `make -C python dist` (abi3 manylinux2014 wheel + sdist), twine check and
#      auditwheel, then python/test-wheel.sh (the suite on every pyenv CPython 3.9-3.13 with no
#      cargo/rustc on PATH, 3.8 refused as documented, the sdist built where Rust exists);
#   3. Debian: `make -C ffi-c deb`, `dpkg -i` of the three packages, a C program built with
#      `pkg-config --cflags --libs ketama` and with CMake `find_package(ketama)` (shared and
#      static targets), PHP FFI finding the installed library with no KETAMA_LIB, PHP with
#      the README's production configuration (ffi.enable=preload + opcache.preload), the
#      installed CLI (--version, man pages, bash completion); then `dpkg -r`;
#   4. PHP: `composer validate --strict` (Debian's composer);
#   5. CLI progress bars: drawn on a terminal (under script(1)), absent on a pipe.
# Installs what it needs (dpkg-dev, cmake, composer, PHP, memcached) when missing.
#   KETAMA_SKIP_SDIST=1   skip the sdist build (the slowest part after the wheel)
#   KETAMA_SKIP_PYTHON=1  skip step 2 (when working on the other parts)
#   KETAMA_PACKAGE_PROFILE=debug  package target/debug instead of a release build (the
#                         packaging is the same; tests/run-all.sh reuses its one build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
profile=${KETAMA_PACKAGE_PROFILE:-release}
export KETAMA_PACKAGE_PROFILE=$profile
step() { printf '\n== %s\n' "$*"; }
failed=()

source "$root/tests/lib/need.sh"
need_packages dpkg-dev binutils cmake gcc make pkg-config composer php8.2-cli php8.2-opcache \
    python3-venv util-linux bsdextrautils man-db memcached
tmp=$(mktemp -d)
cleanup() {
    if [[ -n ${installed_debs:-} ]]; then
        dpkg -r ketama-tools libketama-dev libketama0 >/dev/null 2>&1 || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# --- 1. crates.io ------------------------------------------------------------------------
step "cargo package -p ketama-core"
cargo package -q -p ketama-core --allow-dirty --locked 2>&1 | tail -3 || failed+=("cargo package")

# --- 2. Python ---------------------------------------------------------------------------
if [[ ${KETAMA_SKIP_PYTHON:-0} != 1 ]]; then
    step "make -C python dist check-dist"
    make -s -C python dist check-dist || failed+=("python dist")
    step "python/test-wheel.sh"
    bash python/test-wheel.sh || failed+=("python wheel/sdist")
fi

# --- 3. Debian packages ------------------------------------------------------------------
step "make -C ffi-c deb"
make -s -C ffi-c deb
debs=(target/debian/libketama0_*.deb target/debian/libketama-dev_*.deb target/debian/ketama-tools_*.deb)
for d in "${debs[@]}"; do
    dpkg-deb -f "$d" Package Version Depends | tr '\n' ' '; echo
done
dpkg-deb --ctrl-tarfile target/debian/libketama0_*.deb | tar -t | grep >/dev/null '^./symbols$' || failed+=("no symbols file")
dpkg-deb --ctrl-tarfile target/debian/libketama0_*.deb | tar -t | grep >/dev/null '^./shlibs$' || failed+=("no shlibs file")
for d in "${debs[@]}"; do
    dpkg-deb -c "$d" | grep >/dev/null "usr/share/doc/$(dpkg-deb -f "$d" Package)/copyright" || failed+=("no copyright in $d")
done

step "dpkg -i (removed again at exit)"
for attempt in 1 2 3 4 5; do
    if dpkg -i "${debs[@]}" >"$tmp/dpkg.out" 2>&1; then installed_debs=1; break; fi
    grep -q "lock" "$tmp/dpkg.out" || { cat "$tmp/dpkg.out"; break; }
    sleep 5
done
[[ -n ${installed_debs:-} ]] || { cat "$tmp/dpkg.out"; echo "dpkg -i failed"; exit 1; }
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
readelf -d "/usr/lib/$ma/libketama.so.0" | grep >/dev/null 'SONAME.*\[libketama.so.0\]' || failed+=("soname")
ldconfig -p | grep -E >/dev/null "libketama.so.0 .*=> (/usr)?/lib/$ma/libketama.so.0" || failed+=("ldconfig cache")

cat >"$tmp/app.c" <<'C'
#include <ketama.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    ketama_ring *ring;
    if (ketama_ring_create("libketama", NULL, &ring) != KETAMA_STATUS_OK) return 1;
    if (ketama_ring_add(ring, "10.0.1.1:11211", 14, 600) != KETAMA_STATUS_OK) return 1;
    if (ketama_ring_add(ring, "10.0.1.2:11211", 14, 300) != KETAMA_STATUS_OK) return 1;
    const char *label; size_t len;
    if (ketama_ring_lookup(ring, "user:1", 6, &label, &len) != KETAMA_STATUS_OK) return 1;
    printf("%.*s\n", (int)len, label);
    ketama_ring_free(ring);
    return 0;
}
C
want=$(printf '10.0.1.1:11211 600\n10.0.1.2:11211 300\n' >"$tmp/servers" && ketama lookup -p libketama -s "$tmp/servers" user:1)
step "C program with pkg-config (installed: $(pkg-config --modversion ketama))"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror $(pkg-config --cflags ketama) -o "$tmp/app-pc" "$tmp/app.c" $(pkg-config --libs ketama) \
    && got=$("$tmp/app-pc") && [[ $got == "$want" ]] && ldd "$tmp/app-pc" | grep -E >/dev/null "libketama.so.0 .*=> (/usr)?/lib/$ma/libketama.so.0" \
    && echo "pkg-config: $got" || failed+=("pkg-config build")

step "C program with CMake find_package(ketama 0.1)"
mkdir -p "$tmp/cmake-app"
cp "$tmp/app.c" "$tmp/cmake-app/app.c"
cat >"$tmp/cmake-app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(app C)
find_package(ketama 0.1 REQUIRED)
message(STATUS "ketama ${ketama_VERSION} from ${ketama_DIR}")
add_executable(app app.c)
target_link_libraries(app PRIVATE ketama::ketama)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE ketama::ketama_static)
CMAKE
if cmake -S "$tmp/cmake-app" -B "$tmp/cmake-build" >"$tmp/cmake.out" 2>&1 \
    && cmake --build "$tmp/cmake-build" >>"$tmp/cmake.out" 2>&1; then
    grep -- "-- ketama" "$tmp/cmake.out"
    [[ $("$tmp/cmake-build/app") == "$want" ]] && echo "cmake (shared): ok" || failed+=("cmake shared run")
    ldd "$tmp/cmake-build/app" | grep -E >/dev/null "libketama.so.0 .*=> (/usr)?/lib/$ma/libketama.so.0" || failed+=("cmake shared link")
    [[ $("$tmp/cmake-build/app_static") == "$want" ]] && ! ldd "$tmp/cmake-build/app_static" | grep >/dev/null libketama \
        && echo "cmake (static): ok" || failed+=("cmake static")
else
    cat "$tmp/cmake.out"; failed+=("cmake build")
fi
# An incompatible version request must be refused.
cat >"$tmp/cmake-app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(app C)
find_package(ketama 1.0 QUIET)
if(ketama_FOUND)
  message(FATAL_ERROR "ketama 1.0 accepted")
endif()
CMAKE
cmake -S "$tmp/cmake-app" -B "$tmp/cmake-build2" >"$tmp/cmake2.out" 2>&1 && echo "cmake: 1.0 refused" \
    || { cat "$tmp/cmake2.out"; failed+=("cmake version check"); }

step "PHP FFI finds the installed library (no KETAMA_LIB)"
php_ring='$r = new Ketama\Ring(["10.0.1.1:11211" => 600, "10.0.1.2:11211" => 300], "libketama"); echo $r->get("user:1");'
got=$(env -u KETAMA_LIB php -d ffi.enable=1 -r "require '$root/ffi-c/php/autoload.php'; echo Ketama\Library::libraryPath(), ' '; $php_ring" 2>&1 || true)
[[ $got == "/usr/lib/$ma/libketama.so.0 $want" ]] && echo "php: $got" || { echo "php: $got"; failed+=("php installed lib"); }

step "PHP production set-up (README): ffi.enable=preload, opcache.preload=preload.php"
chmod 755 "$tmp"
cat >"$tmp/request.php" <<PHP
<?php
FFI::scope('KETAMA'); // throws unless the preload defined it
$php_ring
PHP
chmod 644 "$tmp/request.php"
# Exactly the php.ini lines of the README (opcache.enable_cli only because this is the CLI).
cat >"$tmp/php.ini" <<INI
ffi.enable=preload
opcache.enable=1
opcache.enable_cli=1
opcache.preload=$root/ffi-c/php/preload.php
opcache.preload_user=nobody
INI
chmod 644 "$tmp/php.ini"
as_user=(); [[ $(id -u) == 0 ]] && as_user=(runuser -u nobody --)
got=$("${as_user[@]}" env -u KETAMA_LIB php -c "$tmp/php.ini" "$tmp/request.php" 2>&1 || true)
[[ $got == "$want" ]] && echo "opcache.preload: $got" || { echo "opcache.preload: $got"; failed+=("php preload"); }
# Without the preload, ffi.enable=preload forbids FFI in the request: the set-up is what works.
got=$("${as_user[@]}" env -u KETAMA_LIB php -n -d ffi.enable=preload "$tmp/request.php" 2>&1 || true)
[[ $got != "$want" ]] || failed+=("php preload control")

step "installed CLI: --version, man pages, completions"
ketama --version
[[ $(ketama --version) == "ketama $(dpkg-deb -f target/debian/ketama-tools_*.deb Version | cut -d- -f1) (ketama-core "* ]] || failed+=("ketama --version")
man -w ketama >/dev/null && man -w ketama-lookup >/dev/null && echo "man: $(man -w ketama)" || failed+=("man pages")
MANWIDTH=80 man ketama 2>/dev/null | grep >/dev/null "ketama-simulate(1)" || failed+=("man ketama content")
comp=$(bash -c 'source /usr/share/bash-completion/completions/ketama; COMP_WORDS=(ketama loo); COMP_CWORD=1; _ketama ketama loo ketama; echo "${COMPREPLY[*]}"')
[[ $comp == lookup ]] && echo "bash completion: ketama loo<TAB> -> $comp" || failed+=("bash completion")
test -f /usr/share/zsh/vendor-completions/_ketama && test -f /usr/share/fish/vendor_completions.d/ketama.fish || failed+=("zsh/fish completions")

step "dpkg -r"
dpkg -r ketama-tools libketama-dev libketama0 >/dev/null && installed_debs=""
[[ ! -e /usr/lib/$ma/libketama.so.0 && ! -e /usr/bin/ketama ]] && echo "removed" || failed+=("dpkg -r")

step "make install PREFIX=<tmp>: CMake find_package(ketama) from a plain install, then make uninstall"
prefix="$tmp/prefix"
make -s -C ffi-c install PREFIX="$prefix" CARGO_PROFILE="$profile" >/dev/null
cat >"$tmp/cmake-app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(app C)
find_package(ketama 0.1 REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE ketama::ketama)
CMAKE
if cmake -S "$tmp/cmake-app" -B "$tmp/cmake-build3" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake3.out" 2>&1 \
    && cmake --build "$tmp/cmake-build3" >>"$tmp/cmake3.out" 2>&1 \
    && [[ $("$tmp/cmake-build3/app") == "$want" ]] \
    && ldd "$tmp/cmake-build3/app" | grep >/dev/null "libketama.so.0 => $prefix/lib/libketama.so.0"; then
    echo "cmake against $prefix: ok"
else
    cat "$tmp/cmake3.out"; failed+=("cmake make-install")
fi
"$prefix/bin/ketama" --version >/dev/null && test -f "$prefix/share/man/man1/ketama.1" || failed+=("make install cli")
make -s -C ffi-c uninstall PREFIX="$prefix" CARGO_PROFILE="$profile" >/dev/null
left=$(find "$prefix" -type f -o -type l)
[[ -z $left ]] && echo "make uninstall: nothing left" || { echo "left: $left"; failed+=("make uninstall"); }

# --- 4. PHP / Composer -------------------------------------------------------------------
step "composer validate --strict"
(cd ffi-c/php && COMPOSER_ALLOW_SUPERUSER=1 composer validate --strict --no-check-publish --no-interaction) || failed+=("composer validate")

# --- 5. progress bars ----------------------------------------------------------------------
step "progress bars: on a terminal's stderr only"
if [[ $profile == release ]]; then cargo build -q --release -p ketama-cli --bin ketama; else cargo build -q -p ketama-cli --bin ketama; fi
seq -f 'key:%.0f' 1 400000 >"$tmp/keys"
cmd="target/$profile/ketama simulate --hash all --keys $tmp/keys --format json"
script -qec "$cmd >/dev/null" /dev/null </dev/null >"$tmp/tty.out" 2>&1 || true
if grep -aq 'simulate \[' "$tmp/tty.out"; then echo "terminal: progress drawn"; else
    echo "terminal: no progress bar (did simulate finish within a second?)"; failed+=("progress on tty"); fi
$cmd >/dev/null 2>"$tmp/pipe.err"
[[ ! -s $tmp/pipe.err ]] && echo "pipe: stderr empty" || failed+=("progress on pipe")

step "summary"
if ((${#failed[@]})); then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "packaging: all checks passed"
