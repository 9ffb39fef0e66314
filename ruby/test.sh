#!/usr/bin/env bash
# The Ruby gem's suite: installs what it needs (Ruby, ruby-ffi, ruby-redis, ruby-dalli,
# redis-server, memcached, pkg-config; Debian packages through tests/lib/need.sh), builds the
# C library (target/debug/libketama.so, with the test-panic hook, as ffi-c/test.sh builds it)
# unless KETAMA_LIB names one, runs every minitest file of ruby/test/ (every vector file, the
# bad-input matrix, the error classes against spec/errors.json, the API, the redis-rb and
# Dalli adapters on live servers started and stopped by the tests), then ruby/test-gem.sh
# (gem build + install into an empty GEM_HOME).
#   ruby/test.sh                  (env KETAMA_LIB: the library to test; TESTOPTS: minitest's)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"

source "$root/tests/lib/need.sh"
need_packages ruby ruby-ffi ruby-redis ruby-dalli redis-server memcached pkg-config

# The optimised debug build tests/run-all.sh makes for every stage (the vector files take
# seconds against it, minutes against an unoptimised one).
export CARGO_PROFILE_DEV_OPT_LEVEL=${CARGO_PROFILE_DEV_OPT_LEVEL:-2}
if [[ -z ${KETAMA_LIB:-} ]] && command -v cargo >/dev/null; then
    (cd "$root" && cargo build -q -p ketama-ffi --features test-panic)
    target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
        ruby -rjson -e 'print JSON.parse($stdin.read).fetch("target_directory")')
    export KETAMA_LIB="$target/debug/libketama.so"
    # the library just built has the hook: its absence is a failure, not a skip
    export KETAMA_REQUIRE_PANIC_HOOK=1
fi
echo "ruby/test.sh: $(ruby --version), ffi $(ruby -rffi -e 'print FFI::VERSION'), library ${KETAMA_LIB:-(searched)}"

echo "== minitest (ruby/test/test_*.rb)"
# KETAMA_REQUIRE_SERVERS: a missing redis-server or memcached fails the adapter tests.
KETAMA_REQUIRE_SERVERS=1 RUST_BACKTRACE=0 ruby -I "$here/lib" -I "$here/test" \
    -e 'files = ARGV.take_while { |a| a != "--" }; ARGV.replace(ARGV.drop(files.size + 1))' \
    -e 'files.each { |f| require f }' "$here"/test/test_*.rb -- ${TESTOPTS:-}

echo "== the gem as a user installs it (ruby/test-gem.sh)"
bash "$here/test-gem.sh"
echo "ruby/test.sh: ok"
