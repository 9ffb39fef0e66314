<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Bucket;
use Ketama\KetamaException;
use PHPUnit\Framework\TestCase;

/**
 * Every tests/vectors/buckets/*.json file (recorded from Guava, hash4j, go-jump, go-maglev,
 * go-mpchash and the fliphash crate) through Ketama\Bucket::get, and its errors.
 */
final class BucketTest extends TestCase
{
    /** @return array<string, array{string}> */
    public static function bucketFiles(): array
    {
        $dir = (getenv('KETAMA_VECTORS') ?: dirname(__DIR__, 3) . '/tests/vectors') . '/buckets';
        $out = [];
        foreach (glob("$dir/*.json") ?: [] as $f) {
            $out[basename($f)] = [$f];
        }
        return $out;
    }

    public function testEveryAlgorithmHasAFile(): void
    {
        $seen = [];
        foreach (self::bucketFiles() as [$f]) {
            $seen[] = json_decode((string) file_get_contents($f), true, 512, JSON_THROW_ON_ERROR)['algorithm'];
        }
        sort($seen);
        $all = Bucket::ALGORITHMS;
        sort($all);
        $this->assertSame($all, $seen);
    }

    /** @dataProvider bucketFiles */
    public function testBucketFile(string $file): void
    {
        $v = json_decode((string) file_get_contents($file), true, 512, JSON_THROW_ON_ERROR);
        $algorithm = $v['algorithm'];
        // maglev-go and mpchash-go rebuild their table per call: check a 1-in-16 sample.
        $step = in_array($algorithm, ['maglev-go', 'mpchash-go'], true) ? 16 : 1;
        $bad = [];
        $n = 0;
        foreach ($v['cases'] as $i => [$input, $buckets, $want]) {
            if ($i % $step !== 0) {
                continue;
            }
            $n++;
            // The input as given (a decimal string), and as an int when PHP can hold it.
            $got = Bucket::get($algorithm, $input, $buckets);
            if (strlen($input) < 19 || (strlen($input) === 19 && strcmp($input, '9223372036854775807') <= 0)) {
                $asInt = Bucket::get($algorithm, (int) $input, $buckets);
                if ($asInt !== $got) {
                    $bad[] = "$input/$buckets: int $asInt, string $got";
                }
            }
            if ($got !== $want) {
                $bad[] = "$input/$buckets: got $got, want $want";
            }
        }
        $this->assertGreaterThanOrEqual(190, $n);
        $this->assertSame([], array_slice($bad, 0, 5), count($bad) . " of $n differ");
    }

    public function testInputBits(): void
    {
        $this->assertSame(0, Bucket::inputBits('0'));
        $this->assertSame(PHP_INT_MAX, Bucket::inputBits('9223372036854775807'));
        $this->assertSame(PHP_INT_MIN, Bucket::inputBits('9223372036854775808'));
        $this->assertSame(-1, Bucket::inputBits('18446744073709551615'));
        $this->assertSame(195, Bucket::get('guava', '2687259751451158933', 807));
        $this->assertSame(576, Bucket::get('jump', 2687259751451158933, 807));
    }

    /** @return array<string, array{int|string}> */
    public static function badInputs(): array
    {
        return ['negative' => [-1], 'too big' => ['18446744073709551616'], 'sign' => ['+1'],
                'empty' => [''], 'text' => ['12a'], 'spaces' => [' 1']];
    }

    /** @dataProvider badInputs */
    public function testBadInput(int|string $input): void
    {
        $this->expectException(\ValueError::class);
        Bucket::get('jump', $input, 3);
    }

    /** @return array<string, array{string, int, int}> */
    public static function badCalls(): array
    {
        return [
            'unknown algorithm' => ['nope', 3, KetamaException::UNKNOWN_ALGORITHM],
            'zero buckets' => ['jump', 0, KetamaException::ZERO_BUCKETS],
            'negative buckets' => ['guava', -5, KetamaException::ZERO_BUCKETS],
            'too many' => ['jumpback', 2147483648, KetamaException::TOO_MANY_BUCKETS],
            'way too many' => ['fliphash', PHP_INT_MAX, KetamaException::TOO_MANY_BUCKETS],
            'maglev limit' => ['maglev-go', 65538, KetamaException::TOO_MANY_BUCKETS],
        ];
    }

    /** @dataProvider badCalls */
    public function testBadCall(string $algorithm, int $buckets, int $code): void
    {
        $this->expectException(KetamaException::class);
        $this->expectExceptionCode($code);
        Bucket::get($algorithm, 1, $buckets);
    }
}
