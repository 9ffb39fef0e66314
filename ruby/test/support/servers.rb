# frozen_string_literal: true

require 'ffi'
require 'fileutils'
require 'socket'
require 'tmpdir'

module KetamaTest
  # Live redis-server and memcached processes on 127.0.0.1 for the adapter tests: ports picked
  # at run time, each process tied to this one (it gets SIGKILL when the test process dies,
  # even by `kill -9`) and stopped by its PID when the test ends. KETAMA_REQUIRE_SERVERS=1
  # makes a missing server binary a failure instead of a skip.
  class Servers
    HOST = '127.0.0.1'
    PR_SET_PDEATHSIG = 1

    # prctl(2), to tie a child to this process.
    module Libc
      extend FFI::Library
      ffi_lib FFI::Library::LIBC
      attach_function :prctl, %i[int ulong ulong ulong ulong], :int
    end

    # The command line of a server on `port` (`dir`: a private scratch directory).
    COMMANDS = {
      'redis-server' => lambda do |port, dir|
        ['redis-server', '--bind', HOST, '--port', port.to_s, '--save', '', '--appendonly', 'no',
         '--dir', dir, '--protected-mode', 'no', '--daemonize', 'no']
      end,
      'memcached' => lambda do |port, _dir|
        ['memcached', '-l', HOST, '-p', port.to_s, '-U', '0', '-m', '16', '-t', '1', '-c', '64'] +
          (Process.euid.zero? ? %w[-u root] : []) # memcached refuses to run as root otherwise
      end
    }.freeze

    # The binary is there, or the test is skipped (failed under KETAMA_REQUIRE_SERVERS=1).
    def self.require!(test, binary)
      return if ENV.fetch('PATH', '').split(':').any? { |d| File.executable?(File.join(d, binary)) }

      test.flunk("#{binary} is not installed") if ENV['KETAMA_REQUIRE_SERVERS'] == '1'
      test.skip("#{binary} is not installed")
    end

    attr_reader :ports

    # Starts `count` servers of `binary`; yields the started set and stops every process
    # afterwards, whatever happens.
    def self.run(binary, count)
      servers = new(binary)
      count.times { servers.start }
      yield servers
    ensure
      servers&.stop_all
    end

    def initialize(binary)
      @binary = binary
      @dir = Dir.mktmpdir('ketama-ruby-')
      @pids = {}
      @ports = []
    end

    # Starts one more server on a free port (a few tries: a port picked free may be taken
    # before the server binds it).
    def start
      5.times do
        port = free_port
        pid = spawn(COMMANDS.fetch(@binary).call(port, @dir))
        if listening?(port, pid)
          @pids[port] = pid
          @ports << port
          return port
        end
        reap(pid)
      end
      raise "#{@binary} did not start (log: #{log})"
    end

    # `host:port` of each running server, in the order they were started.
    def labels
      @ports.map { |p| "#{HOST}:#{p}" }
    end

    # Stops the server on `port` (SIGTERM, then SIGKILL after 2 s) and waits for it.
    def stop(port)
      pid = @pids.delete(port) or return
      @ports.delete(port)
      reap(pid)
    end

    def stop_all
      @pids.keys.each { |port| stop(port) }
      FileUtils.remove_entry(@dir) if File.directory?(@dir)
    end

    private

    def log
      File.join(@dir, "#{@binary}.log")
    end

    def free_port
      server = TCPServer.new(HOST, 0)
      server.addr[1]
    ensure
      server&.close
    end

    def spawn(argv)
      fork do
        Libc.prctl(PR_SET_PDEATHSIG, Signal.list.fetch('KILL'), 0, 0, 0)
        out = File.open(log, 'a')
        $stdout.reopen(out)
        $stderr.reopen(out)
        exec(*argv)
      end
    end

    # Whether the server on `port` accepts connections within 10 s (false when it exited).
    def listening?(port, pid)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
      while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
        return false if Process.waitpid(pid, Process::WNOHANG)

        begin
          TCPSocket.new(HOST, port).close
          return true
        rescue SystemCallError
          sleep 0.05
        end
      end
      false
    end

    def reap(pid)
      Process.kill('TERM', pid)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 2
      until Process.waitpid(pid, Process::WNOHANG)
        if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
          Process.kill('KILL', pid)
          Process.waitpid(pid)
          break
        end
        sleep 0.02
      end
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end
  end
end
