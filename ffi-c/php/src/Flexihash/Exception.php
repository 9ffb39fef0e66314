<?php

declare(strict_types=1);

namespace Ketama\Flexihash;

/**
 * What pda/flexihash 3.x throws (`Flexihash\Exception`): a duplicate or missing target, a
 * lookup on an empty ring, a zero count.
 */
class Exception extends \Exception
{
}
