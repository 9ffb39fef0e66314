# frozen_string_literal: true

# Reads keys back through redis-rb's Redis::Distributed (Debian ruby-redis) with
# Ketama::RedisRing of PROFILE, or with redis-rb's own ring (PROFILE "own": the control).
#   ruby -I ruby/lib redis_reader.rb PROFILE SERVERS_FILE KEYS_FILE
# SERVERS_FILE: "host:port weight" lines (the weight goes to our ring; redis-rb's own ring has
# none). A hit is the value "w:" + key. Prints "hits=N total=M", then each missed key on its
# own line (at most 20). Loopback servers only; every command has a 5 s timeout.
require 'redis'
require 'redis/distributed'

profile, servers_file, keys_file = ARGV
servers = File.readlines(servers_file, chomp: true).reject(&:empty?).map(&:split)
servers.each { |label, _| abort "loopback only: #{label}" unless label.start_with?('127.') }
weights = servers.to_h { |label, w| [label, Integer(w)] }
urls = servers.map { |label, _| "redis://#{label}" }
options = { timeout: 5 }
if profile != 'own'
  require 'ketama/redis_ring'
  weight = ->(node) { weights.fetch("#{node.connection[:host]}:#{node.connection[:port]}") }
  options[:ring] = Ketama::RedisRing.new(profile: profile, weight: weight)
end
redis = Redis::Distributed.new(urls, options)
keys = File.readlines(keys_file, chomp: true).reject(&:empty?)
missed = keys.reject { |key| redis.get(key) == "w:#{key}" }
puts "hits=#{keys.size - missed.size} total=#{keys.size}"
missed.first(20).each { |key| puts key }
