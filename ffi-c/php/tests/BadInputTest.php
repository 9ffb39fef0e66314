<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * The shared bad-input matrix (tests/bad-input.json) through the PHP binding: each
 * case throws its typed error (or succeeds), names the input where the table says so, and a
 * failed call leaves the ring as it was. The same table is read by the Rust, C and Python tests.
 */
final class BadInputTest extends TestCase
{
    private static ?array $table = null;

    private static function table(): array
    {
        return self::$table ??= json_decode(
            (string) file_get_contents(dirname(__DIR__, 3) . '/tests/bad-input.json'),
            true,
            512,
            JSON_THROW_ON_ERROR
        );
    }

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function cases(): iterable
    {
        foreach (self::table()['cases'] as $c) {
            if (in_array('php', $c['langs'] ?? ['php'], true)) {
                yield $c['id'] => [$c];
            }
        }
    }

    /** @param mixed $v */
    private static function raw($v): string
    {
        if (is_string($v)) {
            return $v;
        }
        if (isset($v['hex'])) {
            return (string) hex2bin($v['hex']);
        }
        return str_repeat($v['repeat'], $v['times']) . ($v['then'] ?? '');
    }

    /** @param mixed $v @return array<int, mixed> */
    private static function servers($v): array
    {
        if (isset($v['count'])) {
            $out = [];
            for ($i = 1; $i <= $v['count']; $i++) {
                $out[] = str_replace('{i}', (string) $i, $v['format']);
            }
            return $out;
        }
        $out = [];
        foreach ($v as $e) {
            $out[] = is_array($e) && array_is_list($e)
                ? ['label' => self::raw($e[0]), 'weight' => $e[1]]
                : (is_int($e) ? $e : self::raw($e));
        }
        return $out;
    }

    /** The servers and points, hashed (a failed comparison stays short). */
    private static function snapshot(Ring $r): string
    {
        return md5(serialize([$r->servers(), $r->points()]));
    }

    /** @param array<string, mixed> $case */
    private function runCase(array $case): void
    {
        $profile = self::raw($case['profile'] ?? 'libketama');
        $hash = isset($case['hash']) ? self::raw($case['hash']) : null;
        $initial = self::servers($case['servers'] ?? self::table()['base']);
        if ($case['op'] === 'create') {
            new Ring($initial, $profile, $hash);
            return;
        }
        $ring = new Ring($initial, $profile, $hash);
        $before = self::snapshot($ring);
        try {
            switch ($case['op']) {
                case 'lookup':
                    $ring->get(is_int($case['key']) ? $case['key'] : self::raw($case['key']));
                    break;
                case 'add':
                    $ring->add(self::raw($case['label']), $case['weight']);
                    break;
                case 'remove':
                    $ring->remove(self::raw($case['label']));
                    break;
                case 'set_weight':
                    $ring->setWeight(self::raw($case['label']), $case['weight']);
                    break;
                case 'add_many':
                    $ring->addMany(self::servers($case['add']));
                    break;
                default:
                    $this->fail("unknown op {$case['op']}");
            }
        } catch (\Throwable $e) {
            $this->assertSame($before, self::snapshot($ring), "{$case['id']}: ring changed");
            throw $e;
        }
    }

    /**
     * @dataProvider cases
     * @param array<string, mixed> $case
     */
    public function testCase(array $case): void
    {
        $name = $case['expect']['php'] ?? $case['error'];
        if ($name === null) {
            $this->runCase($case);
            $this->addToAssertionCount(1);
            return;
        }
        try {
            $this->runCase($case);
        } catch (\TypeError $e) {
            $this->assertSame('TypeError', $name, $e->getMessage());
            return;
        } catch (KetamaException $e) {
            $code = constant(KetamaException::class . '::' . strtoupper((string) preg_replace('/(?<!^)[A-Z]/', '_$0', $name)));
            $this->assertSame($code, $e->getCode(), $e->getMessage());
            if (isset($case['names'])) {
                $this->assertStringContainsString($case['names'], $e->getMessage());
            }
            return;
        }
        $this->fail("{$case['id']}: expected $name");
    }
}
