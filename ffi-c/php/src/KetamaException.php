<?php

declare(strict_types=1);

namespace Ketama;

/**
 * A failed call into libketama: the message is the library's status text, the code its
 * `ketama_status` value (one of the {@see Status} constants, inherited here:
 * `KetamaException::EMPTY_RING`, the same numbers as `KETAMA_STATUS_*`).
 */
class KetamaException extends \RuntimeException implements Status
{
    /** Not a library status: the library or its header could not be found or loaded. */
    public const LIBRARY_NOT_FOUND = 1000;
}
