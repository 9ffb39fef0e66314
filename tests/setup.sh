#!/usr/bin/env bash
# Installs what the test suites need when it is missing: Debian packages (C toolchain tools,
# valgrind, PHP with FFI, php-memcached for the agreement test, memcached and redis-server for the live tests,
# phpunit, python3-venv; pecl memcache, spymemcached and a JDK for the mixed-language fleet) and the Rust components used by the lints.
set -euo pipefail
source "$(dirname "$0")/lib/need.sh"
need_packages pkg-config valgrind php8.2-cli php8.2-memcached php8.2-memcache phpunit memcached redis-server \
    python3-venv libmemcached-dev libspymemcached-java
# tests/e2e compiles a Java writer: any JDK with javac
need_packages --cmd javac default-jdk-headless
if command -v rustup >/dev/null 2>&1; then
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy
  rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
fi
echo "setup: system packages and Rust components present"
