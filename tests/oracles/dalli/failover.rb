# Drives the real Dalli's failover with servers that do not answer: every server is
# 127.0.0.1:PORT; a server that is up is a real memcached (Debian) started here on that port,
# a dead one a port nobody listens on (connection refused).
# Usage: ruby failover.rb jobs.json
# jobs: [{"servers": ["127.0.0.1:port:weight", ...], "dead": [index, ...], "mode":
#         "sequence" | "dead", "keys": [...]}]
# mode "sequence": every server is dead; prints per key the indexes of the servers whose
#   alive? the ring called, in order (the client's whole failover sequence), or null when the
#   key is refused.
# mode "dead": the servers listed in "dead" are dead, the others up; prints per key the index
#   of the server Ring#server_for_key returned, or null (refused key, or Dalli::RingError).
require 'json'
require 'socket'
require 'dalli'
require 'logger'

Dalli.logger = Logger.new($stderr, level: Logger::ERROR)

LOG = []
module Probe
  def alive?
    LOG << self
    super
  end
end

jobs = JSON.parse(File.read(ARGV[0], encoding: 'UTF-8'))
out = jobs.map do |job|
  dead = job['mode'] == 'sequence' ? (0...job['servers'].size).to_a : job['dead']
  pids = job['servers'].each_with_index.map do |s, i|
    next nil if dead.include?(i)
    port = Integer(s.split(':')[1])
    pid = Process.spawn('memcached', '-l', '127.0.0.1', '-p', port.to_s, '-U', '0', '-u', 'nobody',
                        out: File::NULL, err: File::NULL)
    50.times do
      TCPSocket.new('127.0.0.1', port).close
      break
    rescue Errno::ECONNREFUSED
      sleep 0.1
    end
    pid
  end
  dead.each do |i|
    port = Integer(job['servers'][i].split(':')[1])
    begin
      TCPSocket.new('127.0.0.1', port).close
      abort "port #{port} answers: cannot stand for a dead server"
    rescue Errno::ECONNREFUSED
      nil
    end
  end
  client = Dalli::Client.new(job['servers'], { socket_timeout: 1, down_retry_delay: 3600 })
  ring = client.send(:ring)
  ring.servers.each { |s| s.singleton_class.prepend(Probe) }
  km = client.instance_variable_get(:@key_manager)
  answers = job['keys'].map do |key|
    begin
      k = km.validate_key(key.to_s)
    rescue ArgumentError
      next nil
    end
    LOG.clear
    begin
      srv = ring.server_for_key(k)
    rescue Dalli::RingError
      srv = nil
    end
    if job['mode'] == 'sequence'
      LOG.map { |x| ring.servers.index { |y| y.equal?(x) } }
    else
      srv && ring.servers.index { |y| y.equal?(srv) }
    end
  end
  client.close
  pids.compact.each do |pid|
    Process.kill('TERM', pid)
    Process.wait(pid)
  end
  answers
end
print JSON.generate(out)
