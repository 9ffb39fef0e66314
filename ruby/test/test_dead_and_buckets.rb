# frozen_string_literal: true

require_relative 'test_helper'

# The dead-server recordings (tests/vectors/extra/*-dead-*.json, from the real clients with
# the listed servers down) through Ring#locate_alive, and the bucket functions' files
# (tests/vectors/buckets/*.json) through Ketama.bucket, as the Python and PHP suites read
# them.
class DeadServersTest < Minitest::Test
  DEAD = Dir.glob(File.join(KetamaTest::VECTORS, 'extra', '*-dead-*.json')).sort.freeze

  def test_dead_files_are_there
    assert_operator DEAD.size, :>=, 20
  end

  DEAD.each do |path|
    define_method(KetamaTest.method_name('dead', path)) do
      v = KetamaTest.load(path)
      assert_equal 'dead', v['kind']
      ring = Ketama::Ring.new(profile: v['profile'], hash: v['hash'], servers: KetamaTest.servers(v))
      bad = v['keys'].zip(v['expect']).filter_map do |key, want|
        got = begin
          ring.locate_alive(key, v['dead'])
        rescue Ketama::KeyRejectedError
          nil
        end
        "#{key[0, 40].inspect}: got #{got.inspect}, want #{want.inspect}" unless got == want
      end
      assert_empty bad, KetamaTest.report(bad, v['keys'].size)
    end
  end

  def test_unknown_dead_label_raises
    ring = Ketama::Ring.new(profile: 'dalli', servers: %w[10.0.0.1:11211 10.0.0.2:11211])
    assert_equal ring.get('k'), ring.locate_alive('k', [])
    e = assert_raises(Ketama::MissingServerError) { ring.locate_alive('k', ['10.0.0.9:11211']) }
    assert_includes e.message, '10.0.0.9:11211'
    assert_nil ring.locate_alive('k', %w[10.0.0.1:11211 10.0.0.2:11211])
  end
end

class BucketsTest < Minitest::Test
  FILES = Dir.glob(File.join(KetamaTest::VECTORS, 'buckets', '*.json')).sort.freeze
  # maglev-go and mpchash-go build their table on every call: a 1-in-8 sample, as in Python.
  TABLE_ALGORITHMS = %w[maglev-go mpchash-go].freeze

  def test_every_algorithm_has_a_file
    algorithms = FILES.map { |f| KetamaTest.load(f)['algorithm'] }.sort
    assert_equal %w[fliphash guava jump jumpback maglev-go mpchash-go], algorithms
  end

  FILES.each do |path|
    define_method(KetamaTest.method_name('bucket', path)) do
      doc = KetamaTest.load(path)
      algorithm = doc['algorithm']
      step = TABLE_ALGORITHMS.include?(algorithm) ? 8 : 1
      cases = doc['cases'].each_slice(step).map(&:first)
      bad = cases.filter_map do |input, buckets, want|
        got = Ketama.bucket(algorithm, Integer(input, 10), buckets)
        "#{input} / #{buckets}: got #{got}, want #{want}" unless got == want
      end
      assert_operator cases.size, :>=, 300
      assert_empty bad, KetamaTest.report(bad, cases.size)
    end
  end

  def test_bad_arguments
    assert_equal 195, Ketama.bucket('guava', 2_687_259_751_451_158_933, 807)
    assert_equal 576, Ketama.bucket('jump', 2_687_259_751_451_158_933, 807)
    assert_operator Ketama.bucket('fliphash', 2**64 - 1, 2**31 - 1), :<, 2**31 - 1
    assert_raises(Ketama::UnknownAlgorithmError) { Ketama.bucket('nope', 1, 3) }
    assert_raises(Ketama::UnknownAlgorithmError) { Ketama.bucket('Jump', 1, 3) }
    [0, -1].each { |n| assert_raises(Ketama::ZeroBucketsError) { Ketama.bucket('jump', 1, n) } }
    [2**31, 2**40].each { |n| assert_raises(Ketama::TooManyBucketsError) { Ketama.bucket('jump', 1, n) } }
    assert_raises(Ketama::TooManyBucketsError) { Ketama.bucket('maglev-go', 1, 65_538) }
    assert_raises(RangeError) { Ketama.bucket('jump', 2**64, 3) }
    assert_raises(RangeError) { Ketama.bucket('jump', -1, 3) }
    assert_raises(TypeError) { Ketama.bucket('jump', '1', 3) }
  end
end
