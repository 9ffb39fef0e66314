#!/usr/bin/env bash
# Builds and runs the two no_std proofs: ketama-core without default features (hashes only)
# and with only `alloc` (a ring), each in a #![no_std] #![no_main] panic=abort binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="${CARGO_TARGET_DIR:-$here/../../target}/no_std"
for crate in hash_only with_alloc; do
  (cd "$here/$crate" && CARGO_TARGET_DIR="$target" cargo build --release --quiet)
done
"$target/release/ketama-no-std-hash"
"$target/release/ketama-no-std-alloc"
echo "no_std: hash-only and alloc-only binaries built and ran"
