# Drives the real redis-rb Redis::Distributed (4.x from Debian ruby-redis, or 5.x loaded
# unmodified from its own source with -I). Part of tests/oracles/redis-rb/ (see README.md).
#
#   ruby [-I redis-rb/lib -I redis-client/lib] driver.rb REDIS_VERSION [REDIS_CLIENT_VERSION] JOBS.json
#
# JOBS = [{"servers": [{"url": "redis://host:port", "id": null|"name"}, ...],
#          "ids": ["the Redis#id each node must have", ...], "keys": [...]}, ...]
# Per job: Redis::Distributed.new(node configs) with default options (a node config is the URL
# string, or {url:, id:} when an id is given), then dist.node_for(key) per key: the node every
# single-key command uses. The chosen node is mapped back by object identity. The driver
# asserts the versions, each node's id, where hash_ring.rb was loaded from, and that no node
# connected. Prints a JSON list per job: the index of the chosen node.
require 'json'
require 'redis'
require 'redis/distributed'

want, *rest = ARGV
jobs_path = rest.pop
abort "expected redis-rb #{want}, got #{Redis::VERSION}" unless Redis::VERSION == want
unless rest.empty?
  abort "expected redis-client #{rest[0]}, got #{RedisClient::VERSION}" unless RedisClient::VERSION == rest[0]
end
ring_file = $LOADED_FEATURES.grep(%r{/redis/hash_ring\.rb\z})
abort "hash_ring.rb loaded from #{ring_file.inspect}" unless ring_file.size == 1
$stderr.puts "redis-rb #{Redis::VERSION}: #{ring_file[0]}"

jobs = JSON.parse(File.read(jobs_path, encoding: 'UTF-8'))
out = jobs.map do |job|
  configs = job['servers'].map do |s|
    s['id'] ? { url: s['url'], id: s['id'] } : s['url']
  end
  dist = Redis::Distributed.new(configs)
  nodes = dist.nodes
  abort 'node count' unless nodes.size == configs.size
  ids = nodes.map(&:id)
  abort "ids #{ids.inspect} != #{job['ids'].inspect}" unless ids == job['ids']
  res = job['keys'].map do |key|
    node = dist.node_for(key)
    nodes.index { |n| n.equal?(node) }
  end
  abort 'a node connected' if nodes.any?(&:connected?)
  res
end
print JSON.generate(out)
