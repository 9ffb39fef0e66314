# frozen_string_literal: true

require 'ffi'

module Ketama
  # Finds libketama, the C library this gem binds through ruby-ffi (nothing is compiled when
  # the gem is installed).
  #
  # The search, first hit wins:
  # 1. `$KETAMA_LIB`, when set and not empty: that file and no other;
  # 2. the library pkg-config names (`pkg-config --variable=libdir ketama`), so an install
  #    under any prefix is found through `PKG_CONFIG_PATH`;
  # 3. the installed `libketama.so.0` in /usr/local/lib, /usr/lib and /usr/lib/<multiarch>
  #    (where the Debian package `libketama0` puts it);
  # 4. in a source checkout, the repository's `target/release`, then `target/debug`.
  module Library
    SONAME = 'libketama.so.0'

    # The standard places of an installed library (step 3).
    def self.installed
      ["/usr/local/lib/#{SONAME}", "/usr/lib/#{SONAME}"] +
        Dir.glob("/usr/lib/*-linux-gnu*/#{SONAME}").sort
    end

    # The library in `libdir` as pkg-config reports it, or nil (no pkg-config, no ketama.pc).
    def self.from_pkg_config
      libdir = IO.popen(%w[pkg-config --variable=libdir ketama], err: File::NULL, &:read).strip
      return nil unless $?.success? && !libdir.empty?

      [SONAME, 'libketama.so'].map { |f| File.join(libdir, f) }.find { |f| File.file?(f) }
    rescue SystemCallError
      nil
    end

    # The build of this source tree (step 4); nothing in an installed gem.
    def self.repository
      root = File.expand_path('../../..', __dir__)
      %w[release debug].map { |p| File.join(root, 'target', p, 'libketama.so') }
    end

    # The path of the library to load; raises LoadError (naming the places searched) when
    # there is none.
    def self.path
      env = ENV.fetch('KETAMA_LIB', '')
      unless env.empty?
        return env if File.file?(env)

        raise LoadError, "libketama not found: KETAMA_LIB=#{env} is not a file"
      end
      found = from_pkg_config || (installed + repository).find { |f| File.file?(f) }
      return found if found

      raise LoadError, 'libketama not found (searched KETAMA_LIB, pkg-config ketama, ' \
                       "#{installed.join(', ')} and this source tree's target/): install the " \
                       'libketama0 package, run `make -C ffi-c install`, or set KETAMA_LIB'
    end
  end

  # The C functions (include/ketama.h), bound once when the gem is loaded. Strings go in as
  # `:buffer_in` with their byte length, so a key may hold any bytes, NUL included.
  module Native
    extend FFI::Library

    # The file that was loaded (see Library).
    PATH = Library.path
    ffi_lib PATH

    # Arrays of size_t are read and written as unsigned long, its width on every Linux ABI.
    raise LoadError, 'ketama: size_t is not unsigned long here' unless FFI.type_size(:size_t) == FFI.type_size(:ulong)

    R = :pointer # ketama_ring *
    S = :int     # ketama_status
    B = :buffer_in

    attach_function :ketama_ring_create, %i[string string pointer], S
    attach_function :ketama_ring_create_points,
                    [:string, :string, :pointer, :pointer, :size_t, :pointer, :pointer, :size_t, :pointer, :pointer], S
    attach_function :ketama_ring_free, [R], :void
    attach_function :ketama_ring_add_named, [R, B, :size_t, :uint32, B, :size_t], S
    attach_function :ketama_ring_add_many,
                    [R, :pointer, :pointer, :pointer, :pointer, :pointer, :size_t, :pointer], S
    attach_function :ketama_ring_remove, [R, B, :size_t], S
    attach_function :ketama_ring_set_weight, [R, B, :size_t, :uint32], S
    attach_function :ketama_ring_set_options, [R, B, :size_t, B, :size_t, :int32], S
    attach_function :ketama_ring_lookup, [R, B, :size_t, :pointer, :pointer], S
    attach_function :ketama_ring_lookup_index, [R, B, :size_t], :int64
    attach_function :ketama_ring_lookup_packed, [R, B, :pointer, :size_t, :pointer], S
    attach_function :ketama_ring_lookup_hash, [R, :uint32, :size_t, :pointer, :pointer], S
    attach_function :ketama_ring_lookup_n, [R, B, :size_t, :size_t, :pointer, :pointer, :pointer], S
    attach_function :ketama_ring_failover, [R, B, :size_t, :size_t, :pointer, :pointer, :pointer], S
    attach_function :ketama_ring_lookup_alive, [R, B, :size_t, :pointer, :size_t, :pointer, :pointer], S
    attach_function :ketama_ring_key_hash, [R, B, :size_t, :pointer], S
    attach_function :ketama_ring_server_count, [R, :pointer], S
    attach_function :ketama_ring_server, [R, :size_t, :pointer, :pointer, :pointer], S
    attach_function :ketama_ring_point_count, [R, :pointer], S
    attach_function :ketama_ring_points, [R, :pointer, :pointer, :size_t, :pointer], S
    attach_function :ketama_profile_name, [:size_t], :pointer
    attach_function :ketama_hash, [:string, B, :size_t, :pointer], S
    attach_function :ketama_bucket, [B, :size_t, :uint64, :uint32, :pointer], S
    attach_function :ketama_version, [], :string
    attach_function :ketama_status_str, [:int], :string

    begin
      # Test support, only in builds with the `test-panic` feature: a panic inside the C
      # boundary, which must come back as a status.
      attach_function :ketama_test_force_panic, [:int], S
    rescue FFI::NotFoundError
      nil
    end
  end
end
