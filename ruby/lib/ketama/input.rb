# frozen_string_literal: true

module Ketama
  # How Ruby values become the library's inputs; each refusal is a clear error naming what
  # was refused.
  #
  # - A **key** is its bytes, whatever its encoding: the bytes a memcached or Redis client
  #   sends (Dalli and redis-rb write a key's bytes as they are and hash those same bytes),
  #   never transcoded. `"café"` in UTF-8 and in ISO-8859-1 are two different keys. A key
  #   that is not valid UTF-8 is hashed as it is; the profiles whose client hashes characters
  #   (the Java ones) read it the way that client decodes bytes.
  # - **Text** (a label, a server name, a profile, hash or bucket algorithm name) is UTF-8: a
  #   string in another encoding is transcoded to UTF-8 first; a binary or UTF-8 string must
  #   hold valid UTF-8. Text that is not valid Unicode (bytes that are not UTF-8, or
  #   characters of its encoding that Unicode lacks) is refused with InvalidUtf8Error, never
  #   replaced, as every ketama binding refuses it.
  # - A **weight** is an Integer from 0 to 2^32 - 1 (0 only where the client accepts it):
  #   another type is a TypeError, an Integer out of range a BadWeightError, nothing is
  #   converted.
  module Input
    module_function

    WEIGHT_MAX = 0xFFFF_FFFF
    UTF8 = Encoding::UTF_8
    # Encodings whose bytes are taken as they are (checked as UTF-8).
    AS_IS = [Encoding::UTF_8, Encoding::US_ASCII, Encoding::BINARY].freeze

    # A key (String, or an object with an implicit conversion to String) as it is.
    def key(value)
      return value if value.is_a?(String)

      String.try_convert(value) or
        raise TypeError, "a key must be a String, got #{value.class}"
    end

    # Text as UTF-8, or InvalidUtf8Error naming `what` when it is not valid Unicode.
    def text(value, what)
      s = String.try_convert(value) or raise TypeError, "#{what} must be a String, got #{value.class}"
      utf8 = begin
        if AS_IS.include?(s.encoding)
          u = s.encoding == UTF8 ? s : s.dup.force_encoding(UTF8)
          u.valid_encoding? ? u : nil
        else
          s.encode(UTF8)
        end
      rescue EncodingError
        nil
      end
      utf8 or raise InvalidUtf8Error.new(Error.text(InvalidUtf8Error.status_number, "#{what} '#{show(s)}'"))
    end

    # A label or server name (text).
    def label(value, what = 'a label')
      text(value, what)
    end

    # A profile or hash name for a NUL-terminated C parameter: text, and the error `cls` for a
    # name holding a NUL (no such name exists).
    def name(value, cls, what)
      return nil if value.nil? && cls == UnknownHashError

      t = text(value, what)
      return t unless t.include?("\0")

      raise cls.new(Error.text(cls.status_number, "'#{show(value)}'"))
    end

    # A weight for `label`, by the rules above.
    def weight(value, label)
      unless value.is_a?(Integer)
        raise TypeError, "server '#{show(label)}' weight must be an Integer, got #{value.class}"
      end
      return value if value.between?(0, WEIGHT_MAX)

      raise BadWeightError.new(Error.text(BadWeightError.status_number,
                                          "server '#{show(label)}' weight #{value} (expected 0 to #{WEIGHT_MAX})"))
    end

    # A count argument (`n` of get_n, failover): an Integer.
    def count(value, what)
      return value if value.is_a?(Integer)

      raise TypeError, "#{what} must be an Integer, got #{value.class}"
    end

    SERVER_KEYS = %i[label weight name].freeze

    # One server entry as [label, weight, name]: a label String, or a Hash with `label`
    # (required), `weight` (default 1) and `name` (default none), Symbol or String keys.
    def server(entry)
      if (s = String.try_convert(entry))
        return [label(s), 1, nil]
      end
      raise TypeError, "a server must be a \"host:port\" String or a Hash, got #{entry.class}" unless entry.is_a?(Hash)

      h = entry.transform_keys { |k| k.is_a?(String) ? k.to_sym : k }
      unknown = h.keys - SERVER_KEYS
      raise ArgumentError, "unknown server keys #{unknown.inspect} (label, weight, name)" unless unknown.empty?
      raise TypeError, "a server Hash needs a String :label, got #{h[:label].class}" unless h[:label].is_a?(String)

      lab = label(h[:label])
      name = h[:name].nil? ? nil : label(h[:name], "server '#{show(lab)}' name")
      [lab, weight(h.fetch(:weight, 1), lab), name]
    end

    # The server list of a constructor or add_many: an Array of entries. A refused entry's
    # error names its place in the list and its label.
    def servers(list)
      arr = Array.try_convert(list) or
        raise TypeError, "servers must be an Array of \"host:port\" Strings or Hashes, got #{list.class}"
      arr.each_with_index.map do |e, i|
        given = String.try_convert(e) || (e.is_a?(Hash) ? e[:label] || e['label'] : nil)
        blaming(i, given) { server(e) }
      end
    end

    # Runs the block; an error of this gem that blames a server input (Error.blames_server?)
    # raised there learns which: `index`, its place in the list given (nil for a single
    # server), and `label`.
    def blaming(index, label)
      yield
    rescue Error => e
      raise unless e.class.blames_server?

      raise e.blame(server_index: index, server_label: label)
    end

    # Text for a message: at most 80 bytes, bytes outside printable ASCII as \xNN.
    def show(value)
      s = value.to_s.b
      shown = s.byteslice(0, 80).gsub(/[^\x20-\x7e]/n) { |c| format('\\x%02x', c.ord) }
      s.bytesize > 80 ? "#{shown}... (#{s.bytesize} bytes)" : shown
    end
  end
end
