# Drives the real Dalli (Debian ruby-dalli): builds Dalli::Client.new(servers) and its ring
# exactly as the client does (Client#ring), validates each key with the client's own
# KeyManager#validate_key (blank keys refused, keys over 250 characters rewritten), then asks
# Ring#server_for_key. Usage: ruby driver.rb jobs.json
# jobs: [{"servers": ["host:port:weight", ...], "keys": [...]}]; prints per job the index of
# the chosen server in the servers list (or null when the client refuses the key).
# Nothing connects: each server's alive? (the liveness probe that would open a socket) is
# replaced by `true` on that object; placement code is untouched.
require 'json'
require 'dalli'

jobs = JSON.parse(File.read(ARGV[0], encoding: 'UTF-8'))
out = jobs.map do |job|
  client = Dalli::Client.new(job['servers'], {})
  ring = client.send(:ring)
  ring.servers.each { |s| def s.alive? = true }
  km = client.instance_variable_get(:@key_manager)
  job['keys'].map do |key|
    begin
      k = km.validate_key(key.to_s)
    rescue ArgumentError
      next nil
    end
    srv = ring.server_for_key(k)
    ring.servers.index { |x| x.equal?(srv) }
  end
end
print JSON.generate(out)
