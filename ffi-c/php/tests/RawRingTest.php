<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\RawRing;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/** `Ketama\RawRing`: core's continuum over raw node names through FFI. */
final class RawRingTest extends TestCase
{
    public function testLabelsARingTakesPlaceAsTheRing(): void
    {
        $servers = ['10.0.0.1:11211' => 3, '10.0.0.2:11211' => 1, 'cache3' => 2];
        foreach (['libketama' => null, 'flexihash' => 'md5_be', 'hash_ring' => null] as $profile => $hash) {
            $ring = new Ring($servers, $profile, $hash);
            $raw = new RawRing(array_map(null, array_keys($servers), array_values($servers)), $profile, $hash);
            $labels = array_keys($servers);
            $this->assertSame(count($ring->points()), count($raw));
            $this->assertSame(3, $raw->serverCount());
            for ($k = 0; $k < 500; $k++) {
                $this->assertSame($ring->get("key:$k"), $labels[$raw->get("key:$k")]);
                $this->assertSame($ring->getN("key:$k", 2), array_map(fn ($i) => $labels[$i], $raw->getN("key:$k", 2)));
            }
            $this->assertSame(
                array_map(fn ($p) => [$p[0], $p[1]], $ring->points()),
                array_map(fn ($p) => [$p[0], $labels[$p[1]]], $raw->points())
            );
        }
    }

    public function testRepeatedAndRawNames(): void
    {
        $raw = new RawRing([['10.0.0.1:11211', 100], ['10.0.0.1:11211', 100], ["\xff\xfe:1", 50]]);
        $this->assertSame(4 * (48 + 48 + 24), count($raw));
        $owners = array_count_values(array_column($raw->points(), 1));
        $this->assertSame([0 => 192, 1 => 192, 2 => 96], $owners + [], 'each copy its own points');
        $counted = new RawRing([['a b', 64], ['c', 128]], 'flexihash', null, true);
        $weighted = new RawRing([['a b', 1], ['c', 2]], 'flexihash');
        $this->assertSame($weighted->points(), $counted->points());
        $this->assertSame([], (new RawRing([['a', 3]], 'flexihash', null, true))->getN('k', 0));
    }

    public function testErrors(): void
    {
        $cases = [
            [fn () => new RawRing([['a', 1]], 'nope'), KetamaException::UNKNOWN_PROFILE],
            [fn () => new RawRing([['a', 1]], 'libketama', 'nope'), KetamaException::UNKNOWN_HASH],
            [fn () => new RawRing([], 'libketama'), KetamaException::EMPTY_RING],
            [fn () => new RawRing([['a', 1], ['b', 0]], 'libketama'), KetamaException::BAD_WEIGHT],
            [fn () => new RawRing([['a', -1]], 'libketama'), KetamaException::BAD_WEIGHT],
            [fn () => new RawRing([['a', 1]], 'modula'), KetamaException::NOT_A_CONTINUUM],
            [fn () => (new RawRing([['a', 0]], 'flexihash', null, true))->get('k'), KetamaException::NO_SERVER],
        ];
        foreach ($cases as $i => [$f, $code]) {
            try {
                $f();
                $this->fail("case $i: no exception");
            } catch (KetamaException $e) {
                $this->assertSame($code, $e->getCode(), "case $i: " . $e->getMessage());
            }
        }
    }
}
