#!/usr/bin/env bash
# The gem as a user installs it, with no source tree in sight: builds ketama-<version>.gem
# (gem build --strict), installs the C library with `make -C ffi-c install-lib` under a
# temporary prefix, and the gem into an empty GEM_HOME with a PATH that holds nothing but
# ruby, gem and pkg-config (no compiler: the gem has no native extension; its one dependency,
# ffi, comes from the system's gems, Debian's ruby-ffi; no network). Then, from another
# directory, it loads the installed gem with only PKG_CONFIG_PATH pointing at the library,
# then with KETAMA_LIB, answers a recorded vector file, loads both adapters, and runs the
# API and error tests against the installed gem.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make -s -C "$root/ffi-c" install-lib PREFIX="$tmp/prefix" CARGO_PROFILE=debug CARGO_FEATURES=test-panic >/dev/null
lib="$tmp/prefix/lib/libketama.so.0"
test -f "$lib"

version=$(ruby -e "require '$here/lib/ketama/version'; print Ketama::VERSION")
gem build --strict -C "$here" ketama.gemspec --output "$tmp/ketama-$version.gem" >/dev/null
extensions=$(gem specification "$tmp/ketama-$version.gem" extensions)
[[ $extensions == "--- []" ]] || { echo "the gem has native extensions: $extensions" >&2; exit 1; }

mkdir -p "$tmp/bin" "$tmp/app" "$tmp/gems"
for tool in ruby gem pkg-config; do ln -s "$(command -v "$tool")" "$tmp/bin/$tool"; done
system_gems=$(ruby -e 'print Gem.default_path.join(":")')
run() {
    env -u KETAMA_LIB -u RUBYLIB -u RUBYOPT -u PKG_CONFIG_PATH PATH="$tmp/bin" HOME="$tmp/app" \
        GEM_HOME="$tmp/gems" GEM_PATH="$tmp/gems:$system_gems" "$@"
}
(cd "$tmp/app" && run gem install --local --no-document "$tmp/ketama-$version.gem" >/dev/null)
echo "gem install: $(cd "$tmp/app" && run gem list --local ketama | grep '^ketama ')"

vector="$root/tests/vectors/$(cd "$root/tests/vectors" && ls libketama-*.json | head -1)"
check=$(cat <<'RUBY'
require 'json'
require 'ketama'
gem_dir = Gem.loaded_specs.fetch('ketama').full_gem_path
from = $LOADED_FEATURES.grep(%r{/ketama\.rb\z}).first
abort "loaded #{from}, not the installed gem (#{gem_dir})" unless from.start_with?(gem_dir)
abort "loaded #{Ketama.library_path}, not #{ENV.fetch('WANT_LIB')}" unless Ketama.library_path == ENV.fetch('WANT_LIB')
v = JSON.parse(File.read(ARGV[0]))
ring = Ketama::Ring.new(profile: v['profile'], hash: v['hash'],
                        servers: v['servers'].map { |s| { label: s['label'], weight: s.fetch('weight', 1) } })
bad = v['keys'].zip(v['expect']).count { |k, want| ring.get(k) != want }
abort "#{bad} of #{v['keys'].size} keys differ from #{ARGV[0]}" unless bad.zero?
require 'ketama/redis_ring'
require 'ketama/dalli_ring'
puts "#{from}: #{Ketama.library_path}, #{v['keys'].size} keys of #{File.basename(ARGV[0])} agree"
RUBY
)
echo "== the installed gem, library found through pkg-config"
(cd "$tmp/app" && run PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" WANT_LIB="$lib" ruby -e "$check" "$vector")
echo "== the installed gem, library named by KETAMA_LIB"
(cd "$tmp/app" && run KETAMA_LIB="$lib" WANT_LIB="$lib" ruby -e "$check" "$vector")
echo "== API and error tests against the installed gem"
(cd "$tmp/app" && run KETAMA_LIB="$lib" KETAMA_TEST_INSTALLED=1 KETAMA_REQUIRE_PANIC_HOOK=1 RUST_BACKTRACE=0 \
    ruby -I "$here/test" -e 'ARGV.each { |f| require f }; ARGV.clear' \
    "$here/test/test_api.rb" "$here/test/test_errors.rb" "$here/test/test_library.rb")
