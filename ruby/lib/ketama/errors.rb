# frozen_string_literal: true

module Ketama
  # The base class of every error this gem raises for a failed call into the library. Each
  # error of the core has its own subclass, named after the core's variant with `Error`
  # appended (`EmptyRingError`, `BadLabelError`, ...), whose message is the core's text,
  # followed by `": "` and what was refused when there is something to name.
  #
  # A status of the C layer that is no core error (a panic caught at the C boundary, an
  # internal error) raises this class itself. Wrong argument types raise Ruby's TypeError.
  class Error < StandardError
    # The library's status number (`KETAMA_STATUS_*`), or nil for an error made in Ruby.
    attr_reader :status

    def initialize(message = nil, status: nil)
      @status = status
      super(message)
    end

    # The core's variant name (`"EmptyRing"`), nil for this base class.
    def self.variant
      nil
    end

    # The library's text of `status`, then `": detail"` when there is a detail.
    def self.text(status, detail)
      base = Native.ketama_status_str(status).dup.force_encoding(Encoding::UTF_8)
      detail.nil? || detail.empty? ? base : "#{base}: #{detail}"
    end

    # The error for a failed status, its message the library's text (and the detail).
    def self.for_status(status, detail = nil)
      cls = Ketama.error_class(status) || Error
      cls.new(text(status, detail), status: status)
    end
  end

  # Statuses the C layer reports on its own, which are no core errors: they raise
  # Ketama::Error (this gem never passes a NULL pointer, text it has not checked, or an index
  # it has not bounded, so only a bug in ketama gives one).
  C_LAYER_STATUSES = %i[Ok NullArgument InvalidUtf8 IndexOutOfRange Panic Internal].freeze

  # One class per core error: name => class, in status order.
  ERRORS = STATUSES.each_with_object({}) do |(status, name), out|
    next if C_LAYER_STATUSES.include?(name)

    cls = Class.new(Error) do
      define_singleton_method(:variant) { name.to_s }
      define_method(:initialize) do |message = nil, status: nil|
        super(message || Error.text(self.class.status_number, nil), status: status || self.class.status_number)
      end
      define_singleton_method(:status_number) { status }
    end
    const_set(:"#{name}Error", cls)
    out[name.to_s] = cls
  end.freeze

  BY_STATUS = ERRORS.values.to_h { |cls| [cls.status_number, cls] }.freeze
  private_constant :BY_STATUS

  # The error class of a status number, nil for success and the C layer's own statuses.
  def self.error_class(status)
    BY_STATUS[status]
  end

  # Raises the error of a failed status (nothing for 0).
  def self.check(status, detail = nil)
    raise Error.for_status(status, detail) unless status.zero?
  end
end
