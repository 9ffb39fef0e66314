#!/usr/bin/env bash
# `make -C ffi-c deb`: builds into target/debian/
#   libketama0_<v>-1_<arch>.deb     libketama.so.<v> + the libketama.so.0 soname link
#   libketama-dev_<v>-1_<arch>.deb  headers, libketama.so link, libketama.a, pkg-config files,
#                                   the CMake package, the PHP FFI headers
#   ketama-tools_<v>-1_<arch>.deb   /usr/bin/ketama, bash/zsh/fish completions, man pages
# from a staged `make install PREFIX=/usr LIBDIR=/usr/lib/<multiarch>` (release build), with
# dpkg-deb. Depends of the binaries come from dpkg-shlibdeps; libketama0 carries shlibs and
# symbols files (the symbols are ffi-c/debian/libketama0.symbols: the build fails when the
# library's exported symbols differ from that list, so an ABI change cannot slip through).
# Needs dpkg-dev (dpkg-shlibdeps, dpkg-architecture) and binutils.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ffi=$(dirname "$here")
root=$(dirname "$ffi")
umask 022

for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture strip nm; do
    command -v "$tool" >/dev/null || { echo "build-debs: $tool missing (apt-get install dpkg-dev binutils)" >&2; exit 1; }
done

version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -1)
major=${version%%.*}
debver="$version-1"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
out="${TARGET_DIR:-$root/target}/debian"
work="$out/build"
rm -rf "$work"
mkdir -p "$work"
rm -f "$out"/*.deb

# KETAMA_PACKAGE_PROFILE: the cargo profile packaged (release; tests/run-all.sh packages the
# build its other stages already made).
profile=${KETAMA_PACKAGE_PROFILE:-release}
echo "build-debs: make install ($profile) into a staging tree"
stage="$work/stage"
make -s -C "$ffi" install DESTDIR="$stage" PREFIX=/usr LIBDIR="/usr/lib/$ma" CARGO_PROFILE="$profile" >/dev/null

# take PKG PATH...: moves PATH (relative to the staging root) into PKG's tree.
take() {
    local pkg=$1; shift
    local p
    for p in "$@"; do
        mkdir -p "$work/$pkg/$(dirname "$p")"
        mv "$stage/$p" "$work/$pkg/$p"
    done
}
lib="usr/lib/$ma"
take libketama0 "$lib/libketama.so.$version" "$lib/libketama.so.$major"
take libketama-dev "$lib/libketama.so" "$lib/libketama.a" "$lib/pkgconfig" "$lib/cmake" usr/include usr/share/ketama
take ketama-tools usr/bin usr/share/man usr/share/bash-completion usr/share/zsh usr/share/fish
left=$(cd "$stage" && find . -type f -o -type l)
[[ -z $left ]] || { echo "build-debs: files in no package:" >&2; echo "$left" >&2; exit 1; }

# As dh_strip does: no debug information in the packages.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$work/libketama0/$lib/libketama.so.$version"
strip --strip-debug "$work/libketama-dev/$lib/libketama.a"
strip --remove-section=.comment --remove-section=.note "$work/ketama-tools/usr/bin/ketama"
gzip -9n "$work/ketama-tools/usr/share/man/man1/"*.1

# The exported symbols must be exactly the committed list.
nm -D --defined-only "$work/libketama0/$lib/libketama.so.$version" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort >"$work/exported"
sed -n 's/^ \([^@ ]*\)@Base .*/\1/p' "$here/libketama0.symbols" | sort >"$work/listed"
if ! diff -u "$work/listed" "$work/exported" >"$work/symbols.diff"; then
    echo "build-debs: exported symbols differ from ffi-c/debian/libketama0.symbols (+ new, - gone):" >&2
    grep '^[+-][^+-]' "$work/symbols.diff" >&2
    exit 1
fi

# dpkg-shlibdeps wants a debian/control beside it.
mkdir -p "$work/src/debian"
printf 'Source: ketama\n\nPackage: libketama0\nArchitecture: any\n' >"$work/src/debian/control"
shlibdeps() { (cd "$work/src" && dpkg-shlibdeps -O -e"$1" 2>/dev/null | sed -n 's/^shlibs:Depends=//p'); }
lib_depends=$(shlibdeps "$work/libketama0/$lib/libketama.so.$version")
tools_depends=$(shlibdeps "$work/ketama-tools/usr/bin/ketama")
[[ -n $lib_depends && -n $tools_depends ]] || { echo "build-debs: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

homepage=$(sed -n 's/^repository *= *"\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -1)
maintainer="ketama developers <ketama@example.invalid>"

# control PKG FIELDS DESCRIPTION: writes DEBIAN/control, md5sums, docs; builds the .deb.
package() {
    local pkg=$1 fields=$2 description=$3
    local dir="$work/$pkg"
    mkdir -p "$dir/DEBIAN" "$dir/usr/share/doc/$pkg"
    install -m 0644 "$here/copyright" "$dir/usr/share/doc/$pkg/copyright"
    printf 'ketama (%s) unstable; urgency=medium\n\n  * Release %s (see CHANGELOG.md).\n\n -- %s  %s\n' \
        "$debver" "$version" "$maintainer" "$(date -R -u -d @"${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}")" \
        | gzip -9n >"$dir/usr/share/doc/$pkg/changelog.Debian.gz"
    local size
    size=$(du -sk --exclude=DEBIAN "$dir" | cut -f1)
    {
        printf 'Package: %s\nSource: ketama\nVersion: %s\nArchitecture: %s\nMaintainer: %s\n' "$pkg" "$debver" "$arch" "$maintainer"
        printf 'Installed-Size: %s\n%sHomepage: %s\nDescription: %s\n' "$size" "$fields" "$homepage" "$description"
    } >"$dir/DEBIAN/control"
    (cd "$dir" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) >"$dir/DEBIAN/md5sums"
    find "$dir" -type d -exec chmod 0755 {} +
    chmod 0644 "$dir/DEBIAN/"*
    dpkg-deb --root-owner-group -Zxz --build "$dir" "$out/${pkg}_${debver}_${arch}.deb" >/dev/null
    echo "build-debs: $out/${pkg}_${debver}_${arch}.deb"
}

# libketama0: shlibs, symbols, ldconfig trigger.
mkdir -p "$work/libketama0/DEBIAN"
printf 'libketama %s libketama0 (>= %s)\n' "$major" "$version" >"$work/libketama0/DEBIAN/shlibs"
cp "$here/libketama0.symbols" "$work/libketama0/DEBIAN/symbols"
printf 'activate-noawait ldconfig\n' >"$work/libketama0/DEBIAN/triggers"

package libketama0 "Section: libs
Priority: optional
Multi-Arch: same
Depends: $lib_depends
" "consistent hashing of every popular memcached client (shared library)
 libketama places memcached keys on servers exactly the way each popular client
 does, bit for bit: libketama, libmemcached / php-memcached, pecl memcache,
 twemproxy, spymemcached, xmemcached, uhashring and more, plus jump, rendezvous
 and maglev hashing. It is also a drop-in replacement for last.fm's libketama.
 .
 This package contains the shared library, also used by the PHP FFI wrapper."

# Not Multi-Arch: same: ketama_ffi_preload.h names the architecture's library path.
package libketama-dev "Section: libdevel
Priority: optional
Depends: libketama0 (= $debver)
" "consistent hashing of every popular memcached client (development files)
 libketama places memcached keys on servers exactly the way each popular client
 does, bit for bit.
 .
 This package contains the C headers (ketama.h and the libketama-compatible
 ketama_compat.h), the static library, pkg-config files (ketama, ketama-compat),
 the CMake package (find_package(ketama), target ketama::ketama) and the
 declarations PHP FFI loads (/usr/share/ketama/ketama_ffi_php.h)."

package ketama-tools "Section: utils
Priority: optional
Depends: $tools_depends
Suggests: bash-completion
" "which server each memcached client picks for a key
 The ketama command prints the server each memcached client (libketama,
 php-memcached, twemproxy, spymemcached, xmemcached, ...) picks for a key, what
 moves when the fleet changes, where two clients disagree, and the classic
 10 -> 12 nodes hit-rate experiment.
 .
 This package contains the command, its bash, zsh and fish completions and its
 manual pages."

rm -rf "$work"
