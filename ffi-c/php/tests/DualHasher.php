<?php

declare(strict_types=1);

namespace Ketama\Tests;

use Ketama\Flexihash\Hasher\HasherInterface;

/**
 * A custom hasher both flexihash classes accept (ours and pda/flexihash's), for comparing
 * their slow paths. Load it only once pda/flexihash's interface can be autoloaded.
 */
final class DualHasher implements HasherInterface, \Flexihash\Hasher\HasherInterface
{
    public function hash($string)
    {
        return hexdec(substr(sha1((string) $string), 0, 7));
    }
}
