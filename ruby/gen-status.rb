#!/usr/bin/env ruby
# frozen_string_literal: true

# Writes ruby/lib/ketama/status.rb, the C library's status values, from the `ketama_status`
# enum of include/ketama.h (the header cbindgen generates from ffi-c/src/status.rs).
#   ruby ruby/gen-status.rb            regenerate it
#   ruby ruby/gen-status.rb --check    fail if the committed file is stale
here = File.expand_path(__dir__)
header = File.join(here, '..', 'include', 'ketama.h')
out = File.join(here, 'lib', 'ketama', 'status.rb')

enum = File.read(header)[/typedef enum ketama_status \{(.*?)\} ketama_status;/m, 1]
abort "gen-status: no ketama_status enum in #{header}" unless enum
statuses = enum.scan(/^\s*KETAMA_STATUS_([A-Z0-9_]+) = (\d+),/).map do |name, value|
  [Integer(value), name.split('_').map(&:capitalize).join]
end
abort 'gen-status: the enum has no values' if statuses.empty?

rows = statuses.map { |value, name| "    #{value} => :#{name}," }.join("\n")
text = <<~RUBY
  # frozen_string_literal: true

  # GENERATED from include/ketama.h by ruby/gen-status.rb; do not edit.

  module Ketama
    # The C library's status values (`ketama_status`, `KETAMA_STATUS_*`) by number, each named
    # as the C layer names it (`KETAMA_STATUS_EMPTY_RING` = 2 is `:EmptyRing`). 0 is success.
    STATUSES = {
  #{rows}
    }.freeze
  end
RUBY

if ARGV.first == '--check'
  fresh = File.exist?(out) && File.read(out) == text
  warn "stale: #{out} (run ruby ruby/gen-status.rb)" unless fresh
  exit(fresh ? 0 : 1)
end
File.write(out, text)
puts "gen-status: #{statuses.size} statuses written to #{out}"
