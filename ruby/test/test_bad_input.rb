# frozen_string_literal: true

require_relative 'test_helper'

# The shared bad-input matrix (tests/bad-input.json) through the Ruby gem: each case raises
# its typed error (or succeeds), names the input where the table says so, and a failed call
# leaves the ring as it was. The same table is read by the Rust, C, Python and PHP tests.
class BadInputTest < Minitest::Test
  TABLE = KetamaTest.load(File.join(KetamaTest::REPO, 'tests', 'bad-input.json'))
  CASES = TABLE['cases'].select { |c| c.fetch('langs', ['ruby']).include?('ruby') }

  # A byte string of the table: UTF-8 text, {"hex": ..} (binary) or {"repeat": ..}.
  def self.raw(v)
    return v if v.is_a?(String)
    return [v['hex']].pack('H*') if v.key?('hex')

    (v['repeat'] * v['times']) + v.fetch('then', '')
  end

  def self.servers(v)
    if v.is_a?(Hash) && v.key?('count')
      return (1..v['count']).map { |i| v['format'].sub('{i}', i.to_s) }
    end

    v.map do |e|
      case e
      when Array then { label: raw(e[0]), weight: e[1] }
      when String, Hash then raw(e)
      else e # a wrong type, passed as it is
      end
    end
  end

  def self.snapshot(ring)
    [ring.servers, ring.weights, ring.points]
  end

  def self.run_case(c)
    profile = raw(c.fetch('profile', 'libketama'))
    hash = c['hash'] && raw(c['hash'])
    initial = servers(c.fetch('servers', TABLE['base']))
    return Ketama::Ring.new(profile: profile, hash: hash, servers: c.fetch('servers_arg', initial)) if c['op'] == 'create'

    ring = Ketama::Ring.new(profile: profile, hash: hash, servers: initial)
    before = snapshot(ring)
    begin
      case c['op']
      when 'lookup' then ring.get(c['key'].is_a?(Integer) ? c['key'] : raw(c['key']))
      when 'add' then ring.add(raw(c['label']), weight: c['weight'])
      when 'remove' then ring.remove(raw(c['label']))
      when 'set_weight' then ring.set_weight(raw(c['label']), c['weight'])
      when 'add_many' then ring.add_many(servers(c['add']))
      else raise "unknown op #{c['op']}"
      end
    rescue StandardError
      raise "#{c['id']}: ring changed" unless snapshot(ring) == before

      raise
    end
  end

  def test_cases_are_there
    assert_operator CASES.size, :>=, 30
  end

  CASES.each do |c|
    define_method("test_#{c['id'].tr('-', '_')}") do
      name = c.fetch('expect', {}).fetch('ruby', c['error'])
      return self.class.run_case(c) if name.nil?

      cls = name == 'TypeError' ? TypeError : Ketama.const_get("#{name}Error")
      e = assert_raises(cls) { self.class.run_case(c) }
      assert_instance_of cls, e
      assert_includes e.message, c['names'] if c.key?('names')
    end
  end
end
