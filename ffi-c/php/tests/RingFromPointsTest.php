<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * Ring::fromPoints(): a ring rebuilt from another ring's own points places keys as it does
 * (named hash), a PHP callable hashes keys for the native search, and bad input or a change
 * gets its status.
 */
final class RingFromPointsTest extends TestCase
{
    private const SERVERS = ['10.0.0.1:11211' => 1, '10.0.0.2:11211' => 2, 'cache-3.example:11211' => 1];

    public function testPointsGivenBackMakeTheSameRing(): void
    {
        foreach (['libketama', 'flexihash', 'dalli', 'spymemcached'] as $profile) {
            $built = new Ring(self::SERVERS, $profile);
            $given = Ring::fromPoints($built->points(), null, $profile, array_keys(self::SERVERS));
            $this->assertSame($built->points(), $given->points(), $profile);
            for ($i = 0; $i < 200; $i++) {
                $this->assertSame($built->get("key:$i"), $given->get("key:$i"), "$profile key:$i");
                $this->assertSame($built->getN("key:$i", 2), $given->getN("key:$i", 2));
                $this->assertSame([$built->get("key:$i")], $given->getByHash($built->keyHash("key:$i")));
            }
        }
    }

    public function testCallableHashAndTheProfilesRules(): void
    {
        // flexihash's rule: first position above the hash, wrapping; later server wins a tie
        $ring = Ring::fromPoints([[100, 'a:1'], [200, 'b:1'], [200, 'c:1'], [300, 'a:1']], fn (string $k): int => (int) $k, 'flexihash');
        $this->assertSame('a:1', $ring->get('50'));
        $this->assertSame('c:1', $ring->get('150'));
        $this->assertSame('a:1', $ring->get('250'));
        $this->assertSame('a:1', $ring->get('300'));
        // b:1's only position is c:1's (flexihash's map gives a tie to the later target): no walk meets b:1
        $this->assertSame(['c:1', 'a:1'], $ring->getN('150', 5));
        $this->assertSame(['a:1', 'c:1'], $ring->getMany(['50', '150']));
        $this->assertSame(150, $ring->keyHash('150'));
        $this->assertSame([0, 2], $ring->indexesByHash(250, 2));
        $this->expectException(\UnexpectedValueException::class);
        $ring->get('-1');
    }

    public function testBadInputAndChanges(): void
    {
        $codes = [];
        $try = function (callable $f) use (&$codes): void {
            try {
                $f();
                $codes[] = 0;
            } catch (KetamaException $e) {
                $codes[] = $e->getCode();
            }
        };
        $try(fn () => Ring::fromPoints([]));
        $try(fn () => Ring::fromPoints([[1, 'a:1']], null, 'libketama', ['b:1']));
        $try(fn () => Ring::fromPoints([[1, 'a:1']], null, 'modula'));
        $try(fn () => Ring::fromPoints([[1, 'a:1']], 'nope'));
        $ring = Ring::fromPoints([[1, 'a:1'], [2, 'b:1']]);
        $try(fn () => $ring->add('c:1'));
        $try(fn () => $ring->remove('a:1'));
        $try(fn () => $ring->setWeight('a:1', 3));
        $try(fn () => $ring->addMany(['c:1' => 1, 'd:1' => 2]));
        $this->assertSame([
            KetamaException::EMPTY_RING, KetamaException::INDEX_OUT_OF_RANGE, KetamaException::NOT_A_CONTINUUM,
            KetamaException::UNKNOWN_HASH, KetamaException::FIXED_POINTS, KetamaException::FIXED_POINTS,
            KetamaException::FIXED_POINTS, KetamaException::FIXED_POINTS,
        ], $codes);
        $this->assertSame([['a:1', 1], ['b:1', 1]], $ring->servers());
        $this->assertSame([[1, 'a:1'], [2, 'b:1']], $ring->points());
        try {
            $ring->addMany(['c:1' => 1]);
            $this->fail('a ring from points took a change');
        } catch (KetamaException $e) {
            $this->assertStringContainsString('takes no changes', $e->getMessage());
        }
        $this->expectException(\InvalidArgumentException::class);
        Ring::fromPoints([[-1, 'a:1']]);
    }
}
