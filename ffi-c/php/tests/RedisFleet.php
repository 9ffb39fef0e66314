<?php

declare(strict_types=1);

namespace Ketama\Tests;

/**
 * redis-server processes on 127.0.0.1 for a test: each on a free port, nothing saved to
 * disk, stopped by its own process handle (never by name).
 */
final class RedisFleet
{
    /** @var array<string, resource> processes by label */
    private array $procs = [];

    /** Starts `$n` servers; their labels (`127.0.0.1:port`) in order. @return list<string> */
    public function start(int $n): array
    {
        $bin = getenv('REDIS_SERVER') ?: '/usr/bin/redis-server';
        if (!is_executable($bin)) {
            throw new \RuntimeException("redis-server not found at $bin (apt-get install redis-server, or set REDIS_SERVER)");
        }
        $labels = [];
        for ($i = 0; $i < $n; $i++) {
            $s = stream_socket_server('tcp://127.0.0.1:0');
            if ($s === false) {
                throw new \RuntimeException('no free port on 127.0.0.1');
            }
            $name = (string) stream_socket_get_name($s, false);
            fclose($s);
            $port = (int) substr($name, strrpos($name, ':') + 1);
            $cmd = [$bin, '--bind', '127.0.0.1', '--port', (string) $port, '--save', '', '--appendonly', 'no',
                '--daemonize', 'no', '--loglevel', 'warning', '--dir', sys_get_temp_dir()];
            $null = ['file', '/dev/null', 'w'];
            $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => $null], $pipes);
            if (!is_resource($p)) {
                throw new \RuntimeException("could not start $bin");
            }
            $label = "127.0.0.1:$port";
            $this->procs[$label] = $p;
            $deadline = microtime(true) + 10;
            while (($c = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.2)) === false) {
                if (microtime(true) > $deadline || !proc_get_status($p)['running']) {
                    throw new \RuntimeException("redis-server on $port did not start");
                }
                usleep(20000);
            }
            fclose($c);
            $labels[] = $label;
        }
        return $labels;
    }

    /** Stops every server this fleet started. */
    public function stop(): void
    {
        foreach ($this->procs as $p) {
            proc_terminate($p, 9); // this process only (proc_open keeps its PID)
            proc_close($p);
        }
        $this->procs = [];
    }
}
