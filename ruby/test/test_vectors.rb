# frozen_string_literal: true

require_relative 'test_helper'

# Every shared vector file recorded from the real clients (tests/vectors/*.json and
# tests/vectors/options/*.json, as the Python and PHP suites read them) must match on every
# key: `locate` files through #get on a ring built in one step and one built server by
# server, and through #get_many; `sequence` files through #failover; `hash` files through
# Ketama.hash, or the ring's #key_hash when the file names a profile. A file's options go
# to the constructor.
class VectorsTest < Minitest::Test
  FILES = (Dir.glob(File.join(KetamaTest::VECTORS, '*.json')).sort +
           Dir.glob(File.join(KetamaTest::VECTORS, 'options', '*.json')).sort).freeze

  def test_vector_files_are_there
    assert_operator FILES.size, :>=, 500, "vector files missing in #{KetamaTest::VECTORS}"
  end

  FILES.each do |path|
    prefix = File.basename(File.dirname(path)) == 'options' ? 'options' : 'file'
    define_method(KetamaTest.method_name(prefix, path)) do
      v = KetamaTest.load(path)
      assert_equal v['keys'].size, v['expect'].size, 'keys and expect differ in length'
      bad = case v.fetch('kind', 'locate')
            when 'hash' then check_hash(v)
            when 'locate' then check_locate(v)
            when 'sequence' then check_sequence(v)
            else flunk "unknown kind #{v['kind']}"
            end
      assert_empty bad, KetamaTest.report(bad, v['keys'].size)
    end
  end

  # The two rings of a file: in one step, and server by server with #add.
  def rings(v)
    options = v.fetch('options', {}).transform_keys(&:to_sym)
    servers = KetamaTest.servers(v)
    fresh = Ketama::Ring.new(profile: v['profile'], hash: v['hash'], servers: servers, **options)
    stepwise = Ketama::Ring.new(profile: v['profile'], hash: v['hash'], **options)
    servers.each { |s| stepwise.add(s[:label], weight: s[:weight], name: s[:name]) }
    labels = servers.map { |s| s[:label] }
    assert_equal labels, fresh.servers
    assert_equal labels, stepwise.servers
    { 'fresh' => fresh, 'stepwise' => stepwise }
  end

  def check_locate(v)
    bad = []
    rings(v).each do |how, ring|
      v['keys'].zip(v['expect']).each do |key, want|
        got = begin
          ring.get(key)
        rescue Ketama::KeyRejectedError, Ketama::NoServerError
          nil # the refusal rule: a single lookup raises where the client gives nothing
        end
        bad << "#{how} #{key[0, 40].inspect}: got #{got.inspect}, want #{want.inspect}" unless got == want
      end
      ring.get_many(v['keys']).zip(v['keys'], v['expect']).each do |got, key, want|
        bad << "get_many(#{how}) #{key[0, 40].inspect}: got #{got.inspect}, want #{want.inspect}" unless got == want
      end
    end
    bad
  end

  def check_sequence(v)
    bad = []
    rings(v).each do |how, ring|
      v['keys'].zip(v['expect']).each do |key, want|
        got = begin
          ring.failover(key, v.fetch('n'))
        rescue Ketama::KeyRejectedError
          nil
        end
        bad << "#{how} #{key[0, 40].inspect}: got #{got.inspect}, want #{want.inspect}" unless got == want
      end
    end
    bad
  end

  # With a profile: the hash as that client's ring computes it, refusals as nil.
  def check_hash(v)
    ring = v['profile'] && Ketama::Ring.new(profile: v['profile'], hash: v['hash'])
    v['keys'].zip(v['expect']).filter_map do |key, want|
      got = begin
        ring ? ring.key_hash(key) : Ketama.hash(v['hash'], key)
      rescue Ketama::KeyRejectedError
        nil
      end
      "hash #{key[0, 40].inspect}: got #{got.inspect}, want #{want.inspect}" unless got == want
    end
  end
end
