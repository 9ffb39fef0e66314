# frozen_string_literal: true

require_relative 'test_helper'
require_relative 'support/servers'
require 'redis'
require 'redis/distributed'
require 'ketama/redis_ring'

# Ketama::RedisRing in redis-rb's Redis::Distributed, on live redis-server processes: every
# key written through Redis::Distributed is read back by a plain client of the one server
# an independent Ketama::Ring of the same profile names (redis-rb's hash tag rule applied
# first, as Redis::Distributed applies it), and it is on no other server.
class RedisRingTest < Minitest::Test
  KEYS = ((0...400).map { |i| "user:#{i}" } +
          ['{user:7}:cart', '{user:7}:orders', 'x{user:7}', 'café', 'café'.encode(Encoding::ISO_8859_1),
           "bin\xFF\x00key".b]).freeze
  # redis-rb 4.x's default tag rule (Redis::Distributed's `tag:` option): `{...}` at the start.
  TAG = /^\{(.+?)\}/.freeze

  def setup
    KetamaTest::Servers.require!(self, 'redis-server')
  end

  def plain_clients(servers)
    servers.ports.to_h { |p| ["127.0.0.1:#{p}", Redis.new(host: '127.0.0.1', port: p, timeout: 2)] }
  end

  def placed_by(ring, key)
    ring.get(key[TAG, 1] || key)
  end

  # Writes KEYS through Redis::Distributed with a RedisRing of `profile`; checks each key
  # is on exactly the server the profile names.
  def check_fleet(profile)
    KetamaTest::Servers.run('redis-server', 3) do |servers|
      urls = servers.ports.map { |p| "redis://127.0.0.1:#{p}/0" }
      redis = Redis::Distributed.new(urls, ring: Ketama::RedisRing.new(profile: profile), timeout: 2)
      assert_equal servers.labels, redis.ring.ring.servers
      assert_equal 3, redis.nodes.size
      KEYS.each { |k| redis.set(k, "v:#{k.b}") }
      reference = Ketama::Ring.new(profile: profile, servers: servers.labels)
      plain = plain_clients(servers)
      missing = KEYS.reject { |k| plain.fetch(placed_by(reference, k)).get(k)&.b == "v:#{k.b}".b }
      assert_empty missing.first(5), "#{missing.size} of #{KEYS.size} keys not where #{profile} places them"
      counts = plain.transform_values(&:dbsize)
      assert_equal KEYS.size, counts.values.sum, 'a key was written to more than one server'
      assert counts.values.all?(&:positive?), "keys on every server: #{counts}"
      assert_equal KEYS.map { |k| "v:#{k.b}".b }, redis.mget(*KEYS).map { |v| v&.b }
      yield redis, reference, plain, servers if block_given?
    ensure
      plain&.each_value(&:close)
    end
  end

  def test_libketama_fleet
    check_fleet('libketama')
  end

  def test_dalli_fleet
    check_fleet('dalli')
  end

  def test_nodes_added_and_removed
    check_fleet('php-memcached') do |redis, _reference, _plain, servers|
      port = servers.start
      redis.add_node("redis://127.0.0.1:#{port}/0")
      assert_equal servers.labels, redis.ring.ring.servers
      grown = Ketama::Ring.new(profile: 'php-memcached', servers: servers.labels)
      KEYS.each { |k| assert_equal placed_by(grown, k), redis.node_for(k).connection.values_at(:host, :port).join(':') }
      redis.ring.remove_node(redis.nodes.first)
      assert_equal servers.labels.drop(1), redis.ring.ring.servers
      assert_equal 3, redis.nodes.size
      shrunk = Ketama::Ring.new(profile: 'php-memcached', servers: servers.labels.drop(1))
      KEYS.each { |k| assert_equal placed_by(shrunk, k), redis.node_for(k).connection.values_at(:host, :port).join(':') }
      assert_equal shrunk.get_n('k', 3), redis.ring.iter_nodes('k').map { |n| n.connection.values_at(:host, :port).join(':') }
    end
  end

  def test_ring_contract_without_servers
    ring = Ketama::RedisRing.new(profile: 'libketama')
    assert_raises(Ketama::EmptyRingError) { ring.get_node('k') }
    a = Redis.new(host: '10.0.0.1', port: 6379)
    b = Redis.new(url: 'redis://[::1]:6380/1')
    ring.add_node(a)
    ring.add_node(b)
    assert_equal %w[10.0.0.1:6379 [::1]:6380], ring.ring.servers
    %w[k1 k2 k3 k4 k5].each do |k|
      assert_same({ '10.0.0.1:6379' => a, '[::1]:6380' => b }.fetch(ring.ring.get(k)), ring.get_node(k))
    end
    assert_raises(Ketama::DuplicateServerError) { ring.add_node(Redis.new(host: '10.0.0.1', port: 6379, db: 3)) }
    assert_equal [a, b], ring.nodes
    assert_raises(Ketama::BadLabelError) { ring.add_node(Redis.new(path: '/tmp/redis.sock')) }
    by_path = Ketama::RedisRing.new(profile: 'libketama', label: ->(n) { n.connection[:location] == '/tmp/redis.sock' ? 'sock:1' : 'x:1' })
    by_path.add_node(Redis.new(path: '/tmp/redis.sock'))
    assert_equal ['sock:1'], by_path.ring.servers
    named = Ketama::RedisRing.new(profile: 'twemproxy', name: ->(n) { n.id })
    named.add_node(a)
    assert_equal 'redis://10.0.0.1:6379/0', a.id
    assert_equal 1, named.nodes.size
  end
end
