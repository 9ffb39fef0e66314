<?php

declare(strict_types=1);

namespace Ketama;

/**
 * A memcached server did not answer (refused or dropped the connection, timed out, or is
 * marked down after such a failure): thrown by `Ketama\Client` instead of reporting a miss.
 * The code is SERVER_FAILED; server() names the server, cause() says what happened.
 */
final class ServerException extends KetamaException
{
    /** Not a library status: a memcached server failed. */
    public const SERVER_FAILED = 1001;

    private string $server;
    private string $cause;

    public function __construct(string $server, string $cause, ?\Throwable $previous = null)
    {
        parent::__construct("memcached server '$server' failed: $cause", self::SERVER_FAILED, $previous);
        $this->server = $server;
        $this->cause = $cause;
    }

    /** The label of the server that failed. */
    public function server(): string
    {
        return $this->server;
    }

    /** What happened (the extension's message, or "marked down until ..."). */
    public function cause(): string
    {
        return $this->cause;
    }
}
