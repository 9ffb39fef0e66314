<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/** PHP input rules, getN bounds, getMany's shape, string labels. */
final class RingInputTest extends TestCase
{
    private function refused(int $code, string $needle, callable $f): void
    {
        try {
            $f();
        } catch (KetamaException $e) {
            $this->assertSame($code, $e->getCode(), $e->getMessage());
            $this->assertStringContainsString($needle, $e->getMessage());
            return;
        }
        $this->fail("expected KetamaException $code");
    }

    public function testGetNDoesNotAllocateForHugeN(): void
    {
        $ring = new Ring(['10.0.0.1:11211' => 1, '10.0.0.2:11211' => 1]);
        $before = memory_get_usage();
        $this->assertCount(2, $ring->getN('k', 10_000_000));
        $this->assertLessThan(1 << 20, memory_get_usage() - $before);
        $this->assertCount(2, $ring->getN('k', PHP_INT_MAX));
        $this->refused(KetamaException::EMPTY_RING, 'no servers', fn () => (new Ring())->getN('k', PHP_INT_MAX));
        $this->refused(KetamaException::INDEX_OUT_OF_RANGE, (string) PHP_INT_MAX, fn () => $ring->failover('k', PHP_INT_MAX));
    }

    public function testListsOfIntsAndIntKeysAreRefused(): void
    {
        $this->refused(KetamaException::BAD_LABEL, 'servers entry [0]', fn () => new Ring([5, 7]));
        $this->refused(KetamaException::BAD_LABEL, 'servers entry [5]', fn () => new Ring(['5' => 3]));
        $this->refused(KetamaException::BAD_LABEL, "no string 'label'", fn () => new Ring([['weight' => 2]]));
    }

    public function testNumericLabelsStayStrings(): void
    {
        $ring = new Ring(['5', '7', ['label' => '9', 'weight' => 2]]);
        $this->assertSame([['5', 1], ['7', 1], ['9', 2]], $ring->servers());
        $this->assertSame(['5', '7', '9'], $ring->labels());
        foreach ($ring->points() as [$point, $label]) {
            $this->assertIsString($label);
        }
        $this->assertIsString($ring->get('k'));
        $this->assertContainsOnly('string', $ring->getMany(['a', 'b']));
    }

    public function testWeightsAreNeverConverted(): void
    {
        foreach (['abc' => "'abc'", '3' => "'3'"] as $w => $shown) {
            $this->refused(KetamaException::BAD_WEIGHT, "server 'a:1' weight $shown", fn () => new Ring(['a:1' => (string) $w]));
        }
        $this->refused(KetamaException::BAD_WEIGHT, "server 'a:1' weight 2.9", fn () => new Ring(['a:1' => 2.9]));
        $this->refused(KetamaException::BAD_WEIGHT, "weight 2.9", fn () => new Ring(['a:1' => ['weight' => 2.9]]));
        $this->refused(KetamaException::BAD_WEIGHT, "weight true", fn () => new Ring(['a:1' => true]));
        $this->refused(KetamaException::BAD_WEIGHT, "weight -1", fn () => new Ring(['a:1' => -1]));
        $ring = new Ring(['a:1' => 2]);
        $this->refused(KetamaException::BAD_WEIGHT, "server 'b:1' weight 4294967296", fn () => $ring->add('b:1', 1 << 32));
        $this->assertSame([['a:1', 2]], $ring->servers());
    }

    public function testMessagesNameTheServer(): void
    {
        $ring = new Ring(['a:1' => 1]);
        $this->refused(KetamaException::DUPLICATE_SERVER, "server 'a:1'", fn () => $ring->add('a:1'));
        $this->refused(KetamaException::MISSING_SERVER, "server 'zz:1'", fn () => $ring->remove('zz:1'));
        $this->refused(KetamaException::MISSING_SERVER, "server 'zz:1'", fn () => $ring->setWeight('zz:1', 2));
        $this->refused(KetamaException::BAD_LABEL, "server 'b:port' weight 1 (entry 1)", fn () => $ring->addMany(['c:1' => 1, 'b:port' => 1]));
        $this->refused(KetamaException::BAD_LABEL, "server '\\xef\\xbb\\xbfd:1'", fn () => $ring->add("\u{feff}d:1"));
        $this->refused(KetamaException::BAD_WEIGHT, "server 'z:1' weight 0 (entry 0)", fn () => new Ring(['z:1' => 0], 'twemproxy'));
        $this->refused(KetamaException::DUPLICATE_SERVER, "one endpoint", fn () => $ring->addMany(['[::1]:11211' => 1, '[0:0::1]:11211' => 1]));
        $this->refused(KetamaException::DUPLICATE_SERVER, "server '[0:0::1]:11211'", fn () => (new Ring(['[::1]:11211']))->add('[0:0::1]:11211'));
        $long = str_repeat('x', 1000) . ':1';
        $this->refused(KetamaException::DUPLICATE_SERVER, '... (1002 bytes)', fn () => (new Ring([$long]))->add($long));
        $this->assertSame([['a:1', 1]], $ring->servers());
    }

    public function testGetManyKeepsEveryKeyAndItsType(): void
    {
        $ring = new Ring(['10.0.0.1:11211' => 1, '10.0.0.2:11211' => 1, '10.0.0.3:11211' => 1]);
        $keys = ['123', 'a', '123', 'b', 'a'];
        $got = $ring->getMany($keys);
        $this->assertSame(array_map([$ring, 'get'], $keys), $got);
        $this->assertSame([], $ring->getMany([]));
        $this->assertSame([$ring->get('123')], $ring->getMany([123])); // as get(123) takes it
        $this->expectException(\TypeError::class);
        $ring->getMany([null]);
    }
}
