# frozen_string_literal: true

require_relative 'test_helper'
require 'fileutils'
require 'open3'
require 'tmpdir'

# How the gem finds libketama: KETAMA_LIB, then pkg-config, then the installed paths, then
# this source tree's build; a clear LoadError when there is none.
class LibraryTest < Minitest::Test
  def with_env(vars)
    saved = vars.keys.to_h { |k| [k, ENV[k]] }
    vars.each { |k, v| ENV[k] = v }
    yield
  ensure
    saved.each { |k, v| ENV[k] = v }
  end

  def test_the_loaded_library_is_the_one_asked_for
    if ENV['KETAMA_LIB'].to_s.empty?
      assert File.file?(Ketama.library_path)
    else
      assert_equal ENV['KETAMA_LIB'], Ketama.library_path
    end
  end

  def test_ketama_lib_names_the_file_and_no_other
    with_env('KETAMA_LIB' => '/nonexistent/libketama.so.0') do
      e = assert_raises(LoadError) { Ketama::Library.path }
      assert_includes e.message, 'KETAMA_LIB=/nonexistent/libketama.so.0'
    end
    with_env('KETAMA_LIB' => Ketama.library_path) { assert_equal Ketama.library_path, Ketama::Library.path }
  end

  def test_pkg_config_finds_a_library_under_any_prefix
    skip 'no pkg-config' unless system('pkg-config --version', out: File::NULL, err: File::NULL)
    template = File.join(KetamaTest::REPO, 'ffi-c', 'ketama.pc.in')
    skip 'not in the source tree' unless File.file?(template)
    Dir.mktmpdir do |prefix|
      lib = File.join(prefix, 'lib')
      FileUtils.mkdir_p(File.join(lib, 'pkgconfig'))
      FileUtils.ln_s(Ketama.library_path, File.join(lib, Ketama::Library::SONAME))
      pc = File.read(template).gsub('@PREFIX@', prefix).gsub('@LIBDIR@', lib)
                              .gsub('@INCLUDEDIR@', "#{prefix}/include").gsub('@VERSION@', Ketama::VERSION)
      File.write(File.join(lib, 'pkgconfig', 'ketama.pc'), pc)
      with_env('KETAMA_LIB' => nil, 'PKG_CONFIG_PATH' => File.join(lib, 'pkgconfig')) do
        assert_equal File.join(lib, Ketama::Library::SONAME), Ketama::Library.path
      end
    end
  end

  def test_nothing_found_is_a_load_error_saying_what_to_do
    empty = ->(*) { [] }
    with_env('KETAMA_LIB' => nil, 'PKG_CONFIG_PATH' => nil, 'PKG_CONFIG_LIBDIR' => '/nonexistent') do
      Ketama::Library.stub(:installed, empty) do
        Ketama::Library.stub(:repository, empty) do
          e = assert_raises(LoadError) { Ketama::Library.path }
          assert_match(/libketama not found .*KETAMA_LIB/, e.message)
        end
      end
    end
  end

  def test_standard_paths_include_the_debian_multiarch_directory
    assert_includes Ketama::Library.installed, '/usr/lib/libketama.so.0'
    assert_includes Ketama::Library.installed, '/usr/local/lib/libketama.so.0'
    Dir.glob('/usr/lib/*-linux-gnu*/').each do |dir|
      next unless File.file?(File.join(dir, Ketama::Library::SONAME))

      assert_includes Ketama::Library.installed, File.join(dir, Ketama::Library::SONAME)
    end
  end

  def test_require_fails_cleanly_without_the_library
    lib = File.expand_path('../lib', __dir__)
    _out, err, status = Open3.capture3({ 'KETAMA_LIB' => '/nonexistent/libketama.so' }, RbConfig.ruby,
                                       '-I', lib, '-e', 'require "ketama"')
    refute status.success?
    assert_includes err, 'libketama not found: KETAMA_LIB=/nonexistent/libketama.so is not a file'
  end
end
