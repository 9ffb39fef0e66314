#!/usr/bin/env bash
# Re-creates kjv-genesis-exodus.txt from Debian's bible-kjv-text package (see README.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../tests/lib/need.sh"
need_packages --cmd bible bible-kjv bible-kjv-text
bible -l100000 "gen1:1-exod40:38" | python3 -c '
import re, sys
out = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        continue
    m = re.match(r"^\s+(\d+) (.*)$", line)
    if m:
        out.append(m.group(2))          # a verse, without its number
    else:
        out += ["", line.strip(), ""]   # a chapter heading ("Genesis 1")
sys.stdout.write("\n".join(out).strip("\n") + "\n")
' > "$here/kjv-genesis-exodus.txt"
sha256sum "$here/kjv-genesis-exodus.txt"
