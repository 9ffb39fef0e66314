# frozen_string_literal: true

require_relative 'lib/ketama/version'

Gem::Specification.new do |s|
  s.name = 'ketama'
  s.version = Ketama::VERSION
  s.summary = 'Bit-exact consistent hashing of every popular memcached and Redis client'
  s.description = 'Places cache keys on servers exactly the way each client does (libketama, ' \
                  'php-memcached, twemproxy, spymemcached, Dalli, ...), through libketama\'s C API ' \
                  'and ruby-ffi: nothing is compiled at install. Adapters for redis-rb\'s ' \
                  'Redis::Distributed and for Dalli.'
  s.authors = ['ketama developers']
  s.licenses = ['MIT', 'Apache-2.0']
  s.homepage = 'https://example.invalid/ketama'
  s.required_ruby_version = '>= 2.7'
  s.files = Dir.glob('lib/**/*.rb', base: __dir__).sort + %w[README.md LICENSE-MIT LICENSE-APACHE]
  s.require_paths = ['lib']
  # ruby-ffi binds libketama at run time; the library itself comes from the libketama0
  # package or `make -C ffi-c install` (see README.md).
  s.add_runtime_dependency 'ffi', '~> 1.15'
  s.requirements << 'libketama (libketama.so.0): the libketama0 Debian package or make -C ffi-c install'
  s.metadata['rubygems_mfa_required'] = 'true'
end
