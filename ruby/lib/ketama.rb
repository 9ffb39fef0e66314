# frozen_string_literal: true

# ketama: places cache keys on servers exactly the way each memcached and Redis client does
# (a "profile" per client), through libketama's C API (ruby-ffi; nothing is compiled at
# install).
#
#   require 'ketama'
#   ring = Ketama::Ring.new(profile: 'php-memcached', servers: ['10.0.1.1:11211', '10.0.1.2:11211'])
#   ring.get('user:1')                 # => "10.0.1.1:11211"
#   Ketama.hash('md5', 'user:1')       # => the unsigned 32-bit hash
#
# Adapters: `require 'ketama/redis_ring'` (Ketama::RedisRing, a ring for redis-rb's
# Redis::Distributed) and `require 'ketama/dalli_ring'` (Ketama::DalliRing and
# Ketama::DalliClient for Dalli).
module Ketama
end

require_relative 'ketama/version'
require_relative 'ketama/library'
require_relative 'ketama/errors'
require_relative 'ketama/input'
require_relative 'ketama/ring'

module Ketama
  U64_MAX = 0xFFFF_FFFF_FFFF_FFFF
  U32_MAX = 0xFFFF_FFFF

  # Hashes `key` (its bytes) with a named hash function, as the clients do, no profile
  # involved: our snake_case names (`md5`, `one_at_a_time`, `crc`, `crc32a`, `fnv1a_32`, ...,
  # the C/libhashkit flavour) or a client's own enum name (`KETAMA_HASH`, `FNV1A_32_HASH`: the
  # Java flavour). Returns the unsigned 32-bit value. Bare `crc32` is ambiguous
  # (AmbiguousHashError); an unknown name raises UnknownHashError, a name that is not valid
  # UTF-8 InvalidUtf8Error. Without arguments this is Object#hash, so the module still works as
  # a Hash key.
  def self.hash(*args)
    return super() if args.empty?
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 2)" unless args.size == 2

    name, key = args
    n = Input.name(name, UnknownHashError, 'hash')
    raise UnknownHashError.new(Error.text(UnknownHashError.status_number, "''")) if n.nil?

    k = Input.key(key)
    out = FFI::MemoryPointer.new(:uint32)
    status = Native.ketama_hash(n, k, k.bytesize, out)
    Ketama.check(status, status == UnknownHashError.status_number ? "'#{Input.show(n)}'" : nil)
    out.read_uint32
  end

  # The bucket (0 ... buckets) of the unsigned 64-bit `input` under a bucket function:
  # `jump`, `guava`, `jumpback`, `fliphash`, `maglev-go` or `mpchash-go`. Raises
  # UnknownAlgorithmError (InvalidUtf8Error for a name that is not valid UTF-8),
  # ZeroBucketsError (buckets < 1), TooManyBucketsError (above the function's limit),
  # RangeError for an input outside 0..2^64-1.
  def self.bucket(algorithm, input, buckets)
    name = Input.text(algorithm, 'algorithm')
    raise TypeError, "input must be an Integer, got #{input.class}" unless input.is_a?(Integer)
    raise RangeError, "input #{input} is outside 0..#{U64_MAX}" unless input.between?(0, U64_MAX)
    raise TypeError, "buckets must be an Integer, got #{buckets.class}" unless buckets.is_a?(Integer)
    raise ZeroBucketsError if buckets < 1
    raise TooManyBucketsError.new(Error.text(TooManyBucketsError.status_number, buckets.to_s)) if buckets > U32_MAX

    out = FFI::MemoryPointer.new(:uint32)
    status = Native.ketama_bucket(name, name.bytesize, input, buckets, out)
    Ketama.check(status, status == UnknownAlgorithmError.status_number ? "'#{Input.show(name)}'" : nil)
    out.read_uint32
  end

  # The names of every profile the library knows, in documentation order (aliases are not
  # listed).
  def self.profiles
    names = []
    while (p = Native.ketama_profile_name(names.size)) && !p.null?
      names << -p.read_string.force_encoding(Encoding::UTF_8)
    end
    names
  end

  # The loaded library's version (`"MAJOR.MINOR.PATCH"`); equals VERSION.
  def self.library_version
    Native.ketama_version
  end

  # The path of the loaded library (see Ketama::Library for the search).
  def self.library_path
    Native::PATH
  end
end
