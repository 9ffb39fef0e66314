# frozen_string_literal: true

# Per-key cost of the gem beside the rings it stands in for, measured in one run (best of
# ROUNDS interleaved rounds; ratios are what to read on a shared machine, and the answers are
# checked to be those of the same profile first):
#   ruby -I ruby/lib ruby/bench/bench.rb [KEYS]     (KETAMA_LIB: the library to measure)
# - Ketama::Ring#get and #get_many (libketama profile, 10 servers);
# - Ketama::RedisRing#get_node beside redis-rb's Redis::HashRing#get_node (10 nodes);
# - Ketama::DalliRing's key -> server beside Dalli::Ring's continuum search (10 servers,
#   without the liveness check both make, which needs a connection).
require 'benchmark'
require 'redis'
require 'redis/distributed'
require 'dalli'
require 'ketama'
require 'ketama/redis_ring'
require 'ketama/dalli_ring'

n = Integer(ARGV.fetch(0, '50000'))
rounds = 7
keys = Array.new(n) { |i| "user:#{i}:#{i * 7919}" }
labels = (1..10).map { |i| "10.0.0.#{i}:6379" }

ring = Ketama::Ring.new(profile: 'libketama', servers: labels)
nodes = labels.map { |l| Redis.new(url: "redis://#{l}/0") }
hash_ring = Redis::HashRing.new(nodes)
ours = Ketama::RedisRing.new(nodes, profile: 'libketama')
dalli_servers = labels.map { |l| Dalli::Protocol::Binary.new(l.sub('6379', '11211')) }
dalli = Dalli::Ring.new(dalli_servers, threadsafe: false)
dalli_ours = Ketama::DalliRing.new(dalli_servers, { threadsafe: false }, profile: 'dalli')
dalli_by_label = dalli_servers.to_h { |s| ["#{s.hostname}:#{s.port}", s] }

# The same answers first: our dalli profile against Dalli's own continuum.
same = keys.first(2000).all? do |k|
  dalli.send(:server_for_hash_key, Zlib.crc32(k)).equal?(dalli_by_label.fetch(dalli_ours.ring.get(k)))
end
abort 'DalliRing and Dalli::Ring disagree' unless same

cases = {
  'Ketama::Ring#get' => -> { keys.each { |k| ring.get(k) } },
  'Ketama::Ring#get_many (per key)' => -> { ring.get_many(keys) },
  'Redis::HashRing#get_node (redis-rb)' => -> { keys.each { |k| hash_ring.get_node(k) } },
  'Ketama::RedisRing#get_node' => -> { keys.each { |k| ours.get_node(k) } },
  'Dalli::Ring continuum search' => -> { keys.each { |k| dalli.send(:server_for_hash_key, Zlib.crc32(k)) } },
  'Ketama::DalliRing key -> server' => -> { keys.each { |k| dalli_by_label.fetch(dalli_ours.ring.get(k)) } }
}
best = Hash.new(Float::INFINITY)
rounds.times do
  cases.each { |name, f| best[name] = [best[name], Benchmark.realtime(&f)].min }
end
load = File.read('/proc/loadavg').split.first rescue '?'
puts "#{n} keys, best of #{rounds} rounds, load #{load}, library #{Ketama.library_path}"
best.each { |name, t| printf("%-38s %8.0f ns/key\n", name, t / n * 1e9) }
printf("RedisRing vs redis-rb HashRing: %.2fx   DalliRing vs Dalli::Ring: %.2fx\n",
       best['Redis::HashRing#get_node (redis-rb)'] / best['Ketama::RedisRing#get_node'],
       best['Dalli::Ring continuum search'] / best['Ketama::DalliRing key -> server'])
