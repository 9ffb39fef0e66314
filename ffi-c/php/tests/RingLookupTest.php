<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * The fast lookup paths: get() maps the server index the library returns
 * (ketama_ring_lookup_str, the key's length in the high half) through a label array kept on
 * the PHP side, getMany() makes one joined call. Each answer is checked against getN($key, 1), which takes the label straight
 * from the library, so a stale label array or a wrong index shows.
 */
final class RingLookupTest extends TestCase
{
    /** @return list<string> */
    private static function keys(int $n): array
    {
        $keys = [];
        for ($i = 0; $i < $n; $i++) {
            $keys[] = "user:$i:profile";
        }
        return $keys;
    }

    private function assertAgrees(Ring $ring, array $keys): void
    {
        $many = $ring->getMany($keys);
        $this->assertCount(count($keys), $many);
        foreach ($keys as $i => $key) {
            $direct = $ring->getN($key, 1)[0];
            $this->assertSame($direct, $ring->get($key), "get($key)");
            $this->assertSame($direct, $many[$i], "getMany()[$i]");
        }
    }

    public function testGetAndGetManyFollowEveryChange(): void
    {
        $servers = [];
        for ($i = 1; $i <= 20; $i++) {
            $servers["10.0.0.$i:11211"] = 1 + $i % 3;
        }
        $ring = new Ring($servers, 'php-memcached');
        $keys = self::keys(300);
        $this->assertAgrees($ring, $keys);
        $ring->add('10.0.1.1:11211', 5);
        $this->assertAgrees($ring, $keys);
        $ring->remove('10.0.0.1:11211'); // every index after it moves down by one
        $this->assertAgrees($ring, $keys);
        $ring->setWeight('10.0.0.7:11211', 9);
        $this->assertAgrees($ring, $keys);
        $ring->addMany(['10.0.2.1:11211' => 1, '10.0.2.2:11211' => 2]);
        $this->assertAgrees($ring, $keys);
        $this->assertContains($ring->get('user:1:profile'), $ring->labels());
    }

    public function testBatchesLargerThanTheRing(): void
    {
        // the answer buffer holds every key's label: long labels, many keys, one server
        $ring = new Ring(['a-very-long-host-name.cache.internal.example.com:11211'], 'libketama');
        $keys = self::keys(3000);
        $many = $ring->getMany($keys);
        $this->assertSame(array_fill(0, count($keys), 'a-very-long-host-name.cache.internal.example.com:11211'), $many);
        $ring->add('b:1');
        $this->assertAgrees($ring, $keys);
    }

    public function testOddKeys(): void
    {
        $ring = new Ring(['10.0.0.1:11211', '10.0.0.2:11211', '10.0.0.3:11211'], 'libketama');
        $keys = ['', "a\0b", "a\0c", str_repeat('x', 1000), "\xff\xfe", 'é'];
        $this->assertAgrees($ring, $keys);
    }

    public function testKeysCutShortByANulByte(): void
    {
        // get() passes the key NUL-terminated and checks the length the library saw: a key
        // with a NUL byte inside takes the slow path and is looked up whole, never as its
        // prefix (keys chosen so that the prefix goes to another server).
        $servers = [];
        for ($i = 1; $i <= 40; $i++) {
            $servers[] = "10.0.0.$i:11211";
        }
        $ring = new Ring($servers, 'php-memcached');
        $seen = 0;
        for ($i = 0; $seen < 20 && $i < 2000; $i++) {
            $key = "k$i\0tail";
            $whole = $ring->getN($key, 1)[0];
            if ($whole === $ring->get("k$i")) {
                continue;
            }
            $seen++;
            $this->assertSame($whole, $ring->get($key), "get(k$i\\0tail)");
            $this->assertSame([$whole, $whole], $ring->getMany(['a' => $key, 'b' => $key]));
        }
        $this->assertSame(20, $seen);
    }

    public function testGetManyTakesAnyIterable(): void
    {
        $ring = new Ring(['10.0.0.1:11211', '10.0.0.2:11211'], 'libmemcached');
        $keys = self::keys(50);
        $gen = (function () use ($keys) {
            yield from $keys;
        })();
        $this->assertSame($ring->getMany($keys), $ring->getMany($gen));
        $this->assertSame($ring->getMany($keys), $ring->getMany(new \ArrayIterator($keys)));
        $this->assertSame([], $ring->getMany([]));
        $this->assertSame([$ring->get('7')], $ring->getMany([7]));
        // any value a (string) cast accepts, in an array (no copy) and through an iterator
        $obj = new class () {
            public function __toString(): string
            {
                return 'user:obj';
            }
        };
        $mixed = [7, 1.5, true, $obj, 'user:1', "x\0y"];
        $want = [];
        foreach ($mixed as $v) {
            $want[] = $ring->get((string) $v);
        }
        $this->assertSame($want, $ring->getMany($mixed));
        $this->assertSame($want, $ring->getMany(new \ArrayIterator($mixed)));
        array_pop($mixed); // without the NUL key: the joined batch
        array_pop($want);
        $this->assertSame($want, $ring->getMany($mixed));
        $this->assertSame($want, $ring->getMany(['a' => 7, 'b' => 1.5, 'c' => true, 'd' => $obj, 'e' => 'user:1']));
    }

    public function testRefusalsThroughTheIndexCall(): void
    {
        $empty = new Ring([], 'libketama');
        try {
            $empty->get('k');
            $this->fail('an empty ring must throw');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::EMPTY_RING, $e->getCode());
        }
        $x = new Ring(['10.0.0.1:11211', '10.0.0.2:11211'], 'xmemcached', 'KETAMA_HASH');
        try {
            $x->get('');
            $this->fail('xmemcached refuses the empty key');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::KEY_REJECTED, $e->getCode());
        }
        // the batch reports the refused key as null and still answers the others
        $many = $x->getMany(['', 'k']); // NUL-joined batch
        $this->assertNull($many[0]);
        $this->assertSame($x->get('k'), $many[1]);
        $this->assertSame([null], $x->getMany([''])); // one empty key: the packed batch
        $many = $x->getMany(['', "k\0", 'k']); // a key with a NUL byte: the packed batch
        $this->assertNull($many[0]);
        $this->assertSame($x->get("k\0"), $many[1]);
        $this->assertSame($x->get('k'), $many[2]);
        $seed = new Ring(['10.0.0.1:11211'], 'flexihash-seed');
        try {
            $seed->get('apple');
            $this->fail('flexihash-seed has no server for apple');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::NO_SERVER, $e->getCode());
        }
    }
}
