#!/usr/bin/env bash
# Regenerate tests/vectors/flexihash-seed-*.json (the user's FlexiHash class, run under
# php8.2-cli) and tests/vectors/flexihash-upstream-*.json (transcribed from pda/flexihash's
# README, which cannot be installed here).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"

source "$HERE/../../lib/need.sh"
need_packages --cmd php8.2 php8.2-cli
cd "$REPO"
PHP=php8.2 /usr/bin/env python3 "$HERE/flexihash_oracle.py"
