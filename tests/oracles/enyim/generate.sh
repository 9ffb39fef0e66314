#!/usr/bin/env bash
# Regenerates tests/vectors/enyim-*.json and enyim-ketama-*.json from EnyimMemcached's own node
# locators, compiled from its source with Debian mono-mcs in a temp dir and run with mono.
# Needs ENYIM_GIT: a git clone of github enyim/EnyimMemcached holding commit $COMMIT (nothing
# from it is written into this repository). Pure computation: nothing connects (README.md).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
COMMIT=485b5fe60a2f4383ff73b3cdb7ce4117a9aff4bc  # branch develop, 2019-07-07
source "$ROOT/tests/lib/need.sh"
need_packages --cmd mcs mono-mcs
need_packages --cmd mono mono-runtime
[ -n "${ENYIM_GIT:-}" ] || { echo "set ENYIM_GIT to a git clone of enyim/EnyimMemcached" >&2; exit 1; }
git -C "$ENYIM_GIT" cat-file -e "$COMMIT^{commit}" || { echo "ENYIM_GIT lacks commit $COMMIT" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# the locators and what they reference, unchanged
FILES=(FnvHash.cs HashkitCrc32.cs HashkitMurmur.cs HashkitOneAtATime.cs IUIntHashAlgorithm.cs
  TigerHash.cs UIntEqualityComparer.cs Memcached/IMemcachedNode.cs
  Memcached/IMemcachedNodeLocator.cs Memcached/IProviderFactory.cs
  Memcached/IMemcachedKeyTransformer.cs Memcached/Locators/DefaultNodeLocator.cs
  Memcached/Locators/KetamaNodeLocator.cs Memcached/Locators/KetamaNodeLocatorFactory.cs
  Memcached/KeyTransformers/DefaultKeyTransformer.cs Memcached/KeyTransformers/KeyTransformerBase.cs
  Configuration/ConfigurationHelper.cs)
mkdir -p "$WORK/src"
for f in "${FILES[@]}"; do
  git -C "$ENYIM_GIT" show "$COMMIT:Enyim.Caching/$f" >"$WORK/src/$(basename "$f")"
done
git -C "$ENYIM_GIT" show "$COMMIT:Enyim.Caching.Tests/KetamaTest.cs" >"$WORK/KetamaTest.cs"
mcs -nowarn:414,618,649,169,219 -unsafe -target:library -r:System.Configuration.dll \
  -out:"$WORK/Enyim.Caching.dll" "$WORK"/src/*.cs "$HERE/Stubs.cs"
mcs -unsafe -r:"$WORK/Enyim.Caching.dll" -out:"$WORK/EnyimOracle.exe" "$HERE/EnyimOracle.cs"
MONO_VERSION="mono $(dpkg-query -W -f='${Version}' mono-runtime) (Debian)"
rm -f "$ROOT"/tests/vectors/enyim-*.json
export ENYIM_ORACLE="mono $WORK/EnyimOracle.exe"
isolated() { if unshare -n true 2>/dev/null; then unshare -n "$@"; else "$@"; fi; }
cd "$ROOT"
MONO_PATH="$WORK" isolated python3 "$HERE/gen.py" "$COMMIT" "$MONO_VERSION" "$WORK/KetamaTest.cs"
python3 "$ROOT/tests/vectors/manifest.py"
