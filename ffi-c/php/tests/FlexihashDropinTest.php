<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\FlexiHash as SeedFlexiHash; // PHP names are case-insensitive: FlexiHash = Flexihash
use Ketama\Flexihash\Exception as FlexihashException;
use Ketama\Flexihash\Flexihash;
use Ketama\Flexihash\Hasher\Crc32Hasher;
use Ketama\Flexihash\Hasher\HasherInterface;
use Ketama\Flexihash\Hasher\Md5Hasher;
use PHPUnit\Framework\TestCase;

/**
 * The flexihash drop-ins: `Ketama\Flexihash\*` (pda/flexihash 3.x) and `Ketama\FlexiHash`
 * (the user's PHP FlexiHash class), against the vector files recorded for them, then key for key against
 * the originals on seeded random rings: the user's class as recorded by its oracle
 * (tests/oracles/flexihash/SeedFlexiHash.php), and pda/flexihash v3.0.0 itself when its
 * source is at hand ($FLEXIHASH_SRC or the local mirror; skipped otherwise, as in CI).
 */
final class FlexihashDropinTest extends TestCase
{
    private const FLEXIHASH_PIN = 'a8f9a3bf8fa9d5577369e472ba06cf538995236d';

    private static ?string $original = null;

    /** @return array<string, array{string}> */
    public static function vectorFiles(): array
    {
        $dir = getenv('KETAMA_VECTORS') ?: dirname(__DIR__, 3) . '/tests/vectors';
        $out = [];
        foreach (glob("$dir/flexihash-*.json") ?: [] as $f) {
            $out[basename($f)] = [$f];
        }
        return $out;
    }

    public function testThereAreVectorFiles(): void
    {
        $this->assertGreaterThanOrEqual(8, count(self::vectorFiles()));
    }

    /** @dataProvider vectorFiles */
    public function testVectorFile(string $file): void
    {
        $v = json_decode((string) file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);
        $labels = array_column($v['servers'] ?? [], 'label');
        $got = [];
        if (($v['kind'] ?? 'locate') === 'hash') {
            $this->assertSame('seed_tohash', $v['hash']);
            foreach ($v['keys'] as $key) {
                $got[] = (new SeedFlexiHash())->toHash($key);
            }
        } elseif ($v['profile'] === 'flexihash-seed') {
            $fh = new SeedFlexiHash();
            foreach ($labels as $label) {
                $this->assertTrue($fh->addServer($label));
            }
            foreach ($v['keys'] as $key) {
                $got[] = $fh->lookup($key);
            }
        } else {
            $this->assertSame('flexihash', $v['profile']);
            $fh = (new Flexihash())->addTargets($labels);
            foreach ($v['keys'] as $key) {
                $got[] = ($v['kind'] ?? 'locate') === 'sequence' ? $fh->lookupList($key, $v['n']) : $fh->lookup($key);
            }
        }
        $this->assertSame($v['expect'], $got);
    }

    public function testReadmeExampleAndErrors(): void
    {
        $hash = new Flexihash();
        $hash->addTargets(['cache-1', 'cache-2', 'cache-3']);
        $this->assertSame('cache-1', $hash->lookup('object-a'));
        $this->assertSame('cache-2', $hash->lookup('object-b'));
        $hash->addTarget('cache-4')->removeTarget('cache-1');
        $this->assertSame(['cache-2', 'cache-4'], $hash->lookupList('object', 2));
        $this->assertSame('Ketama\Flexihash\Flexihash{targets:[cache-2,cache-3,cache-4]}', (string) $hash);
        $this->assertSame(['cache-2', 'cache-3', 'cache-4'], $hash->getAllTargets());
        $this->assertThrows(fn () => $hash->addTarget('cache-2'), "Target 'cache-2' already exists.");
        $this->assertThrows(fn () => $hash->removeTarget('nope'), "Target 'nope' does not exist.");
        $this->assertThrows(fn () => $hash->lookupList('x', 0), 'Invalid count requested');
        $this->assertThrows(fn () => (new Flexihash())->lookup('x'), 'No targets exist');
        $this->assertSame([], (new Flexihash())->lookupList('x', 3));
        $this->assertSame(['only'], (new Flexihash())->addTarget('only')->lookupList('x', 3));
        $this->assertSame([], (new Flexihash())->addTarget('none', 0)->lookupList('x', 3));
    }

    public function testSeedClassAgainstTheSeedItself(): void
    {
        require_once dirname(__DIR__, 3) . '/tests/oracles/flexihash/SeedFlexiHash.php';
        mt_srand(15);
        for ($round = 0; $round < 20; $round++) {
            $ours = new SeedFlexiHash();
            $seed = new \FlexiHash();
            // toHash() has at most 16^4 points, so a few hundred servers collide: the
            // first-claimant and remove-by-point quirks get exercised.
            $pool = [];
            for ($i = 0, $n = mt_rand(1, 400); $i < $n; $i++) {
                $pool[] = mt_rand(0, 3) === 0 ? 'cache-' . mt_rand(0, 999) : sprintf('10.%d.%d.%d:11211', mt_rand(0, 9), mt_rand(0, 255), mt_rand(1, 254));
            }
            foreach ($pool as $server) {
                $this->assertSame($seed->addServer($server), $ours->addServer($server));
                if (mt_rand(0, 9) === 0) {
                    $victim = $pool[mt_rand(0, count($pool) - 1)];
                    $this->assertSame($seed->removeServer($victim), $ours->removeServer($victim));
                }
            }
            for ($k = 0; $k < 200; $k++) {
                $key = 'key:' . mt_rand();
                $this->assertSame($seed->toHash($key), $ours->toHash($key));
                $this->assertSame(@$seed->lookup($key), $ours->lookup($key), "round $round key $key");
            }
        }
        $this->assertNull((new SeedFlexiHash())->lookup('x'));
    }

    public function testSeedClassOddNamesUseTheRawRing(): void
    {
        require_once dirname(__DIR__, 3) . '/tests/oracles/flexihash/SeedFlexiHash.php';
        $ours = new SeedFlexiHash();
        $seed = new \FlexiHash();
        foreach (['a b', 'cache 1', '10.0.0.1:11211', 'x y z'] as $s) {
            $ours->addServer($s);
            $seed->addServer($s);
        }
        for ($k = 0; $k < 300; $k++) {
            $this->assertSame(@$seed->lookup("k$k"), $ours->lookup("k$k"));
        }
        $raw = new \ReflectionProperty(SeedFlexiHash::class, 'raw');
        $raw->setAccessible(true);
        $this->assertInstanceOf(\Ketama\RawRing::class, $raw->getValue($ours));
        $ours->removeServer('a b');
        $seed->removeServer('a b');
        for ($k = 0; $k < 300; $k++) {
            $this->assertSame(@$seed->lookup("k$k"), $ours->lookup("k$k"));
        }
    }

    /**
     * Targets the native ring refuses (names that are not labels, position counts that are
     * not a multiple of 64) are placed by core's raw ring: the same answers as flexihash's
     * own position table, which a hasher of the caller's gets (positions computed in PHP).
     */
    public function testOddTargetsUseTheRawRing(): void
    {
        foreach ([[new Crc32Hasher(), 'crc32'], [new Md5Hasher(), 'md5']] as [$hasher, $name]) {
            $mirror = $name === 'crc32'
                ? new class implements HasherInterface {
                    public function hash($string)
                    {
                        return crc32((string) $string);
                    }
                }
                : new class implements HasherInterface {
                    public function hash($string)
                    {
                        return hexdec(substr(md5((string) $string), 0, 8));
                    }
                };
            foreach ([64, 10] as $replicas) {
                $ours = new Flexihash($hasher, $replicas);
                $table = new Flexihash($mirror, $replicas);
                foreach ([['node 1', 1], ['cache-2', 1.5], ['10.0.0.1:11211', 2], ['x y', 0], ['cache-2:11211', 1]] as [$t, $w]) {
                    $ours->addTarget($t, $w);
                    $table->addTarget($t, $w);
                }
                $check = function () use ($ours, $table, $name, $replicas): void {
                    for ($k = 0; $k < 400; $k++) {
                        $key = "object-$k";
                        $this->assertSame($table->lookup($key), $ours->lookup($key), "$name/$replicas $key");
                        $this->assertSame($table->lookupList($key, 3), $ours->lookupList($key, 3), "$name/$replicas $key");
                    }
                };
                $check();
                $raw = new \ReflectionProperty(Flexihash::class, 'raw');
                $raw->setAccessible(true);
                $this->assertInstanceOf(\Ketama\RawRing::class, $raw->getValue($ours));
                $ours->removeTarget('node 1');
                $table->removeTarget('node 1');
                $ours->addTarget('late one', 3);
                $table->addTarget('late one', 3);
                $check();
                $this->assertInstanceOf(\Ketama\RawRing::class, $raw->getValue($ours));
            }
        }
    }

    public function testCustomHasherSearchesARingFromItsPoints(): void
    {
        $hasher = new class implements HasherInterface {
            public ?int $value = null;

            public function hash($string)
            {
                return $this->value ?? crc32(strrev((string) $string));
            }
        };
        // flexihash's own "loop to start" case, written again here
        $hash = new Flexihash($hasher, 1);
        foreach ([10 => 't1', 20 => 't2', 30 => 't3', 40 => 't4', 50 => 't5'] as $p => $t) {
            $hasher->value = $p;
            $hash->addTarget($t);
        }
        $hasher->value = 35;
        $this->assertSame(['t4', 't5', 't1', 't2'], $hash->lookupList('resource', 4));
        $hasher->value = 50;
        $this->assertSame(['t1', 't2'], $hash->lookupList('resource', 2));
        $hasher->value = 9;
        $this->assertSame('t1', $hash->lookup('resource'));
        $ring = (new \ReflectionProperty(Flexihash::class, 'pointsRing'));
        $ring->setAccessible(true);
        $this->assertInstanceOf(\Ketama\Ring::class, $ring->getValue($hash));
        $this->assertSame([[10, 't0'], [20, 't1'], [30, 't2'], [40, 't3'], [50, 't4']], $ring->getValue($hash)->points());
        // a hash the native search cannot compare (not an int in 0..2^32-1): flexihash's scan
        $hasher->value = -5;
        $this->assertSame('t1', $hash->lookup('resource'));
        $hasher->value = 1 << 40;
        $this->assertSame(['t1', 't2'], $hash->lookupList('resource', 2));
    }

    public function testHasherWithStringPositionsStaysInPhp(): void
    {
        $hasher = new class implements HasherInterface {
            public function hash($string)
            {
                return 'h' . md5((string) $string);
            }
        };
        $hash = (new Flexihash($hasher))->addTargets(['a', 'b', 'c']);
        $found = $hash->lookupList('resource', 3);
        sort($found);
        $this->assertSame(['a', 'b', 'c'], $found);
        $ring = (new \ReflectionProperty(Flexihash::class, 'pointsRing'));
        $ring->setAccessible(true);
        $this->assertNull($ring->getValue($hash));
    }

    /** @return array<string, array{int}> */
    public static function seeds(): array
    {
        $out = [];
        for ($s = 1; $s <= 12; $s++) {
            $out["seed $s"] = [$s];
        }
        return $out;
    }

    /** @dataProvider seeds */
    public function testAgainstTheRealFlexihash(int $seed): void
    {
        $src = self::original();
        if ($src === null) {
            $this->markTestSkipped('pda/flexihash ' . self::FLEXIHASH_PIN . ' not at hand (set FLEXIHASH_SRC to a checkout; CI has no GitHub access)');
        }
        mt_srand($seed);
        $kind = $seed % 4;
        $replicas = [null, 64, 32, 100][mt_rand(0, 3)];
        [$ours, $theirs] = match ($kind) {
            0 => [new Flexihash(null, $replicas), new \Flexihash\Flexihash(null, $replicas)],
            1 => [new Flexihash(new Md5Hasher(), $replicas), new \Flexihash\Flexihash(new \Flexihash\Hasher\Md5Hasher(), $replicas)],
            2 => [new Flexihash(new Crc32Hasher(), $replicas), new \Flexihash\Flexihash(new \Flexihash\Hasher\Crc32Hasher(), $replicas)],
            default => (static function () use ($replicas): array {
                $h = new DualHasher();
                return [new Flexihash($h, $replicas), new \Flexihash\Flexihash($h, $replicas)];
            })(),
        };
        $pool = [];
        for ($i = 0, $n = mt_rand(2, 40); $i < $n; $i++) {
            $pool[] = match (mt_rand(0, 4)) {
                0 => 'cache-' . mt_rand(0, 99),
                1 => sprintf('10.0.%d.%d:11211', mt_rand(0, 255), mt_rand(1, 254)),
                2 => 'node ' . mt_rand(0, 99), // a label the native ring refuses: slow path
                default => sprintf('mc%d.example.com', mt_rand(0, 999)),
            };
        }
        $keys = [];
        for ($k = 0; $k < 150; $k++) {
            $keys[] = 'object-' . mt_rand();
        }
        $keys[] = '';
        for ($step = 0; $step < 30; $step++) {
            $target = $pool[mt_rand(0, count($pool) - 1)];
            $present = in_array($target, $theirs->getAllTargets(), true);
            if ($present && mt_rand(0, 2) === 0) {
                $theirs->removeTarget($target);
                $ours->removeTarget($target);
            } elseif (!$present) {
                $weight = [1, 1, 2, 3, 0.5, 1.5, 0][mt_rand(0, 6)];
                $theirs->addTarget($target, $weight);
                $ours->addTarget($target, $weight);
            }
            $this->assertSame($theirs->getAllTargets(), $ours->getAllTargets());
            foreach ($keys as $key) {
                $this->assertSame($this->outcome(fn () => $theirs->lookup($key)), $this->outcome(fn () => $ours->lookup($key)), "step $step key $key");
            }
            foreach (array_slice($keys, 0, 20) as $key) {
                $n = mt_rand(1, 6);
                $this->assertSame($theirs->lookupList($key, $n), $ours->lookupList($key, $n), "step $step key $key n $n");
            }
        }
    }

    /** A result, or the class and message of what was thrown (our exception named as theirs). */
    private function outcome(callable $f): string
    {
        try {
            return 'ok ' . $f();
        } catch (\Throwable $e) {
            return str_replace('Ketama\\', '', get_class($e)) . ': ' . $e->getMessage();
        }
    }

    private function assertThrows(callable $f, string $message): void
    {
        try {
            $f();
        } catch (FlexihashException $e) {
            $this->assertSame($message, $e->getMessage());
            return;
        }
        $this->fail("expected Ketama\\Flexihash\\Exception: $message");
    }

    /** Loads pda/flexihash's classes (namespace Flexihash\) from the pinned source, once. */
    private static function original(): ?string
    {
        if (self::$original !== null) {
            return self::$original ?: null;
        }
        self::$original = '';
        $dir = sys_get_temp_dir() . '/ketama-flexihash-' . self::FLEXIHASH_PIN;
        if (!is_file("$dir/src/Flexihash.php")) {
            foreach ([getenv('FLEXIHASH_SRC') ?: '', (getenv('KETAMA_MIRROR') ?: '/work/.mirror') . '/pda+flexihash/repo'] as $git) {
                if ($git === '' || !is_dir($git)) {
                    continue;
                }
                @mkdir($dir, 0777, true);
                $cmd = sprintf('git -C %s archive %s src | tar x -C %s 2>/dev/null', escapeshellarg($git), self::FLEXIHASH_PIN, escapeshellarg($dir));
                exec($cmd, $_, $rc);
                if ($rc === 0 && is_file("$dir/src/Flexihash.php")) {
                    break;
                }
            }
        }
        if (!is_file("$dir/src/Flexihash.php")) {
            return null;
        }
        spl_autoload_register(static function (string $class) use ($dir): void {
            if (strncmp($class, 'Flexihash\\', 10) === 0) {
                $file = "$dir/src/" . str_replace('\\', '/', substr($class, 10)) . '.php';
                if (is_file($file)) {
                    require $file;
                }
            }
        });
        self::$original = $dir;
        return $dir;
    }
}
