<?php

declare(strict_types=1);

namespace Ketama;

/**
 * A failed call into libketama: the message is the library's status text, the code its
 * `ketama_status` value (one of the constants below, same numbers as `KETAMA_STATUS_*`).
 */
class KetamaException extends \RuntimeException
{
    public const NULL_ARGUMENT = 1;
    public const EMPTY_RING = 2;
    public const NO_SERVER = 3;
    public const UNKNOWN_PROFILE = 4;
    public const UNKNOWN_HASH = 5;
    public const AMBIGUOUS_HASH = 6;
    public const BAD_WEIGHT = 7;
    public const DUPLICATE_SERVER = 8;
    public const MISSING_SERVER = 9;
    public const BAD_LABEL = 10;
    public const INVALID_UTF8 = 11;
    public const KEY_REJECTED = 12;
    public const UNSUPPORTED = 13;
    public const TOO_MANY_POINTS = 14;
    public const INDEX_OUT_OF_RANGE = 15;
    public const PANIC = 16;
    public const INTERNAL = 17;
    public const BAD_FACTOR = 18;
    public const BAD_OPTION = 19;
    /** Not a library status: the library or its header could not be found or loaded. */
    public const LIBRARY_NOT_FOUND = 1000;
}
