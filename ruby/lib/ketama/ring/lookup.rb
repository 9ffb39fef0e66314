# frozen_string_literal: true

module Ketama
  # Key lookups of a ring: one key and many keys in one native call.
  #
  # The labels live on the Ruby side, by server index (frozen Strings, made once per change),
  # and the library answers with an index. An index is meaningful for the ring it came from,
  # so a lookup keeps the label list it started with and uses the index only when that list
  # is still the ring's afterwards: a change withdraws the list before it changes the native
  # ring, so an index from a changed ring is never read against an old list. Otherwise (a
  # change ran meanwhile) the lookup asks the library for the label itself.
  class Ring
    # A batch answer's index for a key the client refuses or that no server owns.
    NO_INDEX = 0xFFFF_FFFF

    # The label of the server `key` goes to (the refusal rule: KeyRejectedError when the
    # client refuses the key, NoServerError when no server owns it, EmptyRingError on an
    # empty ring).
    def get(key)
      k = Input.key(key)
      return by_hash(call_hash(k), 1).first if @hash_fn

      labels = current_labels
      i = Native.ketama_ring_lookup_index(@ptr, k, k.bytesize)
      return labels[i] if i >= 0 && labels.equal?(@labels)

      Ketama.check(-i, key_detail(k, -i)) if i.negative?
      label_of(k)
    end

    # #get for each key: an Array aligned with `keys` (any Enumerable of Strings), nil for a
    # key the client refuses or that no server owns; only an empty ring raises.
    def get_many(keys)
      list = key_list(keys)
      return [] if list.empty?
      return list.map { |k| get_or_nil(k) } if @hash_fn

      n = list.size
      lens = FFI::MemoryPointer.new(:size_t, n).put_array_of_ulong(0, list.map(&:bytesize))
      out = FFI::MemoryPointer.new(:uint32, n)
      with_labels do |labels|
        # The keys back to back in one buffer, each as its bytes (`a` packs any encoding).
        Ketama.check(Native.ketama_ring_lookup_packed(@ptr, list.pack("a*" * n), lens, n, out))
        out.get_array_of_uint32(0, n).map! { |i| i == NO_INDEX ? nil : labels[i] }
      end
    end

    private

    # The current label list, made (under the change lock) when a change withdrew it.
    def current_labels
      @labels || @lock.synchronize { @labels ||= fetch_labels }
    end

    # Runs the block with the label list; again under the change lock when a change ran
    # meanwhile (its answer could hold indexes of the changed ring).
    def with_labels
      labels = current_labels
      result = yield labels
      return result if labels.equal?(@labels)

      @lock.synchronize { yield(@labels ||= fetch_labels) }
    end

    # The label list from the library: frozen, interned Strings by server index.
    def fetch_labels
      label = FFI::MemoryPointer.new(:pointer)
      len = FFI::MemoryPointer.new(:size_t)
      Array.new(native_count) do |i|
        Ketama.check(Native.ketama_ring_server(@ptr, i, label, len, nil))
        read_label(label.read_pointer, len.read(:size_t))
      end.freeze
    end

    def native_count
      out = FFI::MemoryPointer.new(:size_t)
      Ketama.check(Native.ketama_ring_server_count(@ptr, out))
      out.read(:size_t)
    end

    # The label the library answers for `k` (a pointer into its label store).
    def label_of(k)
      label = FFI::MemoryPointer.new(:pointer)
      len = FFI::MemoryPointer.new(:size_t)
      status = Native.ketama_ring_lookup(@ptr, k, k.bytesize, label, len)
      Ketama.check(status, key_detail(k, status))
      read_label(label.read_pointer, len.read(:size_t))
    end

    # A label the library returned, as a frozen UTF-8 String (labels are UTF-8 by contract).
    def read_label(pointer, len)
      -pointer.read_string(len).force_encoding(Encoding::UTF_8)
    end

    # #get, with nil for a refused or unowned key (the batch rule).
    def get_or_nil(k)
      get(k)
    rescue KeyRejectedError, NoServerError
      nil
    end

    # Keys for a batch: an Array (or any Enumerable) of Strings.
    def key_list(keys)
      list = Array.try_convert(keys)
      if list.nil?
        raise TypeError, "keys must be an Array or Enumerable of Strings, got #{keys.class}" unless keys.is_a?(Enumerable)

        list = keys.to_a
      end
      list.map { |k| Input.key(k) }
    end

    # The message detail of a failed lookup: the key, where the key is what was refused.
    def key_detail(k, status)
      return nil if status == EmptyRingError.status_number

      "key '#{Input.show(k)}'"
    end
  end
end
