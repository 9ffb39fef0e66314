# frozen_string_literal: true

require_relative 'test_helper'

# The error vocabulary: one class per core error, with the core's names and texts, each
# raised for its status; the C layer's own statuses; a panic caught at the C boundary.
class ErrorsTest < Minitest::Test
  # The core's error list, language-neutral: spec/profiles.json `errors` (exported from
  # core/src/error.rs by `ketama profiles --format spec`, checked fresh by
  # tests/gen-tables.sh --check).
  def core_errors
    path = File.join(KetamaTest::REPO, 'spec', 'profiles.json')
    skip 'spec/profiles.json not here (installed gem outside the source tree)' unless File.file?(path)
    KetamaTest.load(path).fetch('errors')
  end

  def test_one_class_per_core_error_with_the_core_names_and_texts
    core = core_errors
    assert_equal core.map { |e| e['name'] }, Ketama::ERRORS.keys, "Ruby's error list differs from core's"
    core.each do |e|
      cls = Ketama.const_get("#{e['name']}Error")
      assert_same Ketama::ERRORS.fetch(e['name']), cls
      assert_operator cls, :<, Ketama::Error
      assert_equal e['name'], cls.variant
      assert_equal e['message'], cls.new.message, "#{cls} message"
      assert_equal "#{e['message']}: x", Ketama::Error.for_status(cls.status_number, 'x').message
    end
  end

  def test_every_status_is_a_core_error_or_the_c_layers_own
    names = Ketama::STATUSES.values.map(&:to_s)
    assert_equal names.sort, (Ketama::ERRORS.keys + Ketama::C_LAYER_STATUSES.map(&:to_s)).sort
    Ketama::STATUSES.each do |status, name|
      cls = Ketama.error_class(status)
      if Ketama::C_LAYER_STATUSES.include?(name)
        assert_nil cls, name
        next if status.zero?

        e = Ketama::Error.for_status(status)
        assert_equal Ketama::Error, e.class
        assert_equal status, e.status
      else
        assert_equal status, cls.new.status
        assert_instance_of cls, Ketama::Error.for_status(status)
      end
    end
    assert_nil Ketama.check(0)
  end

  def test_status_table_is_fresh
    gen = File.join(KetamaTest::REPO, 'ruby', 'gen-status.rb')
    header = File.join(KetamaTest::REPO, 'include', 'ketama.h')
    skip 'not in the source tree' unless File.file?(gen) && File.file?(header)
    assert system(RbConfig.ruby, gen, '--check'), 'ruby/lib/ketama/status.rb is stale: run ruby ruby/gen-status.rb'
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
