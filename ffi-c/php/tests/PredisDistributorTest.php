<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Predis\Distributor;
use Ketama\Predis\Strategy;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;
use Predis\Client;
use Predis\Cluster\Distributor\EmptyRingException;
use Predis\Cluster\Distributor\HashRing;
use Predis\Cluster\Distributor\KetamaRing;
use Predis\Cluster\PredisStrategy;
use Predis\Connection\Aggregate\PredisCluster;
use Predis\NotSupportedException;

/**
 * Ketama\Predis\Distributor inside Predis 1.1 (Debian php-nrk-predis): Predis's own routing
 * (getConnectionByKey, the path single-key commands take) sends each key to the server our
 * ring names, for several profiles; and on live redis-server processes the keys written
 * through Predis are on those servers.
 */
final class PredisDistributorTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        if (!class_exists(Client::class)) {
            $autoload = getenv('PREDIS_AUTOLOAD') ?: '/usr/share/php/Predis/autoload.php';
            if (!is_file($autoload)) {
                self::fail("Predis not found at $autoload (apt-get install php-nrk-predis, or set PREDIS_AUTOLOAD)");
            }
            require_once $autoload;
        }
    }

    /** @param list<string> $uris */
    private static function client(array $uris, string $profile, bool $whole = true): Client
    {
        $d = new Distributor($profile);
        $strategy = $whole ? new Strategy($d) : new PredisStrategy($d);
        return new Client($uris, ['cluster' => new PredisCluster($strategy)]);
    }

    private static function serverOf(Client $c, string $key): string
    {
        return (string) $c->getConnection()->getConnectionByKey($key);
    }

    /** @return list<string> */
    private static function keys(int $n): array
    {
        $keys = [];
        for ($i = 0; $i < $n; $i++) {
            $keys[] = $i % 2 ? "user:$i" : md5("k$i");
        }
        return $keys;
    }

    /** @return array<string, array{string}> */
    public static function profiles(): array
    {
        $out = [];
        foreach (['libketama', 'php-memcached', 'twemproxy', 'dalli', 'spymemcached', 'modula', 'jump', 'rendezvous'] as $p) {
            $out[$p] = [$p];
        }
        return $out;
    }

    /** @dataProvider profiles */
    public function testPredisRoutesWhereTheRingSays(string $profile): void
    {
        $uris = ['tcp://127.0.1.1:6379', 'tcp://127.0.1.2:6379?weight=3', 'tcp://127.0.1.3:6380?weight=2', 'tcp://localhost:6379'];
        $ring = new Ring(['127.0.1.1:6379' => 1, '127.0.1.2:6379' => 3, '127.0.1.3:6380' => 2, 'localhost:6379' => 1], $profile);
        $c = self::client($uris, $profile);
        $seen = [];
        foreach (self::keys(2000) as $key) {
            $want = $ring->get($key);
            $this->assertSame($want, self::serverOf($c, $key), "$profile: $key");
            $seen[$want] = true;
        }
        $this->assertCount(4, $seen);
        $this->assertFalse($c->isConnected(), 'routing alone connects nothing');
    }

    public function testSocketsAndIpv6AreLabelledAsPredisNamesThem(): void
    {
        $c = self::client(['unix:///run/redis/a.sock', 'tcp://[::1]:6379', 'tcp://127.0.1.1:6379'], 'libketama');
        $ring = new Ring(['/run/redis/a.sock', '::1:6379', '127.0.1.1:6379'], 'libketama');
        foreach (self::keys(300) as $key) {
            $this->assertSame($ring->get($key), self::serverOf($c, $key), $key);
        }
    }

    public function testAliasIsTheShardName(): void
    {
        $c = self::client(['tcp://127.0.1.1:6379?alias=alpha', 'tcp://127.0.1.2:6379?alias=beta'], 'twemproxy');
        $ring = new Ring([
            ['label' => '127.0.1.1:6379', 'weight' => 1, 'name' => 'alpha'],
            ['label' => '127.0.1.2:6379', 'weight' => 1, 'name' => 'beta'],
        ], 'twemproxy');
        $unnamed = new Ring(['127.0.1.1:6379', '127.0.1.2:6379'], 'twemproxy');
        $differ = 0;
        foreach (self::keys(1000) as $key) {
            $this->assertSame($ring->get($key), self::serverOf($c, $key), $key);
            $differ += (int) ($ring->get($key) !== $unnamed->get($key));
        }
        $this->assertGreaterThan(0, $differ, 'the names change the placement');
    }

    public function testHashTags(): void
    {
        $ring = new Ring(['127.0.1.1:6379', '127.0.1.2:6379', '127.0.1.3:6379'], 'libketama');
        $uris = ['tcp://127.0.1.1:6379', 'tcp://127.0.1.2:6379', 'tcp://127.0.1.3:6379'];
        $whole = self::client($uris, 'libketama');
        $tagged = self::client($uris, 'libketama', false);
        $moved = 0;
        for ($i = 0; $i < 300; $i++) {
            foreach (["{user:$i}:name", "cart:{user:$i}", "a{b}c$i"] as $key) {
                // Strategy: the whole key; PredisStrategy: Predis's tag first
                $this->assertSame($ring->get($key), self::serverOf($whole, $key), $key);
                $tag = substr($key, strpos($key, '{') + 1, strpos($key, '}') - strpos($key, '{') - 1);
                $this->assertSame($ring->get($tag), self::serverOf($tagged, $key), $key);
                $moved += (int) ($ring->get($key) !== $ring->get($tag));
            }
        }
        $this->assertGreaterThan(0, $moved);
        // no tag, or an empty one: the whole key either way
        foreach (['{}x', 'a{b', 'a}b{', 'plain'] as $key) {
            $this->assertSame($ring->get($key), self::serverOf($tagged, $key), $key);
        }
    }

    public function testMultiKeyCommandsNeedOneServer(): void
    {
        $c = self::client(['tcp://127.0.1.1:6379', 'tcp://127.0.1.2:6379', 'tcp://127.0.1.3:6379'], 'libketama');
        $ring = new Ring(['127.0.1.1:6379', '127.0.1.2:6379', '127.0.1.3:6379'], 'libketama');
        $byServer = [];
        foreach (self::keys(60) as $key) {
            $byServer[$ring->get($key)][] = $key;
        }
        [$a, $b] = array_values($byServer);
        $strategy = $c->getConnection()->getClusterStrategy();
        $mget = $c->createCommand('MGET', [$a[0], $a[1]]);
        $this->assertSame($ring->get($a[0]), $strategy->getSlot($mget));
        $this->expectException(NotSupportedException::class);
        $c->getConnection()->getConnection($c->createCommand('MGET', [$a[0], $b[0]]));
    }

    public function testEmptyRingIsPredisError(): void
    {
        $this->expectException(EmptyRingException::class);
        (new Distributor('libketama'))->get('k');
    }

    public function testRefusals(): void
    {
        foreach ([
            [['tcp://127.0.1.1:6379', 'tcp://127.0.1.1:6379'], KetamaException::DUPLICATE_SERVER],
            [['tcp://127.0.1.1:6379?weight=abc'], KetamaException::BAD_WEIGHT],
            [['tcp://127.0.1.1:6379?weight=-2'], KetamaException::BAD_WEIGHT],
        ] as [$uris, $code]) {
            try {
                self::client($uris, 'libketama');
                $this->fail('accepted ' . implode(' ', $uris));
            } catch (KetamaException $e) {
                $this->assertSame($code, $e->getCode(), $e->getMessage());
            }
        }
        $c = self::client(['tcp://127.0.1.1:6379'], 'php-memcached');
        try {
            self::serverOf($c, str_repeat('x', 300));
            $this->fail('php-memcached takes a 300-byte key');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::KEY_REJECTED, $e->getCode());
        }
        try {
            new Distributor('no-such-client');
            $this->fail('unknown profile accepted');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::UNKNOWN_PROFILE, $e->getCode());
        }
    }

    public function testRemove(): void
    {
        $uris = ['tcp://127.0.1.1:6379', 'tcp://127.0.1.2:6379', 'tcp://127.0.1.3:6379'];
        $c = self::client($uris, 'libketama');
        $cluster = $c->getConnection();
        $this->assertTrue($cluster->remove($cluster->getConnectionById(1)));
        $ring = new Ring(['127.0.1.1:6379', '127.0.1.3:6379'], 'libketama');
        foreach (self::keys(500) as $key) {
            $this->assertSame($ring->get($key), self::serverOf($c, $key), $key);
        }
        $d = $cluster->getClusterStrategy()->getDistributor();
        $d->remove('not a node'); // unknown: nothing changes
        $this->assertSame(['127.0.1.1:6379', '127.0.1.3:6379'], $d->getRing()->labels());
    }

    /**
     * Where the core has Predis's own profiles, the distributor equals Predis's HashRing and
     * KetamaRing (weights included, Predis's tag rule through the profile).
     */
    public function testPredisProfilesEqualPredisRings(): void
    {
        try {
            new Ring([], 'predis-ketama');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::UNKNOWN_PROFILE, $e->getCode());
            $this->markTestSkipped('this library has no predis profiles');
        }
        $uris = ['tcp://127.0.1.1:6379?weight=300', 'tcp://127.0.1.2:6379', 'tcp://127.0.1.3:6380?weight=50', 'tcp://127.0.1.4:7000?weight=100'];
        $keys = array_merge(self::keys(3000), ['{user:1}:name', 'cart:{user:1}', '{}{42}', 'a{}b', 'x{y}z{w}']);
        foreach (['predis' => new HashRing(), 'predis-ketama' => new KetamaRing()] as $profile => $theirs) {
            $predis = new Client($uris, ['cluster' => new PredisCluster(new PredisStrategy($theirs))]);
            $ours = new Client($uris, ['cluster' => new PredisCluster(new Strategy(new Distributor($profile, null, [], 100)))]);
            foreach ($keys as $key) {
                $this->assertSame(self::serverOf($predis, $key), self::serverOf($ours, $key), "$profile: $key");
            }
        }
    }

    public function testLiveRedis(): void
    {
        $fleet = new RedisFleet();
        try {
            $labels = $fleet->start(3);
            $weights = [1, 3, 2];
            $uris = [];
            $servers = [];
            foreach ($labels as $i => $label) {
                $uris[] = "tcp://$label?weight={$weights[$i]}&timeout=2&read_write_timeout=2";
                $servers[$label] = $weights[$i];
            }
            $ring = new Ring($servers, 'libketama');
            $c = self::client($uris, 'libketama');
            $keys = self::keys(600);
            $pipe = $c->pipeline();
            foreach ($keys as $key) {
                $pipe->set($key, "v:$key");
            }
            $pipe->execute();
            $count = [];
            foreach ($keys as $key) {
                $count[$ring->get($key)] = ($count[$ring->get($key)] ?? 0) + 1;
            }
            foreach ($labels as $label) {
                $one = new Client("tcp://$label?timeout=2&read_write_timeout=2");
                $this->assertSame($count[$label] ?? 0, $one->dbsize(), $label);
                $this->assertGreaterThan(0, $count[$label] ?? 0);
                foreach ($keys as $key) {
                    if ($ring->get($key) === $label) {
                        $this->assertSame("v:$key", $one->get($key), "$key on $label");
                    }
                }
                $one->disconnect();
            }
            foreach (array_slice($keys, 0, 50) as $key) {
                $this->assertSame("v:$key", $c->get($key));
            }
            $c->disconnect();
        } finally {
            $fleet->stop();
        }
    }
}
