# frozen_string_literal: true

module Ketama
  # Several servers of a ring: replicas, the client's failover sequence, where a key goes
  # while servers are down, and lookups by a key hash the caller computed.
  class Ring
    HASH_MAX = 0xFFFF_FFFF

    # Up to `n` distinct servers for `key`, primary first, in the order the client's
    # structure yields them (ring order for continua).
    def get_n(key, n)
      k = Input.key(key)
      n = Input.count(n, 'n')
      return [] if n <= 0

      n = [n, [size, 1].max].min # never more than the servers there are (1: the empty ring's error)
      return by_hash(call_hash(k), n) if @hash_fn

      walk(:ketama_ring_lookup_n, k, n)
    end

    # The client's own failover sequence for `key`, primary first, `n` entries at most:
    # spymemcached's and xmemcached's rehash walks and dalli's and python-memcached's rehashes
    # (servers may repeat), for other profiles as #get_n. `n` is at most MAX_FAILOVER.
    def failover(key, n)
      k = Input.key(key)
      n = Input.count(n, 'n')
      raise RangeError, "failover n = #{n} (at most #{MAX_FAILOVER})" if n > MAX_FAILOVER
      return get_n(k, n) if @hash_fn
      return [] if n <= 0

      walk(:ketama_ring_failover, k, n)
    end

    # Where the client sends `key` while the servers labelled in `dead` are down: the first
    # server of its failover sequence (within as many tries as the client makes) that is not
    # dead; nil when the client gives up (every server it would try is dead). A label in
    # `dead` that is not on the ring raises MissingServerError.
    def locate_alive(key, dead)
      k = Input.key(key)
      if @hash_fn
        raise NeedsKeyError.new(Error.text(NeedsKeyError.status_number, 'locate_alive on a ring whose keys a callable hashes'))
      end

      dead = Array.try_convert(dead) or raise TypeError, "dead must be an Array of labels, got #{dead.class}"
      with_labels { |labels| alive(k, labels, dead.map { |l| Input.label(l) }) }
    end

    # The ring's key hash of `key`, after the client's own key rewriting (the callable's, for
    # a ring from points given one).
    def key_hash(key)
      k = Input.key(key)
      return call_hash(k) if @hash_fn

      out = FFI::MemoryPointer.new(:uint32)
      status = Native.ketama_ring_key_hash(@ptr, k, k.bytesize, out)
      Ketama.check(status, key_detail(k, status))
      out.read_uint32
    end

    # Up to `n` distinct servers for a key hash the caller computed (a hasher of its own),
    # primary first, by the ring's search and tie rules (NeedsKeyError for a client that
    # reads the key itself or a 128-bit hash: mcrouter, hash rendezvous, uhashring).
    def by_hash(hash, n = 1)
      unless hash.is_a?(Integer) && hash.between?(0, HASH_MAX)
        raise ArgumentError, "a key hash is an Integer in 0..#{HASH_MAX}, got #{hash.inspect}"
      end

      n = Input.count(n, 'n')
      return [] if n <= 0

      n = [n, [size, 1].max].min
      out = FFI::MemoryPointer.new(:uint32, n)
      count = FFI::MemoryPointer.new(:size_t)
      with_labels do |labels|
        Ketama.check(Native.ketama_ring_lookup_hash(@ptr, hash, n, out, count))
        out.get_array_of_uint32(0, count.read(:size_t)).map { |i| labels[i] }
      end
    end

    private

    # One of the walks (`ketama_ring_lookup_n`, `ketama_ring_failover`): up to `n` labels.
    def walk(function, k, n)
      labels = FFI::MemoryPointer.new(:pointer, n)
      lens = FFI::MemoryPointer.new(:size_t, n)
      count = FFI::MemoryPointer.new(:size_t)
      status = Native.public_send(function, @ptr, k, k.bytesize, n, labels, lens, count)
      Ketama.check(status, key_detail(k, status))
      c = count.read(:size_t)
      labels.get_array_of_pointer(0, c).zip(lens.get_array_of_ulong(0, c)).map { |p, l| read_label(p, l) }
    end

    # locate_alive against one label list: the dead labels as its indexes.
    def alive(k, labels, dead)
      index = labels.each_with_index.to_h
      idx = dead.map do |l|
        index.fetch(l) { raise MissingServerError.new(Error.text(MissingServerError.status_number, "dead server '#{Input.show(l)}'")) }
      end
      ptr = FFI::MemoryPointer.new(:uint32, [idx.size, 1].max).put_array_of_uint32(0, idx)
      label = FFI::MemoryPointer.new(:pointer)
      len = FFI::MemoryPointer.new(:size_t)
      status = Native.ketama_ring_lookup_alive(@ptr, k, k.bytesize, ptr, idx.size, label, len)
      return nil if status == NoServerError.status_number && !idx.empty?

      Ketama.check(status, key_detail(k, status))
      read_label(label.read_pointer, len.read(:size_t))
    end

    # The caller's hash of `k` (a ring from points given a callable), checked.
    def call_hash(k)
      h = @hash_fn.call(k)
      return h if h.is_a?(Integer) && h.between?(0, HASH_MAX)

      raise TypeError, "the ring's hash callable must return an Integer in 0..#{HASH_MAX}, got #{h.inspect}"
    end
  end
end
