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
  class Error < StandardError
    # The library's status number (`KETAMA_STATUS_*`), or nil for an error made in Ruby.
    attr_reader :status

    # `message` defaults to the library's text of the class's status.
    def initialize(message = nil, status: nil)
      own = self.class.status_number
      @status = status || own
      super(message || (own && Error.text(own, nil)))
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

    # The error for a failed status, its message the library's text (and the detail).
    def self.for_status(status, detail = nil)
      cls = Ketama.error_class(status) || Error
      cls.new(text(status, detail), status: status)
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

  # Raises the error of a failed status (nothing for 0).
  def self.check(status, detail = nil)
    raise Error.for_status(status, detail) unless status.zero?
  end
end
