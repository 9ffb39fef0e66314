# frozen_string_literal: true

require_relative 'test_helper'
require_relative 'support/servers'
require 'logger'
require 'ketama/dalli_ring'

# Ketama::DalliClient (Dalli with a Ketama::DalliRing) on live memcached processes: every key
# it writes is read back by a plain one-server Dalli client of the server an independent
# Ketama::Ring of the same profile names, and is on no other server; with a server stopped,
# the keys written go where the profile's client fails over (Ring#locate_alive).
class DalliRingTest < Minitest::Test
  KEYS = ((0...400).map { |i| "user:#{i}" } + ['café', 'café'.encode(Encoding::ISO_8859_1), "bin\xFF\x01key".b]).freeze

  def setup
    KetamaTest::Servers.require!(self, 'memcached')
    Dalli.logger = Logger.new(File::NULL)
  end

  def plain_clients(servers)
    servers.labels.to_h { |l| [l, Dalli::Client.new([l], socket_timeout: 2)] }
  end

  # The value each key is written with (raw: stored as its bytes, read back as they are).
  def value(key)
    "v:#{key.b}".b
  end

  # The servers that hold `key` (as stored: with the namespace) with `key`'s value.
  def holders(plain, key, stored = key)
    plain.select { |_label, c| c.get(stored, raw: true)&.b == value(key) }.keys
  end

  def check_fleet(profile, dalli_options = {}, namespace: nil)
    KetamaTest::Servers.run('memcached', 3) do |servers|
      cache = Ketama::DalliClient.new(servers.labels, { profile: profile, socket_timeout: 2 }.merge(dalli_options))
      assert_equal servers.labels, cache.ketama_ring.ring.servers
      KEYS.each { |k| assert cache.set(k, value(k), 0, raw: true) }
      reference = Ketama::Ring.new(profile: profile, servers: servers.labels)
      plain = plain_clients(servers)
      stored = ->(k) { namespace ? "#{namespace}:#{k}" : k }
      misplaced = KEYS.reject { |k| holders(plain, k, stored.call(k)) == [reference.get(stored.call(k))] }
      assert_empty misplaced.first(5), "#{misplaced.size} of #{KEYS.size} keys not (only) where #{profile} places them"
      items = plain.values.map { |c| c.stats.values.first['curr_items'].to_i }
      assert_equal KEYS.size, items.sum
      assert items.all?(&:positive?), "keys on every server: #{items}"
      # Dalli gives the keys back as the bytes memcached sent
      got = cache.get_multi(*KEYS).transform_keys(&:b)
      wrong = KEYS.reject { |k| got[k.b]&.b == value(k) }
      assert_empty wrong.first(5), "get_multi: #{wrong.size} of #{KEYS.size} keys missing"
      yield cache, reference, plain, servers if block_given?
    ensure
      cache&.close
      plain&.each_value(&:close)
    end
  end

  def test_dalli_profile_fleet
    check_fleet('dalli')
  end

  def test_php_memcached_fleet_with_a_namespace
    check_fleet('php-memcached', { namespace: 'app1' }, namespace: 'app1')
  end

  def test_failover_to_the_profiles_next_server
    %w[dalli libketama].each do |profile|
      check_fleet(profile, { down_retry_delay: 60 }) do |cache, reference, _plain, servers|
        dead_port = servers.ports[1]
        dead = "127.0.0.1:#{dead_port}"
        servers.stop(dead_port)
        fresh = KEYS.map { |k| "after:#{k}" }
        fresh.each { |k| assert cache.set(k, value(k), 0, raw: true), k }
        alive = plain_clients(servers)
        bad = fresh.reject { |k| holders(alive, k) == [reference.locate_alive(k, [dead])] }
        assert_empty bad.first(5), "#{profile}: #{bad.size} of #{fresh.size} keys not where the client fails over"
        moved = fresh.count { |k| reference.get(k) == dead }
        assert_operator moved, :>, 10, 'some keys had the stopped server as primary'
        alive.each_value(&:close)
      end
    end
  end

  def test_no_failover_and_every_server_down
    KetamaTest::Servers.run('memcached', 2) do |servers|
      labels = servers.labels
      ports = servers.ports.dup
      cache = Ketama::DalliClient.new(labels, profile: 'libketama', failover: false, socket_timeout: 1,
                                              down_retry_delay: 60)
      reference = Ketama::Ring.new(profile: 'libketama', servers: labels)
      on_first = KEYS.find { |k| reference.get(k) == labels[0] }
      on_second = KEYS.find { |k| reference.get(k) == labels[1] }
      servers.stop(ports[0])
      assert_raises(Dalli::RingError) { cache.set(on_first, 'x') }
      assert cache.set(on_second, 'x')
      servers.stop(ports[1])
      on_all = Ketama::DalliClient.new(labels, profile: 'libketama', socket_timeout: 1)
      assert_raises(Dalli::RingError) { on_all.set(on_second, 'y') }
    ensure
      cache&.close
      on_all&.close
    end
  end

  def test_options_are_checked_when_the_client_is_made
    assert_raises(ArgumentError) { Ketama::DalliClient.new(['127.0.0.1:1']) }
    assert_raises(Ketama::UnknownProfileError) { Ketama::DalliClient.new(['127.0.0.1:1'], profile: 'nope') }
    assert_raises(Ketama::BadLabelError) { Ketama::DalliClient.new(['/tmp/memcached.sock'], profile: 'dalli') }
    by_label = Ketama::DalliClient.new(['/tmp/memcached.sock'], profile: 'dalli', label: ->(_s) { 'sock:1' })
    assert_equal ['sock:1'], by_label.ketama_ring.ring.servers
    weighted = Ketama::DalliClient.new(%w[10.0.0.1:11211:3 [::1]:11311], profile: 'dalli')
    assert_equal({ '10.0.0.1:11211' => 3, '[::1]:11311' => 1 }, weighted.ketama_ring.ring.weights)
    tagged = Ketama::DalliClient.new(%w[10.0.0.1:11211 10.0.0.2:11211], profile: 'twemproxy', hash_tag: '{}')
    assert_equal tagged.ketama_ring.ring.get('u'), tagged.ketama_ring.ring.get('{u}:x')
  end
end
