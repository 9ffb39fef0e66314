# frozen_string_literal: true

module Ketama
  # The base class of every error this gem raises for a failed call into the library. Each
  # error of the core has its own subclass, named after the core's variant with `Error`
  # appended (`EmptyRingError`, `BadLabelError`, ...), whose message is the core's text,
  # followed by `": "` and what was refused when there is something to name. The subclasses
  # are generated from spec/errors.json (error_classes.rb).
  #
  # A status of the C layer that is no core error (a panic caught at the C boundary, an
  # internal error) raises this class itself. Wrong argument types raise Ruby's TypeError.
  #
  # When one server of the input is to blame (its label, weight or endpoint), `server_label`
  # names it and `server_index` is its place in the list given (nil when the call took a
  # single server); both are nil otherwise.
  class Error < StandardError
    # The errors that blame one server input when a call that took servers fails.
    SERVER_VARIANTS = %w[BadWeight DuplicateServer MissingServer BadLabel Unsupported InvalidUtf8].freeze

    # The library's status number (`KETAMA_STATUS_*`), or nil for an error made in Ruby.
    attr_reader :status
    # The place of the server to blame in the list given, when a list was given; else nil.
    attr_reader :server_index
    # The label of the server to blame, when one server is to blame; else nil.
    attr_reader :server_label

    # `message` defaults to the library's text of the class's status.
    def initialize(message = nil, status: nil, server_index: nil, server_label: nil)
      own = self.class.status_number
      @status = status || own
      @server_index = server_index
      @server_label = server_label
      super(message || (own && Error.text(own, nil)))
    end

    # Whether this error is one that blames a server input (see SERVER_VARIANTS).
    def self.blames_server?
      SERVER_VARIANTS.include?(variant)
    end

    # Names the server input to blame, where it was not named yet (an error raised for a
    # server of a list learns its place there); returns self.
    def blame(server_index: nil, server_label: nil)
      @server_index = server_index if @server_index.nil?
      @server_label = server_label if @server_label.nil?
      self
    end

    # The core's variant name (`"EmptyRing"`), nil for this base class.
    def self.variant
      nil
    end

    # The status number of the class's core error, nil for this base class.
    def self.status_number
      nil
    end

    # Makes this class the one of core error `name`, C status `status` (each generated class
    # calls it once).
    def self.core_error(name, status)
      define_singleton_method(:variant) { name }
      define_singleton_method(:status_number) { status }
    end
    private_class_method :core_error

    # The library's text of `status`, then `": detail"` when there is a detail.
    def self.text(status, detail)
      base = Native.ketama_status_str(status).dup.force_encoding(Encoding::UTF_8)
      detail.nil? || detail.empty? ? base : "#{base}: #{detail}"
    end

    # The error for a failed status, its message the library's text (and the detail);
    # `server_index` and `server_label` are kept when the error blames a server input.
    def self.for_status(status, detail = nil, server_index: nil, server_label: nil)
      cls = Ketama.error_class(status) || Error
      err = cls.new(text(status, detail), status: status)
      cls.blames_server? ? err.blame(server_index: server_index, server_label: server_label) : err
    end
  end
end

require_relative 'error_classes'

module Ketama
  BY_STATUS = ERRORS.values.to_h { |cls| [cls.status_number, cls] }.freeze
  private_constant :BY_STATUS

  # The error class of a status number, nil for success and the C layer's own statuses.
  def self.error_class(status)
    BY_STATUS[status]
  end

  # Raises the error of a failed status (nothing for 0), naming the server input to blame
  # when the error is one's (Error#server_index, Error#server_label).
  def self.check(status, detail = nil, server_index: nil, server_label: nil)
    raise Error.for_status(status, detail, server_index: server_index, server_label: server_label) unless status.zero?
  end
end
