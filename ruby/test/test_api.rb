# frozen_string_literal: true

require_relative 'test_helper'

# The Ring's API beyond the vector files: the forms it takes, keys as bytes, text as UTF-8,
# options, rings from points, the walks, and what it refuses.
class ApiTest < Minitest::Test
  SERVERS = %w[10.0.0.1:11211 10.0.0.2:11211 10.0.0.3:11211].freeze
  KEYS = (0...300).map { |i| "key:#{i}" }.freeze

  def ring(profile = 'libketama', servers = SERVERS, **kw)
    Ketama::Ring.new(profile: profile, servers: servers, **kw)
  end

  def test_server_forms_are_one_ring
    plain = ring
    hashes = ring('libketama', SERVERS.map { |l| { label: l } })
    strings = ring('libketama', SERVERS.map { |l| { 'label' => l, 'weight' => 1, 'name' => nil } })
    assert_equal plain.get_many(KEYS), hashes.get_many(KEYS)
    assert_equal plain.get_many(KEYS), strings.get_many(KEYS)
    assert_equal plain.points, hashes.points
    assert_raises(ArgumentError) { ring('libketama', [{ label: 'a:1', wieght: 2 }]) }
    assert_raises(TypeError) { ring('libketama', [{ weight: 2 }]) }
    assert_raises(TypeError) { ring('libketama', SERVERS.to_h { |l| [l, 1] }) }
  end

  def test_weights_and_names
    weighted = ring('libketama', [{ label: SERVERS[0], weight: 600 }, { label: SERVERS[1], weight: 300 }])
    assert_equal({ SERVERS[0] => 600, SERVERS[1] => 300 }, weighted.weights)
    weighted.set_weight(SERVERS[1], 600)
    assert_equal ring('libketama', SERVERS.first(2)).points, weighted.points
    named = ring('twemproxy', [{ label: SERVERS[0], name: 'cache-a' }, { label: SERVERS[1], name: 'cache-b' }])
    renamed = ring('twemproxy', [{ label: '10.9.9.9:1', name: 'cache-a' }, { label: '10.9.9.8:1', name: 'cache-b' }])
    # twemproxy hashes the names: the same names place keys the same way whatever the labels
    assert_equal named.get_many(KEYS).map { |l| SERVERS.index(l) },
                 renamed.get_many(KEYS).map { |l| ['10.9.9.9:1', '10.9.9.8:1'].index(l) }
  end

  def test_changes_equal_a_fresh_build
    r = ring('php-memcached', SERVERS.first(2))
    r.add(SERVERS[2], weight: 2)
    assert_equal ring('php-memcached', [SERVERS[0], SERVERS[1], { label: SERVERS[2], weight: 2 }]).get_many(KEYS),
                 r.get_many(KEYS)
    r.remove(SERVERS[0])
    assert_equal [SERVERS[1], SERVERS[2]], r.servers
    assert_equal ring('php-memcached', [SERVERS[1], { label: SERVERS[2], weight: 2 }]).get_many(KEYS), r.get_many(KEYS)
    r.add_many(['10.0.0.4:11211', { label: '10.0.0.5:11211', weight: 3 }])
    assert_equal 4, r.size
    e = assert_raises(Ketama::DuplicateServerError) { r.add_many(['10.0.0.6:11211', '10.0.0.6:11211']) }
    assert_includes e.message, 'repeats entry 0'
    assert_equal 4, r.size, 'a refused batch adds nothing'
  end

  def test_keys_are_their_bytes_in_any_encoding
    r = ring('libketama')
    latin1 = 'café'.encode(Encoding::ISO_8859_1)
    assert_equal Ketama.hash('md5', "caf\xE9".b), r.key_hash(latin1)
    assert_equal Ketama.hash('md5', "caf\xC3\xA9".b), r.key_hash('café')
    refute_equal r.key_hash('café'), r.key_hash(latin1)
    assert_equal r.get("caf\xE9".b), r.get(latin1)
    invalid = "\xFF\xFEk".dup.force_encoding(Encoding::UTF_8)
    refute invalid.valid_encoding?
    assert_equal Ketama.hash('md5', invalid.b), r.key_hash(invalid)
    utf16 = 'k'.encode(Encoding::UTF_16LE)
    assert_equal Ketama.hash('md5', "k\0".b), r.key_hash(utf16), 'a UTF-16 key is its UTF-16 bytes'
    assert_equal r.get("a\0b"), r.get_many(["a\0b"]).first
    mixed = [latin1, 'café', "\xFF".b, '', "a\0b", 'plain']
    assert_equal mixed.map { |k| r.get(k) }, r.get_many(mixed)
  end

  def test_java_profiles_read_bytes_that_are_not_utf8_as_the_client_decodes_them
    r = ring('spymemcached', hash: 'NATIVE_HASH')
    # Java's new String(bytes, UTF_8) turns each invalid sequence into U+FFFD
    assert_equal r.key_hash("\uFFFD"), r.key_hash("\xFF".b)
    assert_equal 0xFFFD, r.key_hash("\xFF".b)
  end

  def test_text_is_utf8
    utf16 = ring('libketama', [SERVERS[0].encode(Encoding::UTF_16LE)])
    assert_equal [SERVERS[0]], utf16.servers
    assert_equal Encoding::UTF_8, utf16.get('k').encoding
    assert utf16.get('k').frozen?
    assert_raises(Ketama::UnknownProfileError) { ring("libketama\0") }
    assert_raises(Ketama::UnknownHashError) { ring('libketama', hash: "md5\0") }
    assert_equal 'libketama', ring('libketama'.encode(Encoding::UTF_16LE)).profile
    assert_equal 'md5', ring('libmemcached', hash: 'md5'.encode(Encoding::UTF_16LE)).hash_name
  end

  # Text that is not valid Unicode is InvalidUtf8Error wherever text is taken, never a
  # replacement; keys and option values stay bytes.
  def test_text_that_is_not_unicode_is_invalid_utf8
    bad = "10.0.0.\xFF:1".b
    e = assert_raises(Ketama::InvalidUtf8Error) { ring('libketama', [bad]) }
    assert_includes e.message, "a label '10.0.0.\\xff:1'"
    assert_equal Ketama::InvalidUtf8Error.status_number, e.status
    r = ring
    before = [r.servers, r.points]
    {
      'add' => -> { r.add(bad) },
      'add a server name' => -> { r.add('10.0.0.9:1', name: "n\xFE".b) },
      'add_many' => -> { r.add_many(['10.0.0.8:1', { label: bad }]) },
      'remove' => -> { r.remove(bad) },
      'set_weight' => -> { r.set_weight(bad, 2) },
      'a dead server' => -> { r.locate_alive('k', [bad]) },
      'a UTF-8 String' => -> { r.add(bad.dup.force_encoding(Encoding::UTF_8)) },
      'bytes Shift_JIS lacks' => -> { r.add("\x81".dup.force_encoding(Encoding::Shift_JIS)) },
      'a profile' => -> { ring("lib\xFF".b) },
      'a hash' => -> { ring('libmemcached', hash: "md\xFF".b) },
      'a points profile' => -> { Ketama::Ring.from_points([[1, 'a:1']], profile: "lib\xFF".b) },
      'a points hash' => -> { Ketama::Ring.from_points([[1, 'a:1']], hash: "md\xFF".b) },
      'a points label' => -> { Ketama::Ring.from_points([[1, bad]]) },
      'Ketama.hash' => -> { Ketama.hash("md\xFF".b, 'k') },
      'Ketama.bucket' => -> { Ketama.bucket("jump\xFF".b, 1, 2) }
    }.each do |what, call|
      assert_raises(Ketama::InvalidUtf8Error, what, &call)
    end
    assert_equal before, [r.servers, r.points], 'the refusals changed nothing'
    assert_equal Ketama.hash('md5', "\xFF\xFE".b), r.key_hash("\xFF\xFE".b), 'keys stay bytes'
    plain = ring('php-memcached')
    prefixed = ring('php-memcached', prefix_key: "p\xFF".b, hash_with_prefix: true)
    assert_equal KEYS.map { |k| plain.get("p\xFF#{k}".b) }, prefixed.get_many(KEYS), 'options stay bytes'
  end

  def test_type_errors
    r = ring
    assert_raises(TypeError) { r.get(42) }
    assert_raises(TypeError) { r.get(nil) }
    assert_raises(TypeError) { r.get(:sym) }
    assert_raises(TypeError) { r.get_many('abc') }
    assert_raises(TypeError) { r.get_many([1]) }
    assert_raises(TypeError) { r.add(SERVERS[0], weight: '1') }
    assert_raises(TypeError) { r.add(5) }
    assert_raises(TypeError) { r.get_n('k', '2') }
    assert_raises(TypeError) { Ketama::Ring.new(profile: nil) }
    assert_raises(TypeError) { Ketama.hash('md5', 5) }
    assert_equal SERVERS, r.servers
  end

  def test_walks
    r = ring('spymemcached')
    assert_equal 3, r.get_n('k', 10).size
    assert_equal r.get('k'), r.get_n('k', 1).first
    assert_equal [], r.get_n('k', 0)
    assert_equal [], r.failover('k', -1)
    assert_equal 7, r.failover('k', 7).size, 'spymemcached rehashes: servers may repeat'
    assert_equal r.get('k'), r.failover('k', 7).first
    assert_raises(RangeError) { r.failover('k', Ketama::Ring::MAX_FAILOVER + 1) }
    assert_equal Ketama::Ring::MAX_FAILOVER, r.failover('k', Ketama::Ring::MAX_FAILOVER).size
    assert_equal r.get('k'), r.by_hash(r.key_hash('k')).first
    assert_raises(ArgumentError) { r.by_hash(2**32) }
    assert_raises(Ketama::EmptyRingError) { Ketama::Ring.new(profile: 'libketama').get_n('k', 2) }
  end

  def test_refusal_rule
    empty = Ketama::Ring.new(profile: 'libketama')
    assert_raises(Ketama::EmptyRingError) { empty.get('k') }
    assert_raises(Ketama::EmptyRingError) { empty.get_many(['k']) }
    assert_equal [], empty.get_many([])
    x = ring('xmemcached', hash: 'KETAMA_HASH')
    e = assert_raises(Ketama::KeyRejectedError) { x.get('') }
    assert_includes e.message, "key ''"
    got = x.get_many(['a', '', 'b'])
    assert_nil got[1]
    assert_equal [x.get('a'), x.get('b')], [got[0], got[2]]
    zero = ring('dalli', [{ label: SERVERS[0], weight: 0 }, { label: SERVERS[1], weight: 0 }])
    assert_raises(Ketama::NoServerError) { zero.get('k') }
    assert_equal [nil], zero.get_many(['k'])
  end

  def test_options
    r = ring('twemproxy', hash_tag: '{}')
    assert_equal r.get('user:1'), r.get('{user:1}:cart')
    hashed = ring('php-memcached', prefix_key: 'p:', hash_with_prefix: true)
    plain = ring('php-memcached')
    assert_equal KEYS.map { |k| plain.get("p:#{k}") }, hashed.get_many(KEYS)
    assert_raises(Ketama::BadOptionError) { ring('libketama', hash_tag: '{}') }
    assert_raises(Ketama::BadOptionError) { ring('twemproxy', hash_tag: '«»') }
    assert_raises(Ketama::BadOptionError) { ring('php-memcached', prefix_key: 'x' * 128) }
    plain.set_options(prefix_key: 'p:', hash_with_prefix: true)
    assert_equal hashed.get_many(KEYS), plain.get_many(KEYS)
    assert_raises(Ketama::BadOptionError) { plain.set_options(hash_tag: '{}') }
    assert_equal hashed.get_many(KEYS), plain.get_many(KEYS), 'a refused option changes nothing'
  end

  def test_from_points
    points = [[100, 'a:1'], [2**31, 'b:1'], [4_000_000_000, 'a:1']]
    r = Ketama::Ring.from_points(points)
    assert_equal %w[a:1 b:1], r.servers
    assert_equal [[100, 'a:1'], [2**31, 'b:1'], [4_000_000_000, 'a:1']], r.points
    assert_raises(Ketama::FixedPointsError) { r.add('c:1') }
    hashed = Ketama::Ring.from_points(points, hash: ->(k) { k.bytesize * 1_000_000_000 })
    assert_equal 'a:1', hashed.get('') # 0: the first point at or above
    assert_equal 'b:1', hashed.get('xx') # 2e9 <= 2^31
    assert_equal 'a:1', hashed.get('xxx') # 3e9: the next point
    assert_equal %w[a:1 b:1], hashed.get_n('xx', 5).sort
    assert_equal [hashed.get('x'), hashed.get('xx')], hashed.get_many(%w[x xx])
    assert_equal 2_000_000_000, hashed.key_hash('xx')
    assert_raises(Ketama::NeedsKeyError) { hashed.locate_alive('k', []) }
    bad = Ketama::Ring.from_points(points, hash: ->(_k) { -1 })
    assert_raises(TypeError) { bad.get('k') }
    assert_raises(IndexError) { Ketama::Ring.from_points(points, servers: ['a:1']) }
    assert_raises(Ketama::EmptyRingError) { Ketama::Ring.from_points([]) }
    assert_raises(ArgumentError) { Ketama::Ring.from_points([[2**32, 'a:1']]) }
  end

  def test_ruby_conventions
    r = ring
    assert_equal SERVERS, r.to_a
    assert_equal SERVERS, r.each.to_a
    assert_equal 3, r.count
    assert r.include?(SERVERS[1])
    refute r.include?('nope')
    refute r.empty?
    assert_match(/profile=libketama servers=3/, r.inspect)
    assert_raises(TypeError) { r.dup }
    assert_raises(TypeError) { r.clone }
    assert_equal 'libketama', r.profile
    assert_nil r.hash_name
    assert_equal 'md5', ring('libketama', hash: 'md5').hash_name
    assert_kind_of Integer, r.hash, 'Object#hash still works'
    assert_equal 1, { r => 1 }[r]
    assert_includes Ketama.profiles, 'libmemcached-weighted'
    assert_includes Ketama.profiles, 'dalli'
    assert_equal 3_195_025_439, Ketama.hash('KETAMA_HASH', 'apple')
  end

  # A change that lands between a lookup's start and the library's answer (forced here by
  # running it inside the native call's stub): the answer is the changed ring's, never an
  # index of the changed ring read against the old label list.
  def test_a_change_during_a_lookup_gives_the_new_rings_answer
    %i[ketama_ring_lookup_index ketama_ring_lookup_packed].each do |native|
      r = ring
      after = ring('libketama', SERVERS.drop(1))
      key = KEYS.find { |k| after.get(k) == SERVERS[2] } # index 2 before, 1 after
      original = Ketama::Native.method(native)
      changed = false
      racing = lambda do |*args|
        r.remove(SERVERS[0]) unless changed
        changed = true
        original.call(*args)
      end
      Ketama::Native.stub(native, racing) do
        got = native == :ketama_ring_lookup_index ? r.get(key) : r.get_many([key]).first
        assert_equal SERVERS[2], got, native
      end
      assert changed
    end
  end

  def test_lookups_while_other_threads_change_the_ring
    extra = '10.0.0.9:11211'
    without = ring.get_many(KEYS)
    with = ring('libketama', SERVERS + [extra]).get_many(KEYS)
    r = ring
    stop = false
    changer = Thread.new do
      until stop
        r.add(extra)
        r.remove(extra)
      end
    end
    readers = Array.new(2) do
      Thread.new do
        bad = []
        5.times do
          KEYS.each_with_index do |k, i|
            got = r.get(k)
            bad << [k, got] unless got == without[i] || got == with[i]
          end
          got = r.get_many(KEYS)
          got.each_with_index { |l, i| bad << [KEYS[i], l] unless l == without[i] || l == with[i] }
        end
        bad
      end
    end
    bad = readers.flat_map(&:value)
    stop = true
    changer.join
    assert_empty bad.first(5), "#{bad.size} answers from neither ring"
    assert_equal without, r.get_many(KEYS)
  end
end
