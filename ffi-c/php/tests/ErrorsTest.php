<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Exception\ByStatus;
use Ketama\Exception\EmptyRingException;
use Ketama\KetamaException;
use Ketama\Library;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/** Every error path raises a clear exception (or returns null where the client does). */
final class ErrorsTest extends TestCase
{
    private function expectStatus(int $code, callable $f): void
    {
        try {
            $f();
        } catch (KetamaException $e) {
            $this->assertSame($code, $e->getCode(), $e->getMessage());
            $this->assertSame(ByStatus::CLASSES[$code], get_class($e), $e->getMessage());
            $this->assertStringStartsWith(Library::message($code), $e->getMessage());
            $this->assertNotSame('', $e->getMessage());
            return;
        }
        $this->fail("expected KetamaException with code $code");
    }

    /**
     * One exception class per failure status of spec/errors.json and no other, each with its
     * Status constant: a status added or renamed fails here until the classes are regenerated
     * (bash tests/gen-tables.sh).
     */
    public function testOneClassPerStatus(): void
    {
        $table = json_decode((string) file_get_contents(dirname(__DIR__, 3) . '/spec/errors.json'), true);
        $want = [];
        foreach ($table['errors'] as $e) {
            $want[$e['status']] = 'Ketama\\Exception\\' . $e['name'] . 'Exception';
            $constant = substr($e['c_name'], strlen('KETAMA_STATUS_'));
            $this->assertSame($e['status'], constant(KetamaException::class . '::' . $constant), $constant);
            $this->assertSame($e['message'], Library::message($e['status']), $e['name']);
            $this->assertTrue(is_subclass_of($want[$e['status']], KetamaException::class), $e['name']);
        }
        $this->assertSame($want, ByStatus::CLASSES);
        $files = glob(dirname(__DIR__) . '/src/Exception/*Exception.php') ?: [];
        $this->assertCount(count($want), $files, 'a class for a status that is gone');
    }

    /** A refusal of one server input names it: its place in the list given and its label. */
    public function testErrorsNameTheServerToBlame(): void
    {
        $cases = [
            [fn () => new Ring(['10.0.0.1:11211', 'bad label', '10.0.0.3:11211']), 1, 'bad label'],
            [fn () => new Ring(['10.0.0.1:11211' => 1, '10.0.0.2:11211' => 0], 'twemproxy'), 1, '10.0.0.2:11211'],
            [fn () => new Ring(['10.0.0.1:11211' => 1, '10.0.0.2:11211' => -1]), 1, '10.0.0.2:11211'],
            [fn () => new Ring(['10.0.0.1:11211' => 1, "10.0.0.\xff:1" => 1]), 1, "10.0.0.\xff:1"],
            [fn () => (new Ring(['10.0.0.1:11211']))->remove('10.0.0.9:1'), null, '10.0.0.9:1'],
        ];
        foreach ($cases as $i => [$call, $index, $label]) {
            try {
                $call();
                $this->fail("case $i did not throw");
            } catch (KetamaException $e) {
                $this->assertSame([$index, $label], [$e->serverIndex(), $e->serverLabel()], "case $i: " . $e->getMessage());
            }
        }
        try {
            (new Ring([]))->get('k');
            $this->fail('an empty ring answered');
        } catch (EmptyRingException $e) {
            $this->assertSame([null, null], [$e->serverIndex(), $e->serverLabel()]);
        }
    }

    public function testUnknownProfile(): void
    {
        $this->expectStatus(KetamaException::UNKNOWN_PROFILE, fn () => new Ring([], 'no-such-client'));
    }

    public function testUnknownHash(): void
    {
        $this->expectStatus(KetamaException::UNKNOWN_HASH, fn () => new Ring([], 'libmemcached', 'nope'));
        $this->expectStatus(KetamaException::UNKNOWN_HASH, fn () => \Ketama\hash('nope', 'x'));
    }

    public function testAmbiguousHash(): void
    {
        $this->expectStatus(KetamaException::AMBIGUOUS_HASH, fn () => \Ketama\hash('crc32', 'x'));
        // profiles resolve it
        $this->assertCount(0, new Ring([], 'twemproxy', 'crc32'));
    }

    public function testInvalidUtf8(): void
    {
        $this->expectStatus(KetamaException::INVALID_UTF8, fn () => new Ring([], "lib\xff"));
        $this->expectStatus(KetamaException::INVALID_UTF8, fn () => new Ring(["10.0.0.\xff:1" => 1]));
        $ring = new Ring(['10.0.0.1:11211' => 1]);
        $this->expectStatus(KetamaException::INVALID_UTF8, fn () => $ring->remove("\xff"));
        $this->expectStatus(KetamaException::INVALID_UTF8, fn () => $ring->add('10.0.0.2:11211', 1, "\xff"));
    }

    public function testBadWeight(): void
    {
        $this->expectStatus(KetamaException::BAD_WEIGHT, fn () => new Ring(['10.0.0.1:11211' => 0], 'twemproxy'));
        $ring = new Ring(['10.0.0.1:11211' => 1]);
        $this->expectStatus(KetamaException::BAD_WEIGHT, fn () => $ring->add('10.0.0.2:11211', -1));
        $this->expectStatus(KetamaException::BAD_WEIGHT, fn () => $ring->add('10.0.0.2:11211', 1 << 40));
        $this->expectStatus(KetamaException::BAD_WEIGHT, fn () => $ring->setWeight('10.0.0.1:11211', 0));
    }

    public function testDuplicateAndMissingServer(): void
    {
        $ring = new Ring(['10.0.0.1:11211' => 1]);
        $this->expectStatus(KetamaException::DUPLICATE_SERVER, fn () => $ring->add('10.0.0.1:11211'));
        $this->expectStatus(KetamaException::MISSING_SERVER, fn () => $ring->remove('10.0.0.9:11211'));
        $this->expectStatus(KetamaException::MISSING_SERVER, fn () => $ring->setWeight('10.0.0.9:11211', 3));
        // a failed change leaves the ring as it was
        $this->assertSame([['10.0.0.1:11211', 1]], $ring->servers());
    }

    public function testBadLabel(): void
    {
        $this->expectStatus(KetamaException::BAD_LABEL, fn () => new Ring(['10.0.0.1:port' => 1]));
        $this->expectStatus(KetamaException::BAD_LABEL, fn () => new Ring(['' => 1]));
    }

    public function testEmptyRing(): void
    {
        $ring = new Ring([], 'php-memcached');
        $this->expectStatus(KetamaException::EMPTY_RING, fn () => $ring->get('k'));
        $this->expectStatus(KetamaException::EMPTY_RING, fn () => $ring->getN('k', 2));
        $this->expectStatus(KetamaException::EMPTY_RING, fn () => $ring->getMany(['k']));
        $ring->add('10.0.0.1:11211');
        $this->assertSame('10.0.0.1:11211', $ring->get('k'));
        $ring->remove('10.0.0.1:11211');
        $this->expectStatus(KetamaException::EMPTY_RING, fn () => $ring->get('k'));
    }

    public function testUnsupported(): void
    {
        $this->expectStatus(KetamaException::UNSUPPORTED, fn () => new Ring(['cache1.example:11211' => 1], 'xmemcached-nginx'));
    }

    /** Each refusal has its own status: a client that needs the key, a ring of fixed points. */
    public function testEachRefusalHasItsOwnStatus(): void
    {
        foreach (['mcrouter-ch3', 'pymemcache', 'uhashring'] as $profile) {
            $ring = new Ring(['10.0.0.1:11211', '10.0.0.2:11211'], $profile);
            $this->expectStatus(KetamaException::NEEDS_KEY, fn () => $ring->getByHash(7));
        }
        $this->expectStatus(KetamaException::NOT_A_CONTINUUM, fn () => Ring::fromPoints([[1, 'a:1']], null, 'jump'));
        $fixed = Ring::fromPoints([[1, 'a:1']]);
        $this->expectStatus(KetamaException::FIXED_POINTS, fn () => $fixed->add('b:1'));
        $hashed = Ring::fromPoints([[1, 'a:1'], [2, 'b:1']], fn (string $key): int => 1);
        $this->expectStatus(KetamaException::NEEDS_KEY, fn () => $hashed->locateAlive('k', []));
    }

    /** The generated status constants are the library's: each names its own status text. */
    public function testStatusConstantsAreTheLibrarys(): void
    {
        $constants = (new \ReflectionClass(\Ketama\Status::class))->getConstants();
        $this->assertSame(range(0, count($constants) - 1), array_values($constants));
        foreach ($constants as $name => $value) {
            $this->assertSame($value, constant(KetamaException::class . '::' . $name));
            $this->assertNotSame('unknown status', Library::message($value), $name);
        }
        $this->assertSame('unknown status', Library::message(count($constants)));
    }

    /** The refusal rule: a single lookup throws, a batch gives null for that key. */
    public function testRefusedKeysThrowAloneAndAreNullInBatches(): void
    {
        $xmc = new Ring(['10.0.0.1:11211' => 1, '10.0.0.2:11211' => 1], 'xmemcached', 'KETAMA_HASH');
        try {
            $xmc->get('');
            $this->fail('a refused key must throw');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::KEY_REJECTED, $e->getCode());
        }
        $this->assertSame([null], $xmc->getMany(['']));
        $seed = new Ring(['10.0.0.1:11211' => 1], 'flexihash-seed');
        try {
            $seed->get('apple');
            $this->fail('a key no server owns must throw');
        } catch (KetamaException $e) {
            $this->assertSame(KetamaException::NO_SERVER, $e->getCode());
        }
        $this->assertSame([null], $seed->getMany(['apple']));
    }

    public function testBadServersArgument(): void
    {
        $this->expectStatus(KetamaException::BAD_WEIGHT, fn () => new Ring(['10.0.0.1:11211' => 1.5]));
    }

    public function testLibraryNotFound(): void
    {
        $cmd = sprintf(
            'KETAMA_LIB=/nonexistent/libketama.so %s -d ffi.enable=1 -r %s 2>&1',
            escapeshellarg(PHP_BINARY),
            escapeshellarg('require ' . var_export(__DIR__ . '/bootstrap.php', true) . '; try { new Ketama\Ring(); } catch (Ketama\KetamaException $e) { echo $e->getCode(), ":", $e->getMessage(); }')
        );
        $out = (string) shell_exec($cmd);
        $this->assertStringStartsWith(KetamaException::LIBRARY_NOT_FOUND . ':cannot load /nonexistent/libketama.so', $out);
    }

    public function testApiBasics(): void
    {
        $ring = new Ring(['10.0.1.1:11211', '10.0.1.2:11211', '10.0.1.3:11211']);
        $this->assertCount(3, $ring);
        $this->assertSame([['10.0.1.1:11211', 1], ['10.0.1.2:11211', 1], ['10.0.1.3:11211', 1]], $ring->servers());
        $n = $ring->getN('user:1', 5);
        $this->assertCount(3, $n);
        $this->assertSame($ring->get('user:1'), $n[0]);
        $this->assertSame([], $ring->getN('user:1', 0));
        $points = $ring->points();
        $this->assertCount(480, $points);
        $this->assertSame(3195025439, $ring->keyHash('apple'));
        $this->assertSame(3195025439, \Ketama\hash('md5', 'apple'));
        $this->assertSame(3195025439, \Ketama\hash('KETAMA_HASH', 'apple'));
    }

    public function testVersionsAgree(): void
    {
        $cargo = (string) file_get_contents(dirname(__DIR__, 3) . '/Cargo.toml');
        $this->assertMatchesRegularExpression('/^version = "' . preg_quote(\Ketama\version(), '/') . '"/m', $cargo);
    }
}
