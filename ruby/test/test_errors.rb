# frozen_string_literal: true

require_relative 'test_helper'

# The error vocabulary: one class per core error of spec/errors.json, with the core's names,
# statuses and texts, each raised for its status; the C layer's own statuses; a panic caught
# at the C boundary.
class ErrorsTest < Minitest::Test
  # Every failure status with its name, value, kind and message, core's errors marked:
  # spec/errors.json (written from core and the C library by tests/gen-tables.sh, which
  # generates error_classes.rb from it).
  def spec_errors
    path = File.join(KetamaTest::REPO, 'spec', 'errors.json')
    skip 'spec/errors.json not here (installed gem outside the source tree)' unless File.file?(path)
    KetamaTest.load(path).fetch('errors')
  end

  def test_one_class_per_core_error_with_the_core_names_and_texts
    core = spec_errors.select { |e| e['core'] }
    assert_equal core.map { |e| e['name'] }, Ketama::ERRORS.keys, "Ruby's error list differs from core's"
    core.each do |e|
      cls = Ketama.const_get("#{e['name']}Error")
      assert_same Ketama::ERRORS.fetch(e['name']), cls
      assert_operator cls, :<, Ketama::Error
      assert_equal e['name'], cls.variant
      assert_equal e['status'], cls.status_number
      assert_equal e['status'], cls.new.status
      assert_equal e['message'], cls.new.message, "#{cls} message"
      assert_equal "#{e['message']}: x", Ketama::Error.for_status(cls.status_number, 'x').message
      assert_instance_of cls, Ketama::Error.for_status(e['status'])
    end
  end

  def test_every_status_is_a_core_error_or_the_c_layers_own
    errors = spec_errors
    assert_equal errors.to_h { |e| [e['status'], e['name'].to_sym] }, Ketama::STATUSES
    c_layer = errors.reject { |e| e['core'] }
    assert_equal c_layer.map { |e| e['name'].to_sym }, Ketama::C_LAYER_STATUSES
    refute_empty c_layer
    c_layer.each do |e|
      assert_nil Ketama.error_class(e['status']), e['name']
      refute Ketama.const_defined?("#{e['name']}Error"), e['name']
      err = Ketama::Error.for_status(e['status'])
      assert_equal Ketama::Error, err.class
      assert_equal e['status'], err.status
      assert_equal e['message'], err.message
    end
    assert_nil Ketama.error_class(0)
    assert_nil Ketama.check(0)
  end

  def test_the_base_class_has_no_variant
    assert_nil Ketama::Error.variant
    assert_nil Ketama::Error.status_number
    assert_nil Ketama::Error.new('x').status
    assert_raises(NoMethodError) { Ketama::Error.core_error('X', 99) }
  end

  def test_each_error_is_raised_for_its_case
    ring = Ketama::Ring.new(profile: 'libketama', servers: ['10.0.0.1:11211'])
    {
      Ketama::UnknownProfileError => -> { Ketama::Ring.new(profile: 'no-such-client') },
      Ketama::UnknownHashError => -> { Ketama::Ring.new(profile: 'libmemcached', hash: 'nope') },
      Ketama::AmbiguousHashError => -> { Ketama.hash('crc32', 'x') },
      Ketama::BadWeightError => -> { Ketama::Ring.new(profile: 'twemproxy', servers: [{ label: 'a:1', weight: 0 }]) },
      Ketama::DuplicateServerError => -> { ring.add('10.0.0.1:11211') },
      Ketama::MissingServerError => -> { ring.remove('10.0.0.9:11211') },
      Ketama::BadLabelError => -> { ring.add('10.0.0.1:port') },
      Ketama::InvalidUtf8Error => -> { ring.add("10.0.0.\xFF:1".b) },
      Ketama::EmptyRingError => -> { Ketama::Ring.new(profile: 'libketama').get('k') },
      Ketama::KeyRejectedError => -> { Ketama::Ring.new(profile: 'xmemcached', hash: 'KETAMA_HASH', servers: ['a:1']).get('') },
      Ketama::UnsupportedError => -> { Ketama::Ring.new(profile: 'xmemcached-nginx', servers: ['cache1.lan:11211']) },
      Ketama::FixedPointsError => -> { Ketama::Ring.from_points([[1, 'a:1']]).add('b:1') },
      Ketama::NotAContinuumError => -> { Ketama::Ring.from_points([[1, 'a:1']], profile: 'modula') },
      Ketama::NeedsKeyError => -> { Ketama::Ring.new(profile: 'mcrouter-ch3', servers: %w[a:1 b:1]).by_hash(5) },
      Ketama::BadOptionError => -> { Ketama::Ring.new(profile: 'libketama', hash_tag: '{}') },
      Ketama::UnknownAlgorithmError => -> { Ketama.bucket('nope', 1, 2) },
      Ketama::ZeroBucketsError => -> { Ketama.bucket('jump', 1, 0) },
      Ketama::TooManyBucketsError => -> { Ketama.bucket('jump', 1, 2**31) }
    }.each do |cls, call|
      e = assert_raises(cls, cls.name, &call)
      assert_instance_of cls, e
      assert e.message.start_with?(cls.new.message), e.message
    end
    assert_equal ['10.0.0.1:11211'], ring.servers, 'failed changes left the ring as it was'
  end

  # A refusal of one server input says which: its place in the list given (nil for a call
  # that took one server) and its label, as in the other bindings; an error no server is to
  # blame for names none.
  def test_errors_name_the_server_to_blame
    ring = Ketama::Ring.new(profile: 'libketama', servers: ['10.0.0.1:1', '10.0.0.2:1'])
    bad_utf8 = "10.0.0.2:1\xFF".b
    [
      [Ketama::BadLabelError, -> { Ketama::Ring.new(profile: 'libketama', servers: ['10.0.0.1:1', 'bad label', '10.0.0.3:1']) }, 1, 'bad label'],
      [Ketama::DuplicateServerError, -> { Ketama::Ring.new(profile: 'libketama', servers: ['[::1]:1', '10.0.0.2:1', '[0:0::1]:1']) }, 2, '[0:0::1]:1'],
      [Ketama::BadWeightError, -> { Ketama::Ring.new(profile: 'twemproxy', servers: [{ label: '10.0.0.1:1' }, { label: '10.0.0.2:1', weight: 0 }]) }, 1, '10.0.0.2:1'],
      [Ketama::BadWeightError, -> { Ketama::Ring.new(profile: 'libketama', servers: ['10.0.0.1:1', { 'label' => '10.0.0.2:1', 'weight' => -1 }]) }, 1, '10.0.0.2:1'],
      [Ketama::UnsupportedError, -> { Ketama::Ring.new(profile: 'xmemcached-nginx', servers: ['10.0.0.1:1', 'cache1.lan:1']) }, 1, 'cache1.lan:1'],
      [Ketama::InvalidUtf8Error, -> { Ketama::Ring.new(profile: 'libketama', servers: ['10.0.0.1:1', bad_utf8]) }, 1, bad_utf8],
      [Ketama::DuplicateServerError, -> { ring.add_many(['10.0.0.3:1', '10.0.0.1:1']) }, 1, '10.0.0.1:1'],
      [Ketama::MissingServerError, -> { ring.remove('10.9.9.9:1') }, nil, '10.9.9.9:1'],
      [Ketama::DuplicateServerError, -> { ring.add('10.0.0.2:1') }, nil, '10.0.0.2:1'],
      [Ketama::BadLabelError, -> { ring.add('x:0') }, nil, 'x:0'],
      [Ketama::BadWeightError, -> { ring.set_weight('10.0.0.1:1', -1) }, nil, '10.0.0.1:1'],
      [Ketama::InvalidUtf8Error, -> { ring.add(bad_utf8) }, nil, bad_utf8]
    ].each do |cls, call, index, label|
      e = assert_raises(cls, &call)
      assert_equal [index, label], [e.server_index, e.server_label], "#{cls}: #{e.message}"
    end
    empty = assert_raises(Ketama::EmptyRingError) { Ketama::Ring.new(profile: 'libketama').get('k') }
    assert_equal [nil, nil], [empty.server_index, empty.server_label]
    key = assert_raises(Ketama::KeyRejectedError) do
      Ketama::Ring.new(profile: 'xmemcached', hash: 'KETAMA_HASH', servers: ['a:1']).get('')
    end
    assert_equal [nil, nil], [key.server_index, key.server_label]
    assert_equal ['10.0.0.1:1', '10.0.0.2:1'], ring.servers, 'failed changes left the ring as it was'
  end

  def test_a_panic_in_the_library_is_an_error_not_an_abort
    unless Ketama::Native.respond_to?(:ketama_test_force_panic)
      flunk 'the library has no test-panic hook' if ENV['KETAMA_REQUIRE_PANIC_HOOK'] == '1'
      skip 'library built without the test-panic feature'
    end
    assert_nil Ketama.check(Ketama::Native.ketama_test_force_panic(0))
    e = assert_raises(Ketama::Error) { Ketama.check(Ketama::Native.ketama_test_force_panic(1)) }
    assert_equal Ketama::Error, e.class
    assert_equal 16, e.status
    assert_match(/panic/, e.message)
    # the library is still usable afterwards
    assert_equal '10.0.0.1:11211', Ketama::Ring.new(profile: 'libketama', servers: ['10.0.0.1:11211']).get('k')
  end

  def test_versions_agree
    assert_equal Ketama::VERSION, Ketama.library_version
    cargo = File.join(KetamaTest::REPO, 'Cargo.toml')
    skip 'not in the source tree' unless File.file?(cargo)
    assert_equal File.read(cargo)[/^version\s*=\s*"([^"]+)"/, 1], Ketama::VERSION
  end
end
