<?php

declare(strict_types=1);

namespace Ketama\Flexihash\Hasher;

/** The first 8 hex digits of `md5()` as an integer (the digest's first word, big-endian). */
class Md5Hasher implements HasherInterface
{
    public function hash($string)
    {
        return hexdec(substr(md5($string), 0, 8));
    }
}
