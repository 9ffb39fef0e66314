<?php

declare(strict_types=1);

namespace Ketama\Tests;

/**
 * memcached processes on 127.0.0.1 for a test: each on a free port, stopped by its own
 * process handle (never by name).
 */
final class MemcachedFleet
{
    /** @var array<string, resource> processes by label */
    private array $procs = [];

    /** Starts `$n` servers; their labels (`127.0.0.1:port`) in order. @return list<string> */
    public function start(int $n): array
    {
        $bin = getenv('MEMCACHED') ?: '/usr/bin/memcached';
        if (!is_executable($bin)) {
            throw new \RuntimeException("memcached not found at $bin (apt-get install memcached, or set MEMCACHED)");
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
            $cmd = [$bin, '-l', '127.0.0.1', '-p', (string) $port, '-U', '0', '-m', '16', '-t', '1'];
            if (function_exists('posix_geteuid') && posix_geteuid() === 0) {
                array_push($cmd, '-u', 'root');
            }
            $null = ['file', '/dev/null', 'w'];
            $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => $null], $pipes);
            if (!is_resource($p)) {
                throw new \RuntimeException("could not start $bin");
            }
            $label = "127.0.0.1:$port";
            $this->procs[$label] = $p;
            $deadline = microtime(true) + 10;
            while (($c = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.2)) === false) {
                if (microtime(true) > $deadline) {
                    throw new \RuntimeException("memcached on $port did not start");
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

    /**
     * One meta command's reply line from one server (`mg key t v`, ...): what a test uses to
     * see a key's remaining TTL, which no PHP client shows.
     */
    public static function meta(string $label, string $command): string
    {
        [$host, $port] = explode(':', $label);
        $c = fsockopen($host, (int) $port, $errno, $errstr, 2);
        if ($c === false) {
            throw new \RuntimeException("$label: $errstr");
        }
        stream_set_timeout($c, 2);
        fwrite($c, "$command\r\n");
        $line = (string) fgets($c);
        fclose($c);
        return rtrim($line, "\r\n");
    }
}
