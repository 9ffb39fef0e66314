<?php

declare(strict_types=1);

namespace Ketama;

/**
 * The bucket functions (`ketama_bucket()`): `jump` (Lamping & Veach), `guava` (Guava's
 * `Hashing.consistentHash`), `jumpback` (hash4j's JumpBackHash), `fliphash` (DataDog's
 * `fliphash_64`), `maglev-go` (dgryski/go-maglev) and `mpchash-go` (dgryski/go-mpchash).
 */
final class Bucket
{
    /** Every algorithm name. */
    public const ALGORITHMS = ['jump', 'guava', 'jumpback', 'fliphash', 'maglev-go', 'mpchash-go'];

    /**
     * The bucket (0 .. $buckets - 1) of the unsigned 64-bit `$input`.
     *
     * PHP ints are signed 64-bit: give inputs from 2^63 to 2^64 - 1 as decimal strings
     * (`"18446744073709551615"`); a non-negative int or any decimal string up to 2^64 - 1 works.
     *
     * @throws \ValueError for an input that is negative or not an unsigned 64-bit decimal
     * @throws KetamaException UNKNOWN_ALGORITHM, ZERO_BUCKETS, TOO_MANY_BUCKETS (more buckets
     *         than the algorithm takes)
     */
    public static function get(string $algorithm, int|string $input, int $buckets): int
    {
        $bits = self::inputBits($input);
        $n = $buckets < 0 ? 0 : min($buckets, 0xFFFFFFFF);
        $ffi = Library::ffi();
        $out = $ffi->new('uint32_t');
        Library::check($ffi->ketama_bucket($algorithm, strlen($algorithm), $bits, $n, \FFI::addr($out)));
        return $out->cdata;
    }

    /**
     * The PHP int with the same 64 bits as the unsigned `$input` (inputs from 2^63 become
     * negative ints, which FFI passes to `uint64_t` unchanged).
     */
    public static function inputBits(int|string $input): int
    {
        if (is_int($input)) {
            if ($input < 0) {
                throw new \ValueError("bucket input $input is negative: inputs are unsigned 64-bit");
            }
            return $input;
        }
        if ($input === '' || strspn($input, '0123456789') !== strlen($input)) {
            throw new \ValueError('bucket input ' . json_encode($input) . ' is not an unsigned decimal integer');
        }
        // Two 32-bit halves, so no step overflows a signed 64-bit int.
        $hi = 0;
        $lo = 0;
        $len = strlen($input);
        for ($i = 0; $i < $len; $i++) {
            $lo = $lo * 10 + (ord($input[$i]) - 48);
            $hi = $hi * 10 + ($lo >> 32);
            $lo &= 0xFFFFFFFF;
            if ($hi > 0xFFFFFFFF) {
                throw new \ValueError("bucket input $input is above 18446744073709551615 (2^64 - 1)");
            }
        }
        return ($hi << 32) | $lo;
    }
}
