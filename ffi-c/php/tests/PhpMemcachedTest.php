<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * The wrapper agrees 100% with php-memcached's getServerByKey (OPT_LIBKETAMA_COMPATIBLE,
 * servers added with weights) on 10,000 keys. No server is contacted: getServerByKey only
 * computes the placement.
 */
final class PhpMemcachedTest extends TestCase
{
    /** @return array<string, array{array<string, int>}> */
    public static function serverSets(): array
    {
        $skewed = [];
        $weights = [600, 300, 200, 350, 1000, 800, 950, 100, 1, 42, 7, 500];
        foreach ($weights as $i => $w) {
            $port = $i % 3 === 0 ? 11211 : 11211 + $i;
            $skewed[sprintf('10.0.%d.%d:%d', $i % 2, $i + 1, $port)] = $w;
        }
        $equal = [];
        for ($i = 1; $i <= 25; $i++) { // 25 equal servers: the 156-point case (libmemcached's float formula gives 156 points there; docs/client-notes.md)
            $equal["192.168.7.$i:11211"] = 1;
        }
        $names = ['cache1.example.lan:11211' => 3, 'cache2.example.lan:11212' => 1, 'cache3.example.lan:11211' => 2];
        return ['skewed-12' => [$skewed], 'equal-25' => [$equal], 'hostnames-3' => [$names]];
    }

    /**
     * @dataProvider serverSets
     * @param array<string, int> $servers
     */
    public function testAgreesWithPhpMemcached(array $servers): void
    {
        if (!extension_loaded('memcached')) {
            $this->fail('php-memcached is not installed (apt-get install php8.2-memcached)');
        }
        $mc = new \Memcached();
        $mc->setOption(\Memcached::OPT_LIBKETAMA_COMPATIBLE, true);
        foreach ($servers as $label => $weight) {
            [$host, $port] = explode(':', $label);
            $this->assertTrue($mc->addServer($host, (int) $port, $weight));
        }
        $ring = new Ring($servers, 'php-memcached');
        $keys = [];
        for ($i = 0; $i < 9990; $i++) {
            $keys[] = $i % 3 === 0 ? "user:$i" : md5("k$i");
        }
        array_push($keys, 'é', '日本語', '😀', "caf\u{e9}:1", str_repeat('x', 250), 'a b', 'VDEAAAAA', '0', 'key', 'Ünïcödé');
        $this->assertCount(10000, $keys);
        $differ = 0;
        $first = '';
        foreach ($keys as $key) {
            $s = $mc->getServerByKey($key);
            $want = $s === false ? null : $s['host'] . ':' . $s['port'];
            $got = $ring->get($key);
            if ($want !== $got) {
                if ($differ++ === 0) {
                    $first = sprintf('key %s: php-memcached %s, ketama %s', json_encode($key), $want, $got);
                }
            }
        }
        $this->assertSame(0, $differ, "$differ of 10000 keys differ; first: $first");
    }
}
