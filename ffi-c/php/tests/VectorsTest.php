<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\KetamaException;
use Ketama\Ring;
use PHPUnit\Framework\TestCase;

/**
 * Every tests/vectors/*.json and tests/vectors/options/*.json file (recorded from the real
 * clients) through the PHP wrapper; a file's options go to the constructor.
 */
final class VectorsTest extends TestCase
{
    public function testOptionsAreChecked(): void
    {
        $servers = ['10.0.0.1:11211', '10.0.0.2:11211', '10.0.0.3:11211'];
        $ring = new Ring($servers, 'twemproxy', null, ['hash_tag' => '{}']);
        $this->assertSame($ring->get('user:1'), $ring->get('{user:1}:cart'));
        foreach ([
            ['libketama', ['hash_tag' => '{}']],
            ['twemproxy', ['hash_tag' => '{']],
            ['twemproxy', ['prefix_key' => 'p:']],
            ['php-memcached', ['prefix_key' => str_repeat('x', 128)]],
        ] as [$profile, $options]) {
            try {
                new Ring($servers, $profile, null, $options);
                $this->fail("$profile accepted " . json_encode($options));
            } catch (KetamaException $e) {
                $this->assertSame(KetamaException::BAD_OPTION, $e->getCode());
            }
        }
        $hashed = new Ring($servers, 'php-memcached', null, ['prefix_key' => 'p:', 'hash_with_prefix' => true]);
        $plain = new Ring($servers, 'php-memcached');
        for ($i = 0; $i < 50; $i++) {
            $this->assertSame($plain->get("p:k$i"), $hashed->get("k$i"));
        }
    }

    /** @return array<string, array{string}> */
    public static function vectorFiles(): array
    {
        $dir = getenv('KETAMA_VECTORS') ?: dirname(__DIR__, 3) . '/tests/vectors';
        $files = array_merge(glob("$dir/*.json") ?: [], glob("$dir/options/*.json") ?: []);
        $out = [];
        foreach ($files as $f) {
            $out[basename(dirname($f)) === 'options' ? 'options/' . basename($f) : basename($f)] = [$f];
        }
        return $out;
    }

    /** @dataProvider vectorFiles */
    public function testVectorFile(string $file): void
    {
        $v = json_decode((string) file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);
        $kind = $v['kind'] ?? 'locate';
        $this->assertCount(count($v['keys']), $v['expect']);
        $bad = [];
        if ($kind === 'hash') {
            // With a profile: the hash as that client's ring computes it, refusals as null.
            $ring = isset($v['profile']) ? new Ring([], $v['profile'], $v['hash']) : null;
            foreach ($v['keys'] as $i => $key) {
                try {
                    $got = $ring !== null ? $ring->keyHash($key) : \Ketama\hash($v['hash'], $key);
                } catch (\Ketama\KetamaException $e) {
                    if ($e->getCode() !== 12) { // KETAMA_STATUS_KEY_REJECTED
                        throw $e;
                    }
                    $got = null;
                }
                if ($got !== $v['expect'][$i]) {
                    $bad[] = [$key, $v['expect'][$i], $got];
                }
            }
        } else {
            $servers = [];
            foreach ($v['servers'] as $s) {
                $servers[] = ['label' => $s['label'], 'weight' => $s['weight'] ?? 1, 'name' => $s['name'] ?? null];
            }
            $ring = new Ring($servers, $v['profile'], $v['hash'] ?? null, $v['options'] ?? []);
            $this->assertCount(count($v['servers']), $ring);
            if ($kind === 'sequence') {
                foreach ($v['keys'] as $i => $key) {
                    try {
                        $got = $ring->failover($key, $v['n']);
                    } catch (KetamaException $e) {
                        if ($e->getCode() !== 12) { // KETAMA_STATUS_KEY_REJECTED: null expected
                            throw $e;
                        }
                        $got = null;
                    }
                    if ($got !== $v['expect'][$i]) {
                        $bad[] = [$key, implode(',', $v['expect'][$i] ?? ['null']), implode(',', $got ?? ['null'])];
                    }
                }
            } else {
                $many = $ring->getMany($v['keys']);
                foreach ($v['keys'] as $i => $key) {
                    // The refusal rule: a single get() throws where the client gives nothing.
                    try {
                        $got = $ring->get($key);
                    } catch (KetamaException $e) {
                        if (!in_array($e->getCode(), [KetamaException::KEY_REJECTED, KetamaException::NO_SERVER], true)) {
                            throw $e;
                        }
                        $got = null;
                    }
                    if ($got !== $v['expect'][$i]) {
                        $bad[] = [$key, $v['expect'][$i], $got];
                    } elseif ($many[$i] !== $got) {
                        $bad[] = [$key, 'getMany == get', $many[$i]];
                    }
                }
            }
        }
        $examples = array_map(
            static fn (array $b): string => sprintf('key %s: expected %s, got %s', json_encode($b[0]), json_encode($b[1]), json_encode($b[2])),
            array_slice($bad, 0, 3)
        );
        $this->assertSame([], $examples, sprintf('%d of %d keys differ', count($bad), count($v['keys'])));
    }
}
