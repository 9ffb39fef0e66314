# frozen_string_literal: true

module Ketama
  class Ring
    # The inputs of Ring.from_points and of the batch calls: points split into labels,
    # positions and owners, and Ruby strings laid out as the C arrays take them.
    module Points
      module_function

      POSITION_MAX = 0xFFFF_FFFF

      # `[[position, label], ...]` as [labels, positions, owner indexes]; `servers` fixes
      # the labels and their order (a point's label outside it is an IndexOutOfRange error).
      def split(points, servers)
        index = {}
        fixed = !servers.nil?
        Array(servers).each { |l| index[Input.label(l)] ||= index.size }
        positions = []
        owners = []
        points.each do |point|
          pos, label = Array.try_convert(point) || raise(TypeError, 'a point is a [position, label] pair')
          unless pos.is_a?(Integer) && pos.between?(0, POSITION_MAX)
            raise ArgumentError, "a point position must be an Integer in 0..#{POSITION_MAX}, got #{pos.inspect}"
          end

          label = Input.label(label)
          unless index.key?(label)
            raise IndexError, "point label '#{Input.show(label)}' is not in servers" if fixed

            index[label] = index.size
          end
          positions << pos
          owners << index[label]
        end
        [index.keys, positions, owners]
      end

      # C arrays of `strings`: a `const char *[]`, a `size_t[]` of their byte lengths, and
      # the buffers to keep alive until the call returns. A nil entry is a NULL pointer.
      def strings(strings)
        n = [strings.size, 1].max
        ptrs = FFI::MemoryPointer.new(:pointer, n)
        lens = FFI::MemoryPointer.new(:size_t, n)
        keep = strings.map { |s| s && FFI::MemoryPointer.from_string(s) }
        ptrs.put_array_of_pointer(0, keep.map { |m| m || FFI::Pointer::NULL })
        lens.put_array_of_ulong(0, strings.map { |s| s ? s.bytesize : 0 })
        [ptrs, lens, keep]
      end
    end
  end
end
