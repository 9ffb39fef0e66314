#!/usr/bin/env bash
# Regenerates tests/vectors/pending/nginx-*.json by running the REAL nginx (Debian nginx-light
# 1.22.x) inside a private network + mount namespace (unshare): nginx only ever talks to
# addresses on that namespace's own loopback device. Needs root (unshare, ip, mount).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
need=()
command -v nginx >/dev/null 2>&1 || need+=(nginx-light)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
source "$HERE/../../lib/need.sh"
need_packages "${need[@]}"
VER="$(dpkg-query -W -f '${Version}' nginx-light 2>/dev/null || nginx -v 2>&1 | sed 's/.*nginx\///')"
UP="$(nginx -v 2>&1 | sed 's/.*nginx\///')"
case "$UP" in 1.22.*) ;; *) echo "expected nginx 1.22.x, got $UP" >&2; exit 1 ;; esac
mkdir -p "$ROOT/tests/vectors/pending"
rm -f "$ROOT"/tests/vectors/pending/nginx-*.json
unshare --net --mount --propagation private --fork python3 "$HERE/oracle.py" "$UP" "$VER"
