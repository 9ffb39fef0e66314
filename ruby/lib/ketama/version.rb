# frozen_string_literal: true

module Ketama
  # The gem's version: the same as the library's (`Ketama.library_version`) and the
  # workspace's, checked by the test suite.
  VERSION = '0.1.0'
end
