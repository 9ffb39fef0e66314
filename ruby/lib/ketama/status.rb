# frozen_string_literal: true

# GENERATED from include/ketama.h by ruby/gen-status.rb; do not edit.

module Ketama
  # The C library's status values (`ketama_status`, `KETAMA_STATUS_*`) by number, each named
  # as the C layer names it (`KETAMA_STATUS_EMPTY_RING` = 2 is `:EmptyRing`). 0 is success.
  STATUSES = {
    0 => :Ok,
    1 => :NullArgument,
    2 => :EmptyRing,
    3 => :NoServer,
    4 => :UnknownProfile,
    5 => :UnknownHash,
    6 => :AmbiguousHash,
    7 => :BadWeight,
    8 => :DuplicateServer,
    9 => :MissingServer,
    10 => :BadLabel,
    11 => :InvalidUtf8,
    12 => :KeyRejected,
    13 => :Unsupported,
    14 => :TooManyPoints,
    15 => :IndexOutOfRange,
    16 => :Panic,
    17 => :Internal,
    18 => :BadFactor,
    19 => :FixedPoints,
    20 => :NotAContinuum,
    21 => :NeedsKey,
    22 => :BadLoads,
    23 => :TooManyServers,
    24 => :UnknownAlgorithm,
    25 => :ZeroBuckets,
    26 => :TooManyBuckets,
    27 => :NoBucket,
    28 => :BadOption,
  }.freeze
end
