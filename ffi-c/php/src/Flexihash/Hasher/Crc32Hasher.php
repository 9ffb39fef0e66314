<?php

declare(strict_types=1);

namespace Ketama\Flexihash\Hasher;

/** PHP's `crc32()` (IEEE CRC-32, unsigned): flexihash's default hasher. */
class Crc32Hasher implements HasherInterface
{
    public function hash($string): int
    {
        return crc32($string);
    }
}
