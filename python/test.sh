#!/usr/bin/env bash
# Builds and tests the Python package from a clean clone:
#   venv (python/.venv) -> pip install ./python[test] (maturin from PyPI builds the Rust
#   extension) -> memcached via apt if missing -> mypy --strict + stubtest -> pytest.
# Needs: python3 with venv, a Rust toolchain, the package registries.
# Env: PYTHON (interpreter, default python3), KETAMA_VENV (venv dir, default python/.venv).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
venv="${KETAMA_VENV:-$here/.venv}"

source "$here/../tests/lib/need.sh"
[ -x /usr/bin/memcached ] || need_packages --cmd memcached memcached

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
# The package (release build of the extension) plus its test extras: pytest, uhashring==2.5,
# pymemcache, mypy.
"$venv/bin/python" -m pip install -q "$here[test]"

cd "$here"
echo "== mypy --strict (package, stubs, tests, bench, examples)"
"$venv/bin/python" -m mypy ketama tests bench examples
echo "== stubtest ketama._ketama"
(cd "$venv" && "$venv/bin/python" -m mypy.stubtest ketama._ketama)
echo "== pytest"
# The pytest script (not `python -m pytest`) keeps the source tree off sys.path, so the tests
# import the installed package, whose extension is built.
KETAMA_REQUIRE_MEMCACHED=1 "$venv/bin/pytest" -p no:cacheprovider "$here/tests" "$@"
echo "== uhashring's own test suite against ketama.uhashring (SKIPPED without its source)"
KETAMA_VENV="$venv" bash "$here/../tests/dropin/fetch-and-run.sh" uhashring
