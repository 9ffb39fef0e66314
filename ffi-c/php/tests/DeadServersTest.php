<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * Every dead-server recording (tests/vectors/extra/*-dead-*.json, from the real clients with the
 * listed servers down) through Ring::locateAlive().
 */
final class DeadServersTest extends TestCase
{
    /** @return array<string, array{string}> */
    public static function deadFiles(): array
    {
        $dir = (getenv('KETAMA_VECTORS') ?: dirname(__DIR__, 3) . '/tests/vectors') . '/extra';
        $out = [];
        foreach (glob("$dir/*-dead-*.json") ?: [] as $f) {
            $out[basename($f)] = [$f];
        }
        return $out;
    }

    public function testDeadFilesAreThere(): void
    {
        $this->assertGreaterThanOrEqual(20, count(self::deadFiles()));
    }

    /** @dataProvider deadFiles */
    public function testDeadFile(string $file): void
    {
        $v = json_decode((string) file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);
        $this->assertSame('dead', $v['kind']);
        $servers = [];
        foreach ($v['servers'] as $s) {
            $servers[] = ['label' => $s['label'], 'weight' => $s['weight'] ?? 1];
        }
        $ring = new Ring($servers, $v['profile'], $v['hash'] ?? null);
        $bad = [];
        foreach ($v['keys'] as $i => $key) {
            try {
                $got = $ring->locateAlive($key, $v['dead']);
            } catch (KetamaException $e) {
                if ($e->getCode() !== KetamaException::KEY_REJECTED) {
                    throw $e;
                }
                $got = null;
            }
            if ($got !== $v['expect'][$i]) {
                $bad[] = json_encode([$key, $v['expect'][$i], $got]);
            }
        }
        $this->assertSame([], array_slice($bad, 0, 5), count($bad) . ' keys differ');
    }

    public function testUnknownDeadLabelIsRefused(): void
    {
        $ring = new Ring(['10.0.0.1:11211', '10.0.0.2:11211'], 'dalli');
        $this->assertSame($ring->get('k'), $ring->locateAlive('k', []));
        $this->expectException(KetamaException::class);
        $this->expectExceptionCode(KetamaException::MISSING_SERVER);
        $ring->locateAlive('k', ['10.0.0.9:11211']);
    }
}
