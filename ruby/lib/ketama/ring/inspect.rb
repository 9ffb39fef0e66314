# frozen_string_literal: true

module Ketama
  # What a ring holds: its servers, their weights and the continuum's points.
  class Ring
    # Number of servers.
    def size
      current_labels.size
    end
    alias length size

    # The server labels, in server order (the order they were added).
    def servers
      current_labels.dup
    end
    alias to_a servers

    # Yields each server label, in server order.
    def each(&block)
      return enum_for(:each) { size } unless block

      current_labels.each(&block)
      self
    end

    # Whether a server with exactly this label is on the ring.
    def include?(label)
      label.is_a?(String) && current_labels.include?(label)
    end

    def empty?
      size.zero?
    end

    # `{ label => weight }`, in server order.
    def weights
      label = FFI::MemoryPointer.new(:pointer)
      len = FFI::MemoryPointer.new(:size_t)
      weight = FFI::MemoryPointer.new(:uint32)
      @lock.synchronize do
        Array.new(native_count) do |i|
          Ketama.check(Native.ketama_ring_server(@ptr, i, label, len, weight))
          [read_label(label.read_pointer, len.read(:size_t)), weight.read_uint32]
        end.to_h
      end
    end

    # The continuum, ascending: `[[point, label], ...]` (empty for profiles without one:
    # modulo, jump, rendezvous, ...). Among equal points the winning server comes first.
    def points
      count = FFI::MemoryPointer.new(:size_t)
      @lock.synchronize do
        Ketama.check(Native.ketama_ring_point_count(@ptr, count))
        total = count.read(:size_t)
        next [] if total.zero?

        pos = FFI::MemoryPointer.new(:uint32, total)
        own = FFI::MemoryPointer.new(:uint32, total)
        Ketama.check(Native.ketama_ring_points(@ptr, pos, own, total, count))
        labels = (@labels ||= fetch_labels)
        n = count.read(:size_t)
        pos.get_array_of_uint32(0, n).zip(own.get_array_of_uint32(0, n).map { |i| labels[i] })
      end
    end
  end
end
