<?php

declare(strict_types=1);

namespace Ketama;

/**
 * Hashes `$key` with a named hash function (`md5`, `one_at_a_time`, `crc32a`, `fnv1a_32`,
 * ... or a client's enum name such as `FNV1A_32_HASH`), as the clients do. Returns the
 * unsigned 32-bit value.
 *
 * @throws KetamaException for an unknown or ambiguous name
 */
function hash(string $algorithm, string $key): int
{
    $ffi = Library::ffi();
    $out = $ffi->new('uint32_t');
    Library::check($ffi->ketama_hash($algorithm, $key, strlen($key), \FFI::addr($out)));
    return $out->cdata;
}

/** The library version (`MAJOR.MINOR.PATCH`). */
function version(): string
{
    return Library::version();
}
