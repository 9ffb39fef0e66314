# frozen_string_literal: true

# Shared set-up of the Ruby suite: minitest, the gem (from this tree, or the installed gem
# when KETAMA_TEST_INSTALLED=1), and the paths of the shared test data.
require 'json'
require 'minitest/autorun'
require 'minitest/mock'

$LOAD_PATH.unshift(File.expand_path('../lib', __dir__)) unless ENV['KETAMA_TEST_INSTALLED'] == '1'
require 'ketama'

module KetamaTest
  REPO = File.expand_path('../..', __dir__)
  VECTORS = ENV.fetch('KETAMA_VECTORS', File.join(REPO, 'tests', 'vectors'))

  module_function

  def load(path)
    JSON.parse(File.read(path, encoding: 'UTF-8'))
  end

  # A vector file's servers as the Ring takes them.
  def servers(vector)
    vector.fetch('servers', []).map do |s|
      { label: s['label'], weight: s.fetch('weight', 1), name: s['name'] }
    end
  end

  # A test method name for a file (minitest runs methods named test_*).
  def method_name(prefix, path)
    "test_#{prefix}_#{File.basename(path, '.json').gsub(/[^A-Za-z0-9]+/, '_')}"
  end

  # What a comparison found wrong, as one failure message: how many keys differ, a few
  # examples.
  def report(bad, total)
    "#{bad.size} of #{total} keys differ, e.g.\n#{bad.first(5).join("\n")}"
  end
end
