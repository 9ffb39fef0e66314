<?php

declare(strict_types=1);

namespace Ketama\Flexihash\Hasher;

/**
 * pda/flexihash's hasher contract: `hash($string)` gives a target's or a resource's position
 * on the ring. Our {@see Crc32Hasher} and {@see Md5Hasher} run inside the native ring; any
 * other implementation is called from PHP (the slower path of {@see \Ketama\Flexihash\Flexihash}).
 */
interface HasherInterface
{
    /**
     * @param string $string
     * @return int|string|float a position; positions are compared as PHP array keys
     */
    public function hash($string);
}
