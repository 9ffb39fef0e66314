<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Client;
use Ketama\Ring;
use Ketama\ServerException;
use PHPUnit\Framework\TestCase;

/**
 * Ketama\Client when servers fail, with both backends, on 127.0.0.1 only: a memcached killed
 * half way through a run of writes (every write to it raises ServerException naming it, no
 * other write does, misses stay misses), the opt-in failover mode, and a silent server (a
 * listening socket that never answers): one call waits at most the timeout, the calls after
 * it during the retry interval fail at once.
 */
final class ClientFailureTest extends TestCase
{
    /** @var array<string, resource> memcached processes by label */
    private array $procs = [];

    protected function tearDown(): void
    {
        foreach ($this->procs as $p) {
            proc_terminate($p, 9); // this process only (proc_open keeps its PID)
            proc_close($p);
        }
        $this->procs = [];
    }

    private static function freePort(): int
    {
        $s = stream_socket_server('tcp://127.0.0.1:0');
        self::assertNotFalse($s);
        $name = (string) stream_socket_get_name($s, false);
        fclose($s);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /** Starts one memcached on a free port; returns its label. */
    private function memcached(): string
    {
        $bin = getenv('MEMCACHED') ?: '/usr/bin/memcached';
        if (!is_executable($bin)) {
            self::fail("memcached not found at $bin (apt-get install memcached, or set MEMCACHED)");
        }
        $port = self::freePort();
        $cmd = [$bin, '-l', '127.0.0.1', '-p', (string) $port, '-U', '0', '-m', '16', '-t', '1'];
        if (function_exists('posix_geteuid') && posix_geteuid() === 0) {
            array_push($cmd, '-u', 'root');
        }
        $null = ['file', '/dev/null', 'w'];
        $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => $null], $pipes);
        self::assertIsResource($p);
        $label = "127.0.0.1:$port";
        $this->procs[$label] = $p;
        $deadline = microtime(true) + 10;
        while (($c = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.2)) === false) {
            self::assertLessThan($deadline, microtime(true), "memcached on $port did not start");
            usleep(20000);
        }
        fclose($c);
        return $label;
    }

    private function kill(string $label): void
    {
        proc_terminate($this->procs[$label], 9);
        proc_close($this->procs[$label]);
        unset($this->procs[$label]);
        usleep(100000);
    }

    /** @return array<string, array{string}> */
    public static function backends(): array
    {
        return ['php-memcached' => [Client::MEMCACHED], 'pecl memcache' => [Client::MEMCACHE]];
    }

    /** @dataProvider backends */
    public function testAKilledServerRaisesOnEveryCallToItAndOnNoOther(string $backend): void
    {
        $labels = [$this->memcached(), $this->memcached(), $this->memcached()];
        $client = Client::create($labels, 'libmemcached-weighted', null, $backend, ['retry' => 0]);
        $dead = $labels[1];
        $raised = $expected = 0;
        for ($i = 0; $i < 600; $i++) {
            $key = "k$i";
            if ($i === 300) {
                $this->kill($dead);
            }
            $toDead = $i >= 300 && $client->serverFor($key) === $dead;
            $expected += $toDead ? 1 : 0;
            try {
                $this->assertTrue($client->set($key, "v$i"), "set $key");
            } catch (ServerException $e) {
                $raised++;
                $this->assertSame($dead, $e->server());
                $this->assertSame(ServerException::SERVER_FAILED, $e->getCode());
                $this->assertStringContainsString($dead, $e->getMessage());
                $this->assertTrue($toDead, "$key is not on the dead server, yet: " . $e->getMessage());
            }
        }
        $this->assertGreaterThan(50, $expected);
        $this->assertSame($expected, $raised, 'every write to the killed server raises, and only those');
        // Reads and deletes on the dead server raise too; a miss on a live one is a miss.
        $onDead = $onLive = null;
        for ($i = 0; $onDead === null || $onLive === null; $i++) {
            $k = "other$i";
            $client->serverFor($k) === $dead ? $onDead = $k : $onLive = $k;
        }
        $this->assertSame('gone', $client->get($onLive, 'gone'));
        $this->assertFalse($client->delete($onLive));
        foreach ([fn () => $client->get($onDead), fn () => $client->delete($onDead), fn () => $client->getMulti([$onLive, $onDead])] as $call) {
            try {
                $call();
                $this->fail('a call to the dead server did not raise');
            } catch (ServerException $e) {
                $this->assertSame($dead, $e->server());
            }
        }
    }

    /** @dataProvider backends */
    public function testFailoverModeGoesOnAlongTheProfilesSequence(string $backend): void
    {
        $labels = [$this->memcached(), $this->memcached(), $this->memcached()];
        $client = Client::create($labels, 'libmemcached-weighted', null, $backend, ['failover' => true]);
        $dead = $labels[0];
        $this->kill($dead);
        $moved = 0;
        for ($i = 0; $i < 200; $i++) {
            $key = "f$i";
            $this->assertTrue($client->set($key, "v$i"));
            $this->assertSame("v$i", $client->get($key));
            $moved += $client->serverFor($key) === $dead ? 1 : 0;
        }
        $this->assertGreaterThan(20, $moved);
        $keys = array_map(fn ($i) => "f$i", range(0, 199));
        $this->assertCount(200, $client->getMulti($keys));
        // Every server down: the call raises.
        foreach ([$labels[1], $labels[2]] as $l) {
            $this->kill($l);
        }
        $this->expectException(ServerException::class);
        $client->set('f0', 'x');
    }

    /** @dataProvider backends */
    public function testASilentServerCostsOneTimeoutPerRetryInterval(string $backend): void
    {
        // Listening, never answering: the kernel completes the handshake, no reply ever comes.
        $silent = stream_socket_server('tcp://127.0.0.1:0');
        $this->assertNotFalse($silent);
        $label = (string) stream_socket_get_name($silent, false);
        $client = Client::create([$label], 'libmemcached-weighted', null, $backend, ['timeout' => 0.5, 'retry' => 30]);
        $costs = [];
        for ($i = 0; $i < 6; $i++) {
            $t = microtime(true);
            try {
                $client->get("k$i");
                $this->fail('a silent server gave an answer');
            } catch (ServerException $e) {
                $this->assertSame($label, $e->server());
            }
            $costs[] = microtime(true) - $t;
        }
        fclose($silent);
        $this->assertLessThan(1.5, $costs[0], 'first call: at most the timeout (0.5 s) and some slack');
        for ($i = 1; $i < 6; $i++) {
            $this->assertLessThan(0.05, $costs[$i], "call $i during the retry interval must fail at once");
        }
        fwrite(STDERR, sprintf("\n  silent server, $backend: first call %.2f s, next %.4f s (timeout 0.5 s)\n", $costs[0], max(array_slice($costs, 1))));
    }

    /** @dataProvider backends */
    public function testTheDefaultTimeoutIsTwoSeconds(string $backend): void
    {
        $silent = stream_socket_server('tcp://127.0.0.1:0');
        $this->assertNotFalse($silent);
        $label = (string) stream_socket_get_name($silent, false);
        $client = new Client(new Ring([$label], 'libmemcached-weighted'), $backend);
        $t = microtime(true);
        try {
            $client->set('k', 'v');
            $this->fail('a silent server stored a value');
        } catch (ServerException $e) {
            $this->assertSame($label, $e->server());
        }
        $cost = microtime(true) - $t;
        fclose($silent);
        $this->assertLessThan(3.0, $cost, 'a silent server costs at most the 2 s default timeout (and slack)');
        fwrite(STDERR, sprintf("\n  silent server, $backend, default timeout: %.2f s\n", $cost));
    }

    public function testOptionsAreChecked(): void
    {
        $ring = new Ring(['127.0.0.1:1']);
        foreach ([['timeout' => 0], ['retry' => -1], ['retry' => 1.5], ['nope' => 1]] as $bad) {
            try {
                new Client($ring, Client::MEMCACHED, $bad);
                $this->fail('accepted ' . json_encode($bad));
            } catch (\InvalidArgumentException $e) {
                $this->addToAssertionCount(1);
            }
        }
    }
}
