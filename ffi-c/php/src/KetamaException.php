<?php

declare(strict_types=1);

namespace Ketama;

use Ketama\Exception\ByStatus;

/**
 * A failed call into libketama: the message is the library's status text, the code its
 * `ketama_status` value (one of the {@see Status} constants, inherited here:
 * `KetamaException::EMPTY_RING`, the same numbers as `KETAMA_STATUS_*`). Each status has its
 * own subclass, named after the error (`Ketama\Exception\EmptyRingException`, generated from
 * `spec/errors.json`), so callers may catch one error or switch on the code. An error that
 * blames one server input says which: serverLabel(), and serverIndex() (its place in the list
 * given) when a list was given.
 */
class KetamaException extends \RuntimeException implements Status
{
    /** Not a library status: the library or its header could not be found or loaded. */
    public const LIBRARY_NOT_FOUND = 1000;

    private ?int $serverIndex = null;
    private ?string $serverLabel = null;

    /**
     * The exception of a failed status: its own class (KetamaException for a code this
     * version does not know), naming the server input to blame when one is.
     */
    public static function of(string $message, int $status, ?int $serverIndex = null, ?string $serverLabel = null): self
    {
        $class = ByStatus::CLASSES[$status] ?? self::class;
        $e = new $class($message, $status);
        $e->serverIndex = $serverIndex;
        $e->serverLabel = $serverLabel;
        return $e;
    }

    /** The place, in the list given, of the server input to blame; null when none is. */
    public function serverIndex(): ?int
    {
        return $this->serverIndex;
    }

    /** The label of the server input to blame; null when none is. */
    public function serverLabel(): ?string
    {
        return $this->serverLabel;
    }
}
