# frozen_string_literal: true

module Ketama
  # A ring of servers placed exactly as one client places them.
  #
  #   ring = Ketama::Ring.new(profile: 'php-memcached',
  #                           servers: ['10.0.0.1:11211', { label: '10.0.0.2:11211', weight: 2 }])
  #   ring.get('user:42')   # => "10.0.0.2:11211"
  #
  # Servers: `"host:port"` Strings (weight 1) or Hashes `{ label:, weight: 1, name: nil }`
  # (the name is twemproxy's server name, or the node string a Java client or groupcache
  # hashes). Labels are `host:port`, `[ipv6]:port` or `host`. Keys, text and weights follow
  # the rules of Ketama::Input.
  #
  # Thread safety: lookups may run in any number of threads while others change the ring;
  # a lookup sees the ring before or after a change, never half of it. A failed call changes
  # nothing.
  class Ring
    include Enumerable

    # The largest `n` #failover accepts (its answer is allocated up front).
    MAX_FAILOVER = 65_536

    # The profile's name, as given.
    attr_reader :profile
    # The key hash's name as given, nil for the profile's default (for a ring from points
    # hashed by a callable: nil, see #hash_fn).
    attr_reader :hash_name
    # The callable that hashes keys (a ring from points given one), else nil.
    attr_reader :hash_fn

    # Builds a ring of `servers` placed like `profile`'s client, with `hash` as key hash (nil:
    # the client's default). Placement options: `hash_tag` (a hash tag's delimiters, exactly 2
    # bytes: only the tag between them is hashed, found by the client's own rule; twemproxy's
    # `hash_tag` and the Jedis profiles' key-tag pattern, `{}` being Jedis's default; the
    # Redis clients whose tag rule is always on, Predis, phpredis, redis-rb, go-redis and
    # redis-shard, hash `{tag}` without it and refuse it; docs/compat.md lists each
    # profile's rule), `prefix_key` (php-memcached's `OPT_PREFIX_KEY`, 1..127 bytes) and
    # `hash_with_prefix` (`OPT_HASH_WITH_PREFIX_KEY`), libmemcached profiles; others raise
    # BadOptionError. The servers are added in one step: a refused one raises,
    # naming it.
    def initialize(profile:, servers: [], hash: nil, hash_tag: nil, prefix_key: nil, hash_with_prefix: false)
      entries = Input.servers(servers)
      p = Input.name(profile, UnknownProfileError, 'profile')
      h = Input.name(hash, UnknownHashError, 'hash')
      out = FFI::MemoryPointer.new(:pointer)
      status = Native.ketama_ring_create(p, h, out)
      Ketama.check(status, "'#{Input.show(status == UnknownProfileError.status_number ? p : h)}'")
      adopt(out.read_pointer, p, h)
      unless hash_tag.nil? && prefix_key.nil? && !hash_with_prefix
        set_options(hash_tag: hash_tag, prefix_key: prefix_key, hash_with_prefix: hash_with_prefix)
      end
      add_entries(entries)
    end

    # A ring whose continuum is exactly `points`, for a client whose points ketama does not
    # generate (a custom hasher, a client not shipped yet): `[[position, label], ...]`,
    # positions Integers in 0..2^32-1, in any order. `hash`: a hash name, nil for the
    # profile's, or a callable `key -> Integer` in 0..2^32-1 (keys hashed in Ruby, searched
    # natively). `profile` gives the search, tie and key rules; `servers` the labels in
    # order (default: in order of first appearance in `points`). The ring refuses changes
    # (FixedPointsError): build a new one.
    def self.from_points(points, profile: 'libketama', hash: nil, servers: nil)
      hash_fn = hash.respond_to?(:call) ? hash : nil
      name = hash_fn ? nil : Input.name(hash, UnknownHashError, 'hash')
      prof = Input.name(profile, UnknownProfileError, 'profile')
      labels, positions, owners = Points.split(points, servers)
      out = FFI::MemoryPointer.new(:pointer)
      label_ptrs, label_lens, keep = Points.strings(labels)
      pos = FFI::MemoryPointer.new(:uint32, [positions.size, 1].max).put_array_of_uint32(0, positions)
      own = FFI::MemoryPointer.new(:uint32, [owners.size, 1].max).put_array_of_uint32(0, owners)
      failed = FFI::MemoryPointer.new(:size_t)
      failed.write(:size_t, labels.size) # written by the library only when one server is to blame
      status = Native.ketama_ring_create_points(prof, name, label_ptrs, label_lens, labels.size,
                                                pos, own, positions.size, out, failed)
      keep.clear
      blamed = labels[failed.read(:size_t)]
      Ketama.check(status, blamed && "server '#{Input.show(blamed)}'", server_label: blamed)
      ring = allocate
      ring.send(:adopt, out.read_pointer, prof, name, hash_fn)
      ring
    end

    # Rings wrap a native handle: copies are refused (build a new ring).
    def initialize_copy(_other)
      raise TypeError, "#{self.class} cannot be copied: build a new one"
    end

    def inspect
      "#<#{self.class} profile=#{@profile}#{@hash_name ? " hash=#{@hash_name}" : ''} servers=#{size}>"
    end

    # Frees the native ring (see #adopt).
    def self.release(pointer)
      Native.ketama_ring_free(pointer)
    end

    private

    # Takes ownership of a native ring (freed when this object is collected).
    def adopt(pointer, profile, hash_name, hash_fn = nil)
      @ptr = FFI::AutoPointer.new(pointer, self.class.method(:release))
      @profile = -profile
      @hash_name = hash_name && -hash_name
      @hash_fn = hash_fn
      @lock = Mutex.new
      @labels = fetch_labels
    end
  end
end

require_relative 'ring/points'
require_relative 'ring/changes'
require_relative 'ring/lookup'
require_relative 'ring/walk'
require_relative 'ring/inspect'
