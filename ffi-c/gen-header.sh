#!/usr/bin/env bash
# Writes include/ketama.h (cbindgen, pinned version), include/ketama_ffi_php.h (the same
# declarations without preprocessor lines, for PHP's FFI::cdef) and ffi-c/php/src/Status.php
# (the status values as PHP constants, from the header's enum).
#   ffi-c/gen-header.sh            regenerate into include/ and ffi-c/php/src/
#   ffi-c/gen-header.sh --check    regenerate into a temp dir and fail if a committed copy differs
set -euo pipefail
CBINDGEN_VERSION=0.29.0
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out="$root/include"
php_out="$here/php/src"
check=0
if [[ "${1:-}" == "--check" ]]; then
    check=1
    out=$(mktemp -d)
    php_out="$out"
    trap 'rm -rf "$out"' EXIT
fi

cbindgen=$(command -v cbindgen || true)
if [[ -z "$cbindgen" || "$("$cbindgen" --version)" != "cbindgen $CBINDGEN_VERSION" ]]; then
    cbindgen="$HOME/.cargo/bin/cbindgen"
    if [[ ! -x "$cbindgen" || "$("$cbindgen" --version)" != "cbindgen $CBINDGEN_VERSION" ]]; then
        echo "installing cbindgen $CBINDGEN_VERSION" >&2
        cargo install cbindgen --version "$CBINDGEN_VERSION" --locked >&2
    fi
fi

version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -1)
IFS=. read -r major minor patch <<<"$version"

tmp=$(mktemp)
"$cbindgen" --quiet --config "$here/cbindgen.toml" --crate ketama-ffi --output "$tmp" "$here"
sed -e "s/@CBINDGEN_VERSION@/$CBINDGEN_VERSION/" -e "s/@KETAMA_VERSION@/$version/" \
    -e "s/@KETAMA_VERSION_MAJOR@/$major/" -e "s/@KETAMA_VERSION_MINOR@/$minor/" \
    -e "s/@KETAMA_VERSION_PATCH@/$patch/" "$tmp" >"$out/ketama.h"
rm -f "$tmp"

# PHP FFI::cdef accepts no preprocessor lines and no extern "C" guards; drop them and the
# comments (FFI's parser is happiest with bare declarations).
{
    echo "/* GENERATED from include/ketama.h by ffi-c/gen-header.sh for PHP FFI::cdef; do not edit. */"
    python3 - "$out/ketama.h" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
lines = []
for line in text.splitlines():
    s = line.strip()
    if s.startswith("#") or s == 'extern "C" {' or s.startswith('}  // extern "C"') or s.startswith("} // extern"):
        continue
    if s:
        lines.append(line.rstrip())
out = "\n".join(lines) + "\n"
sys.stdout.write(out)
PY
} >"$out/ketama_ffi_php.h"

# The status values for PHP: an interface whose constants KetamaException inherits, each with
# the header's doc comment.
python3 - "$out/ketama.h" >"$php_out/Status.php" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
body = re.search(r"typedef enum ketama_status \{(.*?)\} ketama_status;", text, re.S).group(1)
out = [
    "<?php",
    "// GENERATED from include/ketama.h by ffi-c/gen-header.sh; do not edit.",
    "",
    "declare(strict_types=1);",
    "",
    "namespace Ketama;",
    "",
    "/**",
    " * The library's status values (`ketama_status`, the numbers of `KETAMA_STATUS_*`): the codes",
    " * of a KetamaException, which implements this interface (`KetamaException::EMPTY_RING`).",
    " */",
    "interface Status",
    "{",
]
for doc, name, value in re.findall(r"/\*\*(.*?)\*/\s*KETAMA_STATUS_(\w+) = (\d+),", body, re.S):
    lines = [l.strip().lstrip("*").strip() for l in doc.strip().splitlines()]
    out.append("    /**")
    out.extend(("     * " + l).rstrip() for l in lines)
    out.append("     */")
    out.append(f"    public const {name} = {value};")
out.append("}")
sys.stdout.write("\n".join(out) + "\n")
PY

if [[ $check == 1 ]]; then
    status=0
    for f in ketama.h ketama_ffi_php.h; do
        if ! diff -u "$root/include/$f" "$out/$f"; then
            echo "include/$f is stale: run ffi-c/gen-header.sh" >&2
            status=1
        fi
    done
    if ! diff -u "$here/php/src/Status.php" "$php_out/Status.php"; then
        echo "ffi-c/php/src/Status.php is stale: run ffi-c/gen-header.sh" >&2
        status=1
    fi
    exit $status
fi
echo "wrote $out/ketama.h, $out/ketama_ffi_php.h and $php_out/Status.php" >&2

