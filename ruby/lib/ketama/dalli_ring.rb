# frozen_string_literal: true

require 'dalli'
require_relative '../ketama'

module Ketama
  # A ring for Dalli (3.0) that places keys the way any profile's client does, so Ruby shares
  # a memcached fleet with programs that use another client:
  #
  #   require 'ketama/dalli_ring'
  #   cache = Ketama::DalliClient.new(%w[10.0.1.1:11211 10.0.1.2:11211], profile: 'php-memcached')
  #   cache.set('user:1', 'Ada')   # on the server php-memcached's getServerByKey names
  #
  # Dalli::Client builds its Dalli::Ring itself (a private method), so the way in is
  # Ketama::DalliClient, a Dalli::Client that builds this ring instead; every other option
  # is Dalli's. The ring is a Dalli::Ring whose `server_for_key` asks a Ketama::Ring: the
  # key it gets is the one Dalli sends (namespace and digest of long keys already applied).
  # When the server is down and Dalli's `failover` option is on (the default), the next
  # servers are those of the profile's failover sequence (dalli's own rehash for the `dalli`
  # profile, the next servers on the ring for libketama, ...), as many as Dalli tries (20);
  # `Dalli::RingError` when none is up, as Dalli raises.
  #
  # A server's label is its `host:port` (`[host]:port` for IPv6) and its weight Dalli's
  # weight (`"host:port:weight"`). `label:` (a callable taking the Dalli server) changes the
  # label: a UNIX socket server needs one, a profile's label is `host:port`.
  class DalliRing < ::Dalli::Ring
    # How many servers Dalli tries for a key before it gives up (Dalli::Ring's loop).
    TRIES = 20

    # The Ketama::Ring that places the keys (its labels are the servers' labels).
    attr_reader :ring

    # `servers`: Dalli's server objects (what Dalli::Ring.new takes); `options`: Dalli's
    # options (`failover`, `threadsafe`); `profile`, `hash`, and the ring's placement options
    # as for Ketama::Ring.new.
    def initialize(servers, options = {}, profile:, hash: nil, label: nil, **ring_options)
      # Dalli::Ring's state, set as its constructor sets it (without building its continuum).
      @servers = servers
      @continuum = nil
      threadsafe! unless options[:threadsafe] == false
      @failover = options[:failover] != false
      label_of = label || ->(s) { s.hostname.include?(':') ? "[#{s.hostname}]:#{s.port}" : "#{s.hostname}:#{s.port}" }
      entries = servers.map { |s| { label: Input.label(label_of.call(s), 'a server label'), weight: s.weight } }
      @ring = Ring.new(profile: profile, hash: hash, servers: entries, **ring_options)
      @by_label = entries.map { |e| e[:label] }.zip(servers).to_h
    end

    # The server for `key` that is up: the one the profile names, else (with failover) the
    # next one of the profile's failover sequence that is up; Dalli::RingError when none is.
    def server_for_key(key)
      first = @by_label.fetch(@ring.get(key))
      # alive? connects the socket as a side effect, as in Dalli::Ring.
      return first if first.alive?

      if @failover
        @ring.failover(key, TRIES).drop(1).each do |label|
          server = @by_label.fetch(label)
          return server if server.alive?
        end
      end
      raise ::Dalli::RingError, 'No server available'
    end
  end

  # A Dalli::Client whose keys are placed by a Ketama::DalliRing:
  # `Ketama::DalliClient.new(servers, profile: 'php-memcached', **dalli_options)`. `profile`,
  # `hash`, `label` and the ring's placement options (`hash_tag`, `prefix_key`,
  # `hash_with_prefix`) go to the ring, every other option to Dalli.
  class DalliClient < ::Dalli::Client
    RING_OPTIONS = %i[profile hash label hash_tag prefix_key hash_with_prefix].freeze

    def initialize(servers = nil, options = {})
      options = options.dup
      @ketama = RING_OPTIONS.each_with_object({}) { |k, h| h[k] = options.delete(k) if options.key?(k) }
      raise ArgumentError, 'Ketama::DalliClient needs a profile: option' unless @ketama[:profile]

      super(servers, options)
      ring # built now: a bad profile or server fails here, not at the first command
    end

    # The Ketama::DalliRing in use (Dalli builds a ring lazily, and again after #close).
    def ketama_ring
      ring
    end

    private

    # Dalli::Client#ring, building a Ketama::DalliRing in place of Dalli::Ring.
    def ring
      @ring ||= DalliRing.new(@servers.map { |s| protocol_implementation.new(s, @options) }, @options, **@ketama)
    end
  end
end
