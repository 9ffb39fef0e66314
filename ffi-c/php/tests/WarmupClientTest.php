<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Client;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * Ketama\Client in warm-up mode on real memcached processes (127.0.0.1): 3 servers grow to 4
 * (and, across backends, php-memcached's placement switches to pecl memcache's). Keys written
 * under the old ring before the switch are found through the warm-up client with their PHP
 * types and land on their new owner (with `warm_ttl` as TTL); a value a new-placement client
 * wrote first wins; deletes reach both owners; sets from a concurrent process go to the new
 * owner and are never overwritten by the warm-up reads running at the same time.
 */
final class WarmupClientTest extends TestCase
{
    private static MemcachedFleet $fleet;
    /** @var list<string> */
    private static array $labels = [];

    public static function setUpBeforeClass(): void
    {
        self::$fleet = new MemcachedFleet();
        self::$labels = self::$fleet->start(4);
    }

    public static function tearDownAfterClass(): void
    {
        self::$fleet->stop();
    }

    protected function setUp(): void
    {
        foreach (self::$labels as $label) {
            $this->assertSame('OK', MemcachedFleet::meta($label, 'flush_all'));
        }
    }

    /** @return array<string, array{string, string, string, string}> old backend, profile, new backend, profile */
    public static function switches(): array
    {
        return [
            'php-memcached, 3 -> 4 servers' => [Client::MEMCACHED, 'php-memcached', Client::MEMCACHED, 'php-memcached'],
            'pecl memcache, 3 -> 4 servers' => [Client::MEMCACHE, 'pecl-memcache', Client::MEMCACHE, 'pecl-memcache'],
            'php-memcached -> pecl memcache, 3 -> 4 servers' => [Client::MEMCACHED, 'php-memcached', Client::MEMCACHE, 'pecl-memcache'],
        ];
    }

    /** @return array{Client, Client, Client, list<string>} old plain, new plain, warm-up, keys whose owner changes */
    private function pair(string $oldBackend, string $oldProfile, string $newBackend, string $newProfile, array $options = []): array
    {
        $old = new Client(new Ring(array_slice(self::$labels, 0, 3), $oldProfile), $oldBackend);
        $new = new Client(new Ring(self::$labels, $newProfile), $newBackend);
        $warm = new Client(new Ring(self::$labels, $newProfile), $newBackend, ['warm_from' => $old] + $options);
        return [$old, $new, $warm];
    }

    /** @return list<string> */
    private static function keys(int $n): array
    {
        $run = bin2hex(random_bytes(4));
        $keys = [];
        for ($i = 0; $i < $n; $i++) {
            $keys[] = "$run:user:$i:" . substr(md5((string) $i), 0, 8);
        }
        return $keys;
    }

    /**
     * A value of one of the types PHP clients store (each in its own flags). Across backends
     * strings only: the keys that stay on their server keep php-memcached's encoding, which
     * pecl memcache reads back the same for strings alone.
     *
     * @return mixed
     */
    private static function value(string $key, int $i, bool $typed)
    {
        switch ($typed ? $i % 5 : 0) {
            case 0: return "v:$key";
            case 1: return $i;
            case 2: return $i + 0.5;
            case 3: return ['key' => $key, 'i' => $i];
            default: return $i % 2 === 0;
        }
    }

    /** @dataProvider switches */
    public function testKeysWrittenBeforeTheSwitchAreFoundAndLandOnTheirNewOwner(string $ob, string $op, string $nb, string $np): void
    {
        [$old, $new, $warm] = $this->pair($ob, $op, $nb, $np, ['warm_ttl' => 300]);
        $keys = self::keys(400);
        foreach ($keys as $i => $k) {
            $this->assertTrue($old->set($k, self::value($k, $i, $ob === $nb)), "set $k");
        }
        $moved = array_values(array_filter($keys, static fn ($k) => $old->serverFor($k) !== $new->serverFor($k)));
        $this->assertGreaterThan(40, count($moved), 'some keys change owner');
        $this->assertSame([], array_intersect($moved, array_keys($new->getMulti($moved))), 'the new owners start cold');
        $newer = $moved[0];
        $this->assertTrue($new->set($newer, 'newer')); // a client already on the new placement

        $got = $warm->getMulti(array_slice($keys, 0, 200));
        foreach (array_slice($keys, 200) as $k) {
            $got[$k] = $warm->get($k, 'MISSING');
        }
        foreach ($keys as $i => $k) {
            $this->assertSame($k === $newer ? 'newer' : self::value($k, $i, $ob === $nb), $got[$k], "value of $k");
        }
        // Every moved key now sits on its new owner, with the PHP type it was written with
        // (decoded and encoded by the new placement's own backend) and warm_ttl as its TTL.
        $now = $new->getMulti($keys);
        foreach ($keys as $i => $k) {
            $this->assertSame($k === $newer ? 'newer' : self::value($k, $i, $ob === $nb), $now[$k] ?? 'MISSING', "new owner of $k");
        }
        $line = MemcachedFleet::meta((string) $new->serverFor($moved[1]), "mg $moved[1] t");
        $this->assertMatchesRegularExpression('/^HD t(29[0-9]|300)$/', $line, 'warm_ttl on the copy');
        $this->assertSame('HD t-1', MemcachedFleet::meta((string) $new->serverFor($newer), "mg $newer t"), 'the newer value untouched');
        // The old owners still hold their copies (a warm-up read copies, it does not move).
        $this->assertSame(self::value($moved[1], (int) array_search($moved[1], $keys, true), $ob === $nb), $old->get($moved[1]));
    }

    /** @dataProvider switches */
    public function testDeletesReachBothOwnersAndNothingComesBack(string $ob, string $op, string $nb, string $np): void
    {
        [$old, $new, $warm] = $this->pair($ob, $op, $nb, $np);
        $keys = self::keys(200);
        foreach ($keys as $k) {
            $this->assertTrue($old->set($k, "v:$k"));
        }
        $moved = array_values(array_filter($keys, static fn ($k) => $old->serverFor($k) !== $new->serverFor($k)));
        [$warmed, $cold] = [$moved[0], $moved[1]];
        $this->assertSame("v:$warmed", $warm->get($warmed)); // now on both owners
        $this->assertSame("v:$warmed", $new->get($warmed));
        $this->assertTrue($warm->delete($warmed));
        $this->assertNull($old->get($warmed), 'deleted on the old owner');
        $this->assertNull($new->get($warmed), 'deleted on the new owner');
        $this->assertTrue($warm->delete($cold), 'a key only the old owner holds');
        $this->assertNull($old->get($cold));
        foreach ([$warmed, $cold] as $k) {
            $this->assertSame('gone', $warm->get($k, 'gone'), "$k does not come back");
        }
        $this->assertFalse($warm->delete($warmed), 'nothing left to delete');
    }

    /** @dataProvider switches */
    public function testConcurrentSetsGoToTheNewOwnerAndWin(string $ob, string $op, string $nb, string $np): void
    {
        [$old, $new, $warm] = $this->pair($ob, $op, $nb, $np);
        $keys = self::keys(400);
        foreach ($keys as $k) {
            $this->assertTrue($old->set($k, "old:$k"));
        }
        $moved = array_values(array_filter($keys, static fn ($k) => $old->serverFor($k) !== $new->serverFor($k)));
        // A second process, also a warm-up client, overwrites every moved key while this one
        // reads them over and over: each warm-up read may add the old value only before the
        // set, never over it.
        $script = tempnam(sys_get_temp_dir(), 'ketama-warm');
        $this->assertNotFalse($script);
        file_put_contents($script, sprintf(<<<'PHP'
            <?php
            require %s;
            $old = new Ketama\Client(new Ketama\Ring(%s, %s), %s);
            $warm = new Ketama\Client(new Ketama\Ring(%s, %s), %s, ['warm_from' => $old]);
            fwrite(STDOUT, "ready\n");
            fgets(STDIN);
            foreach (%s as $k) {
                if (!$warm->set($k, "new:$k")) {
                    exit(1);
                }
            }
            PHP,
            var_export(__DIR__ . '/bootstrap.php', true),
            var_export(array_slice(self::$labels, 0, 3), true), var_export($op, true), var_export($ob, true),
            var_export(self::$labels, true), var_export($np, true), var_export($nb, true),
            var_export($moved, true)));
        $cmd = [PHP_BINARY, '-d', 'ffi.enable=1', $script];
        $p = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $this->assertIsResource($p);
        try {
            $this->assertSame("ready\n", fgets($pipes[1]));
            fwrite($pipes[0], "go\n");
            fflush($pipes[0]);
            $rounds = 0;
            do {
                $status = proc_get_status($p);
                foreach ($warm->getMulti($moved) as $k => $v) {
                    $this->assertContains($v, ["old:$k", "new:$k"]);
                }
                $rounds++;
            } while ($status['running']);
            $this->assertSame(0, $status['exitcode'], 'every concurrent set stored');
        } finally {
            proc_close($p);
            unlink($script);
        }
        $this->assertGreaterThan(1, $rounds);
        foreach ($new->getMulti($moved) as $k => $v) {
            $this->assertSame("new:$k", $v, "the set won on the new owner of $k");
        }
        $this->assertCount(count($moved), $new->getMulti($moved));
        $this->assertSame("old:$moved[0]", $old->get($moved[0]), 'sets do not go to the old owner');
    }

    public function testOptionsAreChecked(): void
    {
        $ring = new Ring(self::$labels, 'php-memcached');
        foreach ([['warm_from' => 'x'], ['warm_ttl' => 5], ['warm_from' => new Client($ring), 'warm_ttl' => -1]] as $bad) {
            try {
                new Client($ring, Client::MEMCACHED, $bad);
                $this->fail('accepted ' . var_export($bad, true));
            } catch (\InvalidArgumentException $e) {
                $this->assertStringContainsString('warm_', $e->getMessage());
            }
        }
        $w = Client::warmup(new Ring(array_slice(self::$labels, 0, 3), 'php-memcached'), $ring, Client::MEMCACHED, ['warm_ttl' => 5]);
        $this->assertNotNull($w->warmFrom());
        $this->assertNull($w->warmFrom()->warmFrom());
    }
}
