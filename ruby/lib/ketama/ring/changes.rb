# frozen_string_literal: true

module Ketama
  # Changes of a ring: adding (one server or many, all or nothing), removing and reweighting
  # servers, and the placement options. Each is serialised with the others and publishes the
  # ring's new label list only once the library has published the new ring (see Lookup).
  class Ring
    # Adds a server at the end of the server order (`name`: twemproxy's server name or a
    # Java/groupcache node string). Only its points are hashed.
    def add(label, weight: 1, name: nil)
      lab = Input.blaming(nil, label) { Input.label(label) }
      w, nm = Input.blaming(nil, lab) do
        [Input.weight(weight, lab), name.nil? ? nil : Input.label(name, "server '#{Input.show(lab)}' name")]
      end
      change do
        status = Native.ketama_ring_add_named(@ptr, lab, lab.bytesize, w, nm, nm ? nm.bytesize : 0)
        Ketama.check(status, "server '#{Input.show(lab)}'", server_label: lab)
      end
      self
    end

    # Adds servers in one step, in the forms the constructor takes: all or nothing, a
    # refusal names the entry.
    def add_many(servers)
      add_entries(Input.servers(servers))
      self
    end

    # Removes the server with this label (MissingServerError when there is none).
    def remove(label)
      lab = Input.blaming(nil, label) { Input.label(label) }
      change do
        Ketama.check(Native.ketama_ring_remove(@ptr, lab, lab.bytesize), "server '#{Input.show(lab)}'",
                     server_label: lab)
      end
      self
    end

    # Changes a server's weight, keeping its place in the server order.
    def set_weight(label, weight)
      lab = Input.blaming(nil, label) { Input.label(label) }
      w = Input.blaming(nil, lab) { Input.weight(weight, lab) }
      change do
        Ketama.check(Native.ketama_ring_set_weight(@ptr, lab, lab.bytesize, w), "server '#{Input.show(lab)}'",
                     server_label: lab)
      end
      self
    end

    # Sets the placement options, replacing any set before: `hash_tag` (2 bytes, the twemproxy
    # and Jedis profiles; see Ring.new), `prefix_key` (1..127 bytes) and `hash_with_prefix`,
    # libmemcached profiles (`php-memcached`, `libmemcached`, `modula`, ...). An option the
    # profile's client lacks, or a value it refuses, raises BadOptionError and leaves the
    # ring unchanged. The values are bytes, as keys are.
    def set_options(hash_tag: nil, prefix_key: nil, hash_with_prefix: false)
      tag = hash_tag.nil? ? nil : Input.key(hash_tag)
      prefix = prefix_key.nil? ? nil : Input.key(prefix_key)
      change do
        status = Native.ketama_ring_set_options(@ptr, tag, tag ? tag.bytesize : 0, prefix,
                                                prefix ? prefix.bytesize : 0, hash_with_prefix ? 1 : 0)
        Ketama.check(status, "profile #{@profile}")
      end
      self
    end

    private

    # Runs a change of the native ring, serialised with the other changes. The label list is
    # withdrawn before the native ring changes; the next lookup makes the new one.
    def change
      @lock.synchronize do
        @labels = nil
        yield
      end
    end

    # Adds [label, weight, name] entries in one native call.
    def add_entries(entries)
      return if entries.empty?

      labels, label_lens, keep = Points.strings(entries.map(&:first))
      names, name_lens, keep_names = Points.strings(entries.map { |e| e[2] })
      weights = FFI::MemoryPointer.new(:uint32, entries.size).put_array_of_uint32(0, entries.map { |e| e[1] })
      failed = FFI::MemoryPointer.new(:size_t)
      failed.write(:size_t, entries.size) # written by the library only when one entry is to blame
      change do
        status = Native.ketama_ring_add_many(@ptr, labels, label_lens, weights, names, name_lens,
                                             entries.size, failed)
        keep.clear
        keep_names.clear
        at = failed.read(:size_t)
        blamed = entries[at] # nil when no entry is to blame
        Ketama.check(status, blame(status, entries, at), server_index: blamed && at, server_label: blamed&.first)
      end
    end

    # The message detail of a failed add_many: the entry the library blamed and, for a
    # duplicate, what it repeats.
    def blame(status, entries, at)
      return nil if at >= entries.size

      label, weight = entries[at]
      shown = Input.show(label)
      return "server '#{shown}' weight #{weight} (entry #{at})" if status == BadWeightError.status_number
      return "server '#{shown}' (entry #{at})" unless status == DuplicateServerError.status_number
      return "server '#{shown}' (entry #{at}) is already on the ring" if (@labels || fetch_labels).include?(label)

      first = entries.index { |e| e[0] == label }
      return "server '#{shown}' (entry #{at}) repeats entry #{first}" if first && first < at

      "server '#{shown}' (entry #{at}): two labels name one endpoint, e.g. [::1]:11211 and [0:0::1]:11211"
    end
  end
end
