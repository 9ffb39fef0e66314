# frozen_string_literal: true

# The memcached half of the Redis-client fleet: Dalli (Debian ruby-dalli) writes with its own
# ring; Ketama::DalliClient reads with PROFILE.
#   ruby -I ruby/lib dalli_fleet.rb write SERVERS_FILE KEYS_FILE
#   ruby -I ruby/lib dalli_fleet.rb read PROFILE SERVERS_FILE KEYS_FILE
# SERVERS_FILE: "host:port weight" lines (Dalli's "host:port:weight"). A key's value is
# "w:" + key (raw). write prints "stored=N"; read prints "hits=N total=M", then each missed
# key on its own line (at most 20). Loopback servers only; 5 s socket timeouts; no failover
# (a stopped server is a miss, never another server).
require 'dalli'

mode = ARGV.shift
profile = ARGV.shift if mode == 'read'
servers_file, keys_file = ARGV
servers = File.readlines(servers_file, chomp: true).reject(&:empty?).map do |line|
  label, weight = line.split
  abort "loopback only: #{label}" unless label.start_with?('127.')
  "#{label}:#{Integer(weight)}"
end
keys = File.readlines(keys_file, chomp: true).reject(&:empty?)
options = { raw: true, socket_timeout: 5, failover: false }
case mode
when 'write'
  dalli = Dalli::Client.new(servers, options)
  keys.each { |key| dalli.set(key, "w:#{key}") || abort("set #{key} failed") }
  puts "stored=#{keys.size}"
when 'read'
  require 'ketama/dalli_ring'
  cache = Ketama::DalliClient.new(servers, options.merge(profile: profile))
  missed = keys.reject { |key| cache.get(key) == "w:#{key}" }
  puts "hits=#{keys.size - missed.size} total=#{keys.size}"
  missed.first(20).each { |key| puts key }
else
  abort "usage: dalli_fleet.rb write|read ..."
end
