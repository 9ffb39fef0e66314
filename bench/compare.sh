#!/usr/bin/env bash
# Every side-by-side speed comparison against the real clients in one run, then the ratio table:
#   C      libketama (release build)  vs  libmemcached 1.1.4 memcached_generate_hash   bench/c/compare.c
#   Python ketama.Ring                vs  uhashring 2.5 get_node(hash_fn="ketama")     bench/py/compare.py
#   PHP    Ketama\Ring (FFI)          vs  php-memcached 3.2 getServerByKey             bench/php/compare.php
#   build and one-server changes of 1,000 and 10,000 servers (our C API), and the Rust
#   core's own lookup under the C one (ffi-c/examples/core_floor.rs)
#   C      large rings (100 to 50,000 servers; md5, one_at_a_time, 128-bit and tie-run
#          families): ketama_ring_lookup_index and _lookup_packed  vs  a reference search
#          (the ring's key hash, then Eytzinger with prefetch over ketama_ring_points)  bench/c/large.c
#   JS     Ring.get / getMany  vs  the Rust core and npm hashring 3.2.0      bench/js/core.sh
#   C      our libketama drop-in ketama_get_server  vs  the original last.fm libketama
#          (only with its source at hand: no registry packages it)                bench/c/libketama.c
# Same keys (user:N:profile), equal servers (10, 100, 1,000, 10,000; the table is the
# 100-server column), same placement checked first. Installs what it needs when missing
# (tests/setup.sh for the Debian packages, a venv with the package and uhashring).
#
#   bash bench/compare.sh            table on stdout; raw rows in bench/out/results.tsv and the
#                                    chart in bench/out/ns-per-key.svg
#   bash bench/compare.sh --docs     the same, also written to docs/performance-results.tsv and
#                                    docs/performance.svg (what docs/performance.md shows)
# Env: KETAMA_VENV (default python/.venv), BENCH_SIZES (default "10 100 1000 10000"),
# BENCH_LARGE_SIZES (default "100 1000 10000 50000"; empty: no large-ring table),
# LIBKETAMA_SRC (https://github.com/RJ/ketama: a git checkout, whose pinned commit is used, or
# a directory holding its libketama/; default: a local mirror, $KETAMA_MIRROR/RJ+ketama/repo):
# built here for the drop-in row, which reads "not measured" without it.
# A benchmark, not a test: nothing here asserts a speed, and CI does not run it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
out="$here/out"
docs=0
[[ "${1:-}" == "--docs" ]] && docs=1
sizes=(${BENCH_SIZES:-10 100 1000 10000})
large_sizes=(${BENCH_LARGE_SIZES-100 1000 10000 50000})
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
say() { printf '== %s\n' "$*" >&2; }

# --- what it needs ---------------------------------------------------------------------
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=0
for p in gcc pkg-config libmemcached-dev php8.2-cli php8.2-memcached python3-venv; do have "$p" || missing=1; done
if ((missing)); then
    say "installing the Debian packages (tests/setup.sh)"
    sudo_=""; [[ $(id -u) == 0 ]] || sudo_=sudo
    $sudo_ bash "$root/tests/setup.sh" >&2
fi
say "libketama: release build, installed into a temporary prefix"
make -s -C "$root/ffi-c" install-lib PREFIX="$tmp/prefix" >&2
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$tmp/compare" "$here/c/compare.c" \
    $(pkg-config --cflags --libs ketama) -lmemcached -Wl,-rpath,"$(pkg-config --variable=libdir ketama)"
# shellcheck disable=SC2046
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$tmp/large" "$here/c/large.c" \
    $(pkg-config --cflags --libs ketama) -Wl,-rpath,"$(pkg-config --variable=libdir ketama)"
say "the Rust core floor (ffi-c/examples/core_floor.rs)"
(cd "$root" && cargo build -q --release -p ketama-ffi --example core_floor >&2)
venv="${KETAMA_VENV:-$root/python/.venv}"
if [[ ! -x "$venv/bin/python" ]]; then
    say "python venv $venv"
    python3 -m venv "$venv"
fi
say "python: ketama from this tree (release build) and uhashring 2.5"
"$venv/bin/python" -m pip install -q --upgrade pip >&2
"$venv/bin/python" -m pip install -q "$root/python" "uhashring==2.5" >&2

# --- the runs ------------------------------------------------------------------------------
rows="$out/results.tsv"
{
    printf '# date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf '# machine\t%s, %s cores (nproc)\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" "$(nproc)"
    printf '# load average before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf '# versions\tketama %s, libmemcached %s, php-memcached %s, PHP %s, CPython %s, uhashring %s\n' \
        "$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -1)" \
        "$(dpkg-query -W -f='${Version}' libmemcached-dev 2>/dev/null)" \
        "$(php -r 'echo phpversion("memcached");')" "$(php -r 'echo PHP_VERSION;')" \
        "$("$venv/bin/python" -c 'import platform; print(platform.python_version())')" \
        "$("$venv/bin/python" -c 'from importlib.metadata import version; print(version("uhashring"))')"
} >"$rows"
for n in "${sizes[@]}"; do
    say "C: $n servers"
    "$tmp/compare" lookup "$n" 20000 >>"$rows"
done
for family in md5 oaat wide ties; do
    for n in "${large_sizes[@]}"; do
        say "C: large rings, $family, $n servers"
        "$tmp/large" "$family" "$n" 200000 >>"$rows"
    done
done
say "Rust core floor: ${sizes[*]} servers"
"$root/target/release/examples/core_floor" "${sizes[@]}" >>"$rows"
for n in 1000 10000; do
    say "C: build and change, $n servers"
    "$tmp/compare" build "$n" >>"$rows"
done
say "Python: ${sizes[*]} servers"
"$venv/bin/python" "$here/py/compare.py" "${sizes[@]}" >>"$rows"
say "PHP: ${sizes[*]} servers"
KETAMA_LIB="$tmp/prefix/lib/libketama.so.0" php -d ffi.enable=1 "$here/php/compare.php" "${sizes[@]}" >>"$rows"
say "Go: the port against go-ketama and the Rust core, 100 servers (ratios on stderr)"
bash "$here/go/run.sh" >&2 || say "Go: not measured (bench/go/run.sh failed)"
say "Java: the port against the Rust core and spymemcached, 100 servers (its table on stderr)"
bash "$here/java/run.sh" --tsv >>"$rows"
say "JS: the port against the Rust core and npm hashring, 100 servers"
bash "$here/js/core.sh" --rows 100 >>"$rows"
# The original libketama: $LIBKETAMA_SRC (a directory holding RJ/ketama's libketama/, or a
# git checkout of it: its commit LIBKETAMA_PIN), else a local mirror of the repository.
LIBKETAMA_PIN=18cf9a7717dad0d8106a5205900a17617043fe2c
libketama_src="${LIBKETAMA_SRC:-${KETAMA_MIRROR:-/work/.mirror}/RJ+ketama/repo}"
if git -C "$libketama_src" cat-file -e "$LIBKETAMA_PIN^{commit}" 2>/dev/null; then
    mkdir -p "$tmp/libketama-pin"
    git -C "$libketama_src" archive "$LIBKETAMA_PIN" libketama | tar x -C "$tmp/libketama-pin"
    libketama_src="$tmp/libketama-pin"
fi
if [[ -d "$libketama_src/libketama" ]]; then
    say "C: our libketama drop-in against the original libketama ($libketama_src), 100 servers"
    cp -r "$libketama_src/libketama" "$tmp/libketama-orig"
    # its Makefile builds with -Werror, which today's gcc trips on (strncpy truncation)
    make -s -C "$tmp/libketama-orig" build CFLAGS="-fPIC -w" >&2
    cc -O2 -std=c11 -o "$tmp/libketama-bench" "$here/c/libketama.c" -ldl
    "$tmp/libketama-bench" "$tmp/libketama-orig/libketama.so.1" "$tmp/prefix/lib/libketama.so.0" 100 >>"$rows"
fi
printf '# load average after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$rows"

# --- the table and the chart --------------------------------------------------------------
python3 "$here/table.py" "$rows"
python3 "$here/chart.py" "$rows" "$out/ns-per-key.svg"
if ((docs)); then
    cp "$rows" "$root/docs/performance-results.tsv"
    python3 "$here/chart.py" "$rows" "$root/docs/performance.svg"
    say "wrote docs/performance-results.tsv and docs/performance.svg"
fi
