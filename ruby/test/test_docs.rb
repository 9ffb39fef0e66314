# frozen_string_literal: true

require_relative 'test_helper'

# The Ruby examples of the documentation run, and each `# => "literal"` (or number) they
# state is what the line gives: the code blocks of ruby/README.md and of the README's Ruby
# section, and the usage examples in the gem's own comments. Lines that talk to a server
# (`.set(`) are left out.
class DocsTest < Minitest::Test
  def self.blocks(path, section = nil)
    text = File.read(path, encoding: 'UTF-8')
    text = text[/^### #{section}\n(.*?)(?=^### )/m, 1] || '' if section
    text.scan(/^```ruby\n(.*?)^```/m).map(&:first)
  end

  # The example lines of a source comment (`#   code`), as one block.
  def self.comment_block(path)
    [File.readlines(path).grep(/^\s*#   /).map { |l| l.sub(/^\s*#   /, '') }.join]
  end

  # The statements of a block: lines gathered until they parse.
  def statements(block)
    out = []
    pending = +''
    block.each_line do |line|
      next if line.include?('.set(')

      pending << line
      begin
        RubyVM::InstructionSequence.compile(pending)
      rescue SyntaxError
        next
      end
      out << pending
      pending = +''
    end
    assert_empty pending.strip, 'an example does not parse'
    out
  end

  def run_block(block)
    scope = binding
    checked = 0
    statements(block).each do |code|
      got = scope.eval(code)
      want = code.lines.last[/# => ("[^"]*"|\d+)(?:\s*$|\s+\()/, 1]
      next unless want

      assert_equal scope.eval(want), got, code
      checked += 1
    end
    checked
  end

  REPO = KetamaTest::REPO
  {
    'ruby_readme' => -> { blocks(File.join(REPO, 'ruby', 'README.md')) },
    'readme' => -> { blocks(File.join(REPO, 'README.md'), 'Ruby') },
    'lib_comments' => lambda {
      %w[ketama.rb ketama/ring.rb ketama/redis_ring.rb ketama/dalli_ring.rb].flat_map do |f|
        comment_block(File.join(REPO, 'ruby', 'lib', f))
      end
    }
  }.each do |name, source|
    define_method("test_examples_of_#{name}") do
      require 'redis'
      require 'redis/distributed'
      require 'ketama/redis_ring'
      require 'ketama/dalli_ring'
      found = self.class.instance_exec(&source)
      assert_operator found.size, :>=, 1, "no Ruby example found (#{name})"
      found.each { |block| run_block(block) }
    end
  end
end
