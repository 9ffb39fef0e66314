# frozen_string_literal: true

require_relative '../ketama'

module Ketama
  # A ring for redis-rb's `Redis::Distributed` (its `ring:` option) that places keys the way
  # any profile's client does, so Ruby shares a sharded Redis fleet with programs that use
  # another client:
  #
  #   require 'redis'
  #   require 'ketama/redis_ring'
  #   redis = Redis::Distributed.new(%w[redis://10.0.1.1:6379 redis://10.0.1.2:6379],
  #                                  ring: Ketama::RedisRing.new(profile: 'libketama'))
  #   redis.set('user:1', 'Ada')   # on the server the libketama profile names
  #
  # It answers what Redis::Distributed asks of a ring: `add_node(node)` for each server
  # (`Redis::Distributed.new` and `#add_node` call it), `get_node(key)` (`#node_for`, after
  # redis-rb's own hash tag rule, `{...}` at the start of the key by default: its `tag:`
  # option), and `nodes`; also `remove_node(node)` and `iter_nodes(key)`, as redis-rb's
  # HashRing has them.
  #
  # A node's label is its `host:port` (`[host]:port` for IPv6) by default, its weight 1, and
  # it has no name. `label:`, `weight:` and `name:` (callables taking the node) change that:
  # e.g. `name: ->(node) { node.id }` for a profile that hashes a node name (a UNIX socket
  # node needs a `label:`, a profile's label is `host:port`).
  class RedisRing
    # The Redis nodes, in the order they were added.
    attr_reader :nodes
    # The Ketama::Ring that places the keys (its labels are the nodes' labels).
    attr_reader :ring

    # `profile`, `hash` and `options` as for Ketama::Ring.new; `nodes`: Redis clients to add.
    def initialize(nodes = [], profile:, hash: nil, label: nil, weight: nil, name: nil, **options)
      @ring = Ring.new(profile: profile, hash: hash, **options)
      @label_of = label || method(:default_label)
      @weight_of = weight || ->(_node) { 1 }
      @name_of = name || ->(_node) {}
      @nodes = []
      @by_label = {}
      @lock = Mutex.new
      nodes.each { |n| add_node(n) }
    end

    # Adds a node (a Redis client) at the end of the server order; its label must be new.
    def add_node(node)
      label = Input.label(@label_of.call(node), 'a node label')
      @lock.synchronize do
        raise DuplicateServerError.new(Error.text(DuplicateServerError.status_number, "node '#{label}'")) if @by_label.key?(label)

        # Mapped before it can be named by a lookup; unmapped again when the ring refuses it.
        @by_label[label] = node
        begin
          @ring.add(label, weight: @weight_of.call(node), name: @name_of.call(node))
        rescue StandardError
          @by_label.delete(label)
          raise
        end
        @nodes = [*@nodes, node].freeze
      end
      self
    end

    # Removes the node with `node`'s label (MissingServerError when there is none).
    def remove_node(node)
      label = Input.label(@label_of.call(node), 'a node label')
      @lock.synchronize do
        @ring.remove(label)
        gone = @by_label.delete(label)
        @nodes = @nodes.reject { |n| n.equal?(gone) }.freeze
      end
      self
    end

    # The node `key` goes to (EmptyRingError when there is none; KeyRejectedError and
    # NoServerError as Ring#get).
    def get_node(key)
      @by_label.fetch(@ring.get(key.to_s))
    end

    # Yields the nodes `key` would try in turn, primary first: the profile's failover order.
    def iter_nodes(key)
      return enum_for(:iter_nodes, key) unless block_given?

      @ring.get_n(key.to_s, @nodes.size).each { |label| yield @by_label.fetch(label) }
    end

    private

    # `host:port` of a redis-rb client (4.x and 5.x: `#connection`), bracketed for IPv6.
    def default_label(node)
      info = node.connection
      host = info[:host].to_s
      if info[:path] || host.empty?
        raise BadLabelError.new(Error.text(BadLabelError.status_number,
                                           "node '#{info[:location] || info[:id]}' has no host:port; give RedisRing a label:"))
      end
      host.include?(':') ? "[#{host}]:#{info[:port]}" : "#{host}:#{info[:port]}"
    end
  end
end
