#!/usr/bin/env bash
# Proves the built distributions, as a user without Rust would meet them:
#   - the abi3 wheel in python/dist/ installs into a fresh venv of every CPython 3.9-3.13 that
#     pyenv has (~/.pyenv/versions, or $KETAMA_PYTHONS: interpreter paths) with cargo/rustc
#     absent from PATH and pip barred from building anything, and the Python suite
#     (python/tests) passes against the installed package, not the source tree: whole on the
#     oldest and the newest interpreter, its API and vector tests on those between (one
#     abi3 binary serves them all; python/test.sh runs everything from the source tree);
#   - CPython 3.8: PyO3 0.30 supports CPython >= 3.9 only, so the package declares
#     Requires-Python >= 3.9; the test checks that pip refuses it there (a clear error rather
#     than a broken install);
#   - the sdist installs with pip where Rust exists (KETAMA_SKIP_SDIST=1 skips it) and passes
#     test_api.py.
# Run `make -C python dist` first (tests/packaging.sh does).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dist="$here/dist"
shopt -s nullglob
wheels=("$dist"/ketama-*-cp39-abi3-manylinux*.whl)
sdists=("$dist"/ketama-*.tar.gz)
((${#wheels[@]} == 1 && ${#sdists[@]} == 1)) || { echo "test-wheel: expected one wheel and one sdist in $dist (make -C python dist)" >&2; exit 1; }
wheel=${wheels[0]} sdist=${sdists[0]}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()

# The interpreters: the newest pyenv patch release of each CPython 3.8-3.13.
pythons=()
if [[ -n ${KETAMA_PYTHONS:-} ]]; then
    read -r -a pythons <<<"$KETAMA_PYTHONS"
else
    for minor in 8 9 10 11 12 13; do
        best=""
        for d in "$HOME"/.pyenv/versions/3."$minor".*; do
            [[ $d =~ /3\.$minor\.[0-9]+$ && -x $d/bin/python3 ]] && best=$d/bin/python3
        done
        [[ -n $best ]] && pythons+=("$best")
    done
fi
((${#pythons[@]})) || { echo "test-wheel: no CPython 3.8-3.13 found (pyenv or KETAMA_PYTHONS)" >&2; exit 1; }
# The interpreters that run the whole suite (3.8 only checks pip's refusal).
minor_of() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }
minors=$(for py in "${pythons[@]}"; do minor_of "$py"; done | grep -vx 3.8 | sort -V || true)
oldest=$(head -1 <<<"$minors")
newest=$(tail -1 <<<"$minors")

# A PATH with no Rust toolchain: the system directories only, and proof that cargo/rustc are gone.
norust_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
for tool in cargo rustc; do
    if PATH=$norust_path command -v "$tool" >/dev/null; then
        echo "test-wheel: $tool is on the system PATH ($(PATH=$norust_path command -v $tool)); cannot test a Rust-free install" >&2
        exit 1
    fi
done
memcached_dir=""
for m in /usr/bin/memcached /usr/sbin/memcached /usr/local/bin/memcached; do [[ -x $m ]] && memcached_dir=$(dirname "$m") && break; done

# One interpreter: prints its log; its failures go to $tmp/failed-<version>.
test_one() {
    local py=$1 ver venv out where deps
    ver=$(minor_of "$py")
    venv="$tmp/venv-$ver"
    local fail="$tmp/failed-$ver"
    printf '\n== CPython %s (%s): wheel, no Rust on PATH\n' "$ver" "$py"
    "$py" -m venv "$venv"
    # Binary distributions only: pip may not build anything (it could not, without cargo).
    local pipi=(env PATH="$venv/bin:$norust_path" PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install -q --only-binary=:all:)
    if [[ $ver == 3.8 ]]; then
        if out=$("${pipi[@]}" --no-index "$wheel" 2>&1); then
            echo "3.8: pip installed the cp39-abi3 wheel although PyO3 0.30 cannot support 3.8"; echo "3.8-refusal" >>"$fail"
        elif grep -q "is not a supported wheel on this platform" <<<"$out"; then
            echo "3.8: refused as documented: $(grep -m1 'not a supported wheel' <<<"$out")"
        else
            echo "3.8: unexpected pip failure: $out"; echo "3.8-refusal" >>"$fail"
        fi
        return
    fi
    # uhashring 2.5 (the version the agreement test pins) needs Python >= 3.10; on 3.9
    # test_uhashring.py skips itself.
    deps=("pytest>=7" "pymemcache>=4,<5")
    [[ $ver == 3.9 ]] || deps+=("uhashring==2.5")
    "${pipi[@]}" "${deps[@]}" || { echo "$ver-deps" >>"$fail"; return; }
    "${pipi[@]}" --no-index "$wheel" || { echo "$ver-install" >>"$fail"; return; }
    # The package must come from site-packages, with its compiled module.
    where=$(cd "$tmp" && "$venv/bin/python" -c 'import ketama, ketama._ketama as m; print(ketama.__file__); print(m.__file__)')
    echo "$where"
    [[ $where == "$venv/lib/"*"/site-packages/ketama/__init__.py"*"_ketama.abi3.so" ]] || { echo "not the installed package"; echo "$ver-import" >>"$fail"; return; }
    # The pytest script (not `python -m pytest`) run from outside the tree keeps python/ off
    # sys.path: `import ketama` in the tests is the installed wheel.
    # KETAMA_VECTOR_SAMPLE: one vector file per profile and kind here (the same sources
    # passed every file in python/test.sh); the rest of the suite runs whole.
    local suite=("$here/tests")
    [[ $ver == "$oldest" || $ver == "$newest" ]] || suite=("$here/tests/test_api.py" "$here/tests/test_vectors.py")
    (cd "$tmp" && env PATH="$venv/bin:${memcached_dir:+$memcached_dir:}$norust_path" KETAMA_VECTOR_SAMPLE=1 \
        "$venv/bin/pytest" -q -p no:cacheprovider -c "$here/pyproject.toml" --rootdir "$here" "${suite[@]}") \
        >"$tmp/pytest-$ver.out" 2>&1 || { tail -30 "$tmp/pytest-$ver.out"; echo "$ver-pytest" >>"$fail"; return; }
    tail -1 "$tmp/pytest-$ver.out"
}

# The interpreters run side by side, one per CPU.
lanes=$(nproc 2>/dev/null || echo 2)
i=0
for py in "${pythons[@]}"; do
    while (($(jobs -rp | wc -l) >= lanes)); do wait -n || true; done
    test_one "$py" >"$tmp/log-$i" 2>&1 &
    i=$((i + 1))
done
wait
for ((j = 0; j < i; j++)); do cat "$tmp/log-$j"; done
for f in "$tmp"/failed-*; do
    [[ -e $f ]] && mapfile -t -O "${#failed[@]}" failed <"$f"
done

if [[ ${KETAMA_SKIP_SDIST:-0} != 1 ]]; then
    printf '\n== sdist with Rust: pip install %s\n' "$(basename "$sdist")"
    # The interpreter python/test.sh builds with, and the workspace's target directory: the
    # sdist's build reuses the dependencies compiled there (pyo3, ...) and recompiles only
    # ketama-core and the binding from the unpacked sdist.
    py=${PYTHON:-python3}
    "$py" -m venv "$tmp/venv-sdist"
    if CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" "$tmp/venv-sdist/bin/python" -m pip install -q \
        --disable-pip-version-check "$sdist" "pytest>=7" >"$tmp/sdist.out" 2>&1; then
        if (cd "$tmp" && "$tmp/venv-sdist/bin/pytest" -q -p no:cacheprovider -c "$here/pyproject.toml" \
            --rootdir "$here" "$here/tests/test_api.py") >"$tmp/sdist-pytest.out" 2>&1; then
            tail -1 "$tmp/sdist-pytest.out"
        else
            tail -30 "$tmp/sdist-pytest.out"; failed+=("sdist pytest")
        fi
    else
        tail -30 "$tmp/sdist.out"; failed+=("sdist install")
    fi
fi

if ((${#failed[@]})); then
    echo "test-wheel: FAILED: ${failed[*]}"
    exit 1
fi
echo "test-wheel: all passed (${#pythons[@]} interpreters)"
