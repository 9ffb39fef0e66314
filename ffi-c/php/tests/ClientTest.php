<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Client;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * Ketama\Client against three real memcached processes on 127.0.0.1 (free ports, started
 * here, stopped by their PIDs after the class): keys set through the client sit on the server
 * the ring names (each server is asked directly), and get/getMulti/delete find them, with
 * both backends (php-memcached and pecl memcache) and across them.
 */
final class ClientTest extends TestCase
{
    /** @var list<resource> */
    private static array $procs = [];
    /** @var list<string> */
    private static array $labels = [];

    public static function setUpBeforeClass(): void
    {
        $bin = getenv('MEMCACHED') ?: '/usr/bin/memcached';
        if (!is_executable($bin)) {
            self::fail("memcached not found at $bin (apt-get install memcached, or set MEMCACHED)");
        }
        for ($i = 0; $i < 3; $i++) {
            $s = stream_socket_server('tcp://127.0.0.1:0');
            self::assertNotFalse($s);
            $name = (string) stream_socket_get_name($s, false);
            fclose($s);
            $port = (int) substr($name, strrpos($name, ':') + 1);
            $cmd = [$bin, '-l', '127.0.0.1', '-p', (string) $port, '-U', '0', '-m', '16', '-t', '1'];
            if (function_exists('posix_geteuid') && posix_geteuid() === 0) {
                $cmd[] = '-u';
                $cmd[] = 'root';
            }
            $null = ['file', '/dev/null', 'w'];
            $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $null, 2 => $null], $pipes);
            self::assertIsResource($p);
            self::$procs[] = $p;
            self::$labels[] = "127.0.0.1:$port";
            $deadline = microtime(true) + 10;
            while (($c = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.2)) === false) {
                self::assertLessThan($deadline, microtime(true), "memcached on $port did not start");
                usleep(20000);
            }
            fclose($c);
        }
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$procs as $p) {
            proc_terminate($p, 9); // this process only (proc_open keeps its PID)
            proc_close($p);
        }
        self::$procs = [];
    }

    /** Every key's holders, asking each server alone. @return array<string, list<string>> */
    private static function holders(array $keys): array
    {
        $where = [];
        foreach (self::$labels as $label) {
            [$host, $port] = Client::hostPort($label);
            $m = new \Memcached();
            $m->addServer($host, $port);
            foreach (array_keys($m->getMulti($keys) ?: []) as $k) {
                $where[(string) $k][] = $label;
            }
        }
        return $where;
    }

    /** @return array<string, array{string, string}> */
    public static function backends(): array
    {
        return [
            'php-memcached, spymemcached placement' => [Client::MEMCACHED, 'spymemcached'],
            'pecl memcache, xmemcached placement' => [Client::MEMCACHE, 'xmemcached'],
            'php-memcached, twemproxy placement' => [Client::MEMCACHED, 'twemproxy'],
        ];
    }

    /** @dataProvider backends */
    public function testKeysLandWhereTheRingSaysAndComeBack(string $backend, string $profile): void
    {
        $client = Client::create(self::$labels, $profile, null, $backend);
        $run = bin2hex(random_bytes(4));
        $keys = [];
        for ($i = 0; $i < 600; $i++) {
            // Varied tails: twemproxy's fnv1a_64 places keys that differ only in their last
            // digits in coarse groups, which can leave a server of three without any.
            $keys[] = "$run:user:$i:" . substr(md5((string) $i), 0, 8);
        }
        if ($backend === Client::MEMCACHE) { // php-memcached refuses bytes over 0x7e in keys
            $keys[] = "$run:caf\u{e9}";
            $keys[] = "$run:日本語";
        }
        foreach ($keys as $k) {
            $this->assertTrue($client->set($k, "v:$k"), "set $k");
        }
        $where = self::holders($keys);
        $used = [];
        foreach ($keys as $k) {
            $this->assertSame([$client->serverFor($k)], $where[$k] ?? [], "holder of $k");
            $used[$client->serverFor($k)] = true;
        }
        $this->assertCount(3, $used, 'every server holds some keys');

        $this->assertSame("v:$keys[5]", $client->get($keys[5]));
        $got = $client->getMulti(array_merge(["$run:absent"], $keys));
        $this->assertSame($keys, array_keys($got));
        foreach ($keys as $k) {
            $this->assertSame("v:$k", $got[$k]);
        }
        $this->assertSame('dflt', $client->get("$run:absent", 'dflt'));

        $this->assertTrue($client->delete($keys[0]));
        $this->assertFalse($client->delete($keys[0]));
        $this->assertNull($client->get($keys[0]));
        $this->assertArrayNotHasKey($keys[0], self::holders([$keys[0]]));
    }

    public function testBackendsReadEachOther(): void
    {
        $ring = new Ring(self::$labels, 'php-memcached');
        $a = new Client($ring, Client::MEMCACHED);
        $b = new Client($ring, Client::MEMCACHE);
        $run = bin2hex(random_bytes(4));
        for ($i = 0; $i < 200; $i++) {
            $this->assertTrue($a->set("$run:a$i", "x$i"));
            $this->assertTrue($b->set("$run:b$i", "y$i"));
        }
        for ($i = 0; $i < 200; $i++) {
            $this->assertSame("x$i", $b->get("$run:a$i"));
            $this->assertSame("y$i", $a->get("$run:b$i"));
        }
        // And php-memcached's own distribution (OPT_LIBKETAMA_COMPATIBLE) finds them too.
        $m = new \Memcached();
        $m->setOption(\Memcached::OPT_LIBKETAMA_COMPATIBLE, true);
        foreach (self::$labels as $label) {
            [$host, $port] = Client::hostPort($label);
            $m->addServer($host, $port);
        }
        $this->assertSame('x7', $m->get("$run:a7"));
        $this->assertSame('y9', $m->get("$run:b9"));
    }

    public function testStoredFalseIsNotAMissAndRefusedKeysFail(): void
    {
        $client = Client::create(self::$labels, 'php-memcached');
        $run = bin2hex(random_bytes(4));
        $this->assertTrue($client->set("$run:f", false));
        $this->assertFalse($client->get("$run:f", 'miss'));
        $long = str_repeat('k', 251); // libmemcached refuses keys over 250 bytes
        $this->assertNull($client->serverFor($long));
        $this->assertFalse($client->set($long, 1));
        $this->assertSame('miss', $client->get($long, 'miss'));
        $this->assertFalse($client->delete($long));
    }

    public function testLabelsAndBackends(): void
    {
        $this->assertSame(['10.0.0.1', 11212], Client::hostPort('10.0.0.1:11212'));
        $this->assertSame(['cache1', 11211], Client::hostPort('cache1'));
        $this->assertSame(['::1', 11300], Client::hostPort('[::1]:11300'));
        $this->assertSame(['::1', 11211], Client::hostPort('::1'));
        $this->expectException(\InvalidArgumentException::class);
        new Client(new Ring(['a:1']), 'redis');
    }
}
