<?php

declare(strict_types=1);

namespace Ketama;

/**
 * A memcached client whose placement is our ring's: every key goes to the one server a
 * `Ketama\Ring` names, through one plain connection per server (php-memcached `Memcached` or
 * pecl `Memcache`, each holding exactly one server, so their own distribution never runs).
 * A PHP application can so share a fleet with Java, Ruby, Go or Python clients whose
 * placement neither PHP extension reproduces.
 *
 *     $client = Ketama\Client::create(['10.0.0.1:11211', '10.0.0.2:11211'], 'spymemcached');
 *     $client->set('user:42', 'Ada');
 *     $client->get('user:42');              // "Ada"
 *     $client->getMulti(['user:42', 'x']);  // ['user:42' => 'Ada']
 *
 * Misses are told apart from stored `false`: `get()` returns `$default` only on a miss.
 * A key the profile's client refuses (e.g. over 250 bytes for libmemcached) is a miss for
 * `get()` and a failure for `set()`/`delete()`; so is, with the php-memcached backend, any key
 * with a byte outside printable ASCII (the extension refuses it; pecl memcache sends it).
 * Connections open on first use.
 *
 * A server that fails (connection refused or dropped, no answer within `timeout`) is never
 * taken for a miss: by default the call throws `Ketama\ServerException` naming the server and
 * the cause, and the server is marked down for `retry` seconds, during which calls to it
 * throw at once (no new wait); after that one call tries it again. With `failover => true`
 * a call goes on along the profile's failover sequence (`Ring::failover()`: the servers the
 * profile's own client would try next) and throws only when every server there failed.
 * Options (third constructor argument): `timeout` (seconds, default 2: connect, send,
 * receive and libmemcached's poll timeout, which is what bounds a read from a silent
 * server), `retry` (seconds a failed server stays marked down, default 10), `failover`
 * (default false).
 *
 * Warm-up mode, for a fleet that keeps serving while it is resized or its clients switch
 * placement (`ketama migrate`, docs/migrate.md): with the option `warm_from` (a `Client` on
 * today's ring, whose backend is today's clients'), this client is on tomorrow's ring and
 *   - reads the key's new owner first; on a miss it reads the old owner and `add`s what it
 *     found to the new owner (never overwriting a value written there meanwhile: when the add
 *     finds one, that newer value is what is returned);
 *   - writes (`set`, `add`) to the new owner only;
 *   - deletes on both owners, the old first (so a concurrent read cannot warm the new owner
 *     again from a copy that is about to go).
 * A warmed value is decoded by the old client's backend and encoded again by this one, so
 * its PHP type (string, int, float, bool, array, object) survives, also from php-memcached to
 * pecl memcache; what a plain `get` cannot see is lost: the remaining TTL (the copy gets
 * `warm_ttl` seconds, default 0: none) and php-memcached's user flags. `ketama migrate run`
 * copies both exactly. `Client::warmup($oldRing, $newRing)` builds the pair with one backend.
 */
final class Client
{
    /** php-memcached (`Memcached`). */
    public const MEMCACHED = 'memcached';
    /** pecl memcache (`Memcache`). */
    public const MEMCACHE = 'memcache';

    private Ring $ring;
    private string $backend;
    /** @var array<string, \Memcached|\Memcache> connections by server label */
    private array $conns = [];
    private float $timeout;
    private int $retry;
    private bool $failover;
    /** @var array<string, array{float, string}> servers marked down: until when, and why */
    private array $down = [];
    /** @var array<string, string> pecl memcache failures reported by its callback, by label */
    private array $reported = [];
    /** Warm-up mode: the client on today's ring (see the class doc). */
    private ?Client $warmFrom = null;
    /** Warm-up mode: the TTL, in seconds, of a value copied to its new owner (0: none). */
    private int $warmTtl = 0;

    /**
     * @param string $backend self::MEMCACHED or self::MEMCACHE
     * @param array{timeout?: int|float, retry?: int, failover?: bool, warm_from?: Client, warm_ttl?: int} $options see the class doc
     * @throws \InvalidArgumentException when the backend is unknown, its extension is missing
     *         or an option is not understood
     */
    public function __construct(Ring $ring, string $backend = self::MEMCACHED, array $options = [])
    {
        if ($backend !== self::MEMCACHED && $backend !== self::MEMCACHE) {
            throw new \InvalidArgumentException("unknown backend '$backend': use 'memcached' or 'memcache'");
        }
        if (!extension_loaded($backend)) {
            throw new \InvalidArgumentException("the PHP extension '$backend' is not loaded");
        }
        foreach (array_keys($options) as $name) {
            if (!in_array($name, ['timeout', 'retry', 'failover', 'warm_from', 'warm_ttl'], true)) {
                throw new \InvalidArgumentException("unknown option '$name': use timeout, retry, failover, warm_from or warm_ttl");
            }
        }
        $warmFrom = $options['warm_from'] ?? null;
        $warmTtl = $options['warm_ttl'] ?? 0;
        if ($warmFrom !== null && !$warmFrom instanceof self) {
            throw new \InvalidArgumentException('warm_from: a Ketama\Client on the old ring');
        }
        if (!is_int($warmTtl) || $warmTtl < 0) {
            throw new \InvalidArgumentException('warm_ttl: whole seconds, 0 (no expiry) or more');
        }
        if ($warmFrom === null && isset($options['warm_ttl'])) {
            throw new \InvalidArgumentException('warm_ttl needs warm_from');
        }
        $timeout = $options['timeout'] ?? 2;
        $retry = $options['retry'] ?? 10;
        if (!is_int($timeout) && !is_float($timeout) || $timeout <= 0 || $timeout > 3600) {
            throw new \InvalidArgumentException('timeout: seconds, above 0 and at most 3600');
        }
        if (!is_int($retry) || $retry < 0 || $retry > 86400) {
            throw new \InvalidArgumentException('retry: whole seconds from 0 to 86400');
        }
        $this->ring = $ring;
        $this->backend = $backend;
        $this->timeout = (float) $timeout;
        $this->retry = $retry;
        $this->failover = (bool) ($options['failover'] ?? false);
        $this->warmFrom = $warmFrom;
        $this->warmTtl = $warmTtl;
    }

    /**
     * A client over a new ring of these servers (see `Ring::__construct` for the forms).
     *
     * @param array<int|string, int|string|array{weight?: int, name?: string}> $servers
     * @param array{timeout?: int|float, retry?: int, failover?: bool} $options as for the constructor
     * @throws KetamaException
     */
    public static function create(array $servers, string $profile, ?string $hash = null, string $backend = self::MEMCACHED, array $options = []): self
    {
        return new self(new Ring($servers, $profile, $hash), $backend, $options);
    }

    /**
     * A warm-up client (see the class doc): on `$new`, warming from a client on `$old`, both
     * with `$backend` and `$options` (timeout, retry, failover; `warm_ttl` applies to the
     * warm-up client only).
     *
     * @param array{timeout?: int|float, retry?: int, failover?: bool, warm_ttl?: int} $options
     * @throws \InvalidArgumentException as the constructor
     */
    public static function warmup(Ring $old, Ring $new, string $backend = self::MEMCACHED, array $options = []): self
    {
        if (isset($options['warm_from'])) {
            throw new \InvalidArgumentException('warm_from: given by the old ring here');
        }
        $plain = $options;
        unset($plain['warm_ttl']);
        return new self($new, $backend, ['warm_from' => new self($old, $backend, $plain)] + $options);
    }

    /** The client on today's ring this one warms from (warm-up mode), else null. */
    public function warmFrom(): ?Client
    {
        return $this->warmFrom;
    }

    /** The ring that places the keys. */
    public function ring(): Ring
    {
        return $this->ring;
    }

    /** The label of the server a key goes to, or null when the client refuses the key. */
    public function serverFor(string $key): ?string
    {
        try {
            return $this->ring->get($key);
        } catch (KetamaException $e) {
            // The ring's refusal rule throws; here "nothing" means the client refuses the key.
            if (in_array($e->getCode(), [KetamaException::KEY_REJECTED, KetamaException::NO_SERVER], true)) {
                return null;
            }
            throw $e;
        }
    }

    /**
     * The value stored under `$key`, or `$default` when it is not there.
     *
     * @param mixed $default
     * @return mixed
     * @throws ServerException when the key's server (every server of its failover sequence,
     *         with `failover`) failed
     */
    public function get(string $key, $default = null)
    {
        $found = $this->getMulti([$key]);
        return array_key_exists($key, $found) ? $found[$key] : $default;
    }

    /**
     * The keys found, with their values, in the order asked; one request per server (in
     * warm-up mode, then one per old server for the keys the new owners miss).
     *
     * @param iterable<string> $keys
     * @return array<string, mixed>
     * @throws ServerException as get()
     */
    public function getMulti(iterable $keys): array
    {
        $order = [];
        foreach ($keys as $key) {
            $order[] = (string) $key;
        }
        $found = $this->fetch($order);
        if ($this->warmFrom !== null) {
            $found += $this->warm(array_values(array_filter($order, static fn ($k) => !array_key_exists($k, $found))));
        }
        $out = [];
        foreach ($order as $key) {
            if (array_key_exists($key, $found)) {
                $out[$key] = $found[$key];
            }
        }
        return $out;
    }

    /**
     * Warm-up mode: the keys the old owners hold, each added to its new owner; where the add
     * finds a value there (written since the new owner was read), that value.
     *
     * @param list<string> $keys keys the new owners missed
     * @return array<string, mixed>
     * @throws ServerException as get()
     */
    private function warm(array $keys): array
    {
        if ($keys === [] || $this->warmFrom === null) {
            return [];
        }
        $old = $this->warmFrom->getMulti($keys);
        $lost = [];
        foreach ($old as $key => $value) {
            if (!$this->add((string) $key, $value, $this->warmTtl)) {
                $lost[] = (string) $key;
            }
        }
        if ($lost !== []) {
            $newer = $this->fetch($lost);
            foreach ($newer as $key => $value) {
                $old[$key] = $value;
            }
        }
        return $old;
    }

    /**
     * The keys found on this client's own ring (no warm-up), by key.
     *
     * @param list<string> $keys
     * @return array<string, mixed>
     * @throws ServerException as get()
     */
    private function fetch(array $keys): array
    {
        $todo = [];
        foreach ($keys as $key) {
            $todo[$key] = $this->candidates($key);
        }
        $found = [];
        while ($todo !== []) {
            $byServer = [];
            foreach ($todo as $key => $servers) {
                if ($servers === []) {
                    unset($todo[$key]); // refused key: a miss
                    continue;
                }
                $byServer[$servers[0]][] = $key;
            }
            foreach ($byServer as $label => $list) {
                $got = $this->call($label, static fn ($conn) => $conn instanceof \Memcached ? $conn->getMulti($list) : $conn->get($list));
                if ($got instanceof ServerException) {
                    foreach ($list as $key) {
                        $this->next($todo, $key, $got);
                    }
                    continue;
                }
                if (is_array($got)) {
                    $found += $got;
                }
                foreach ($list as $key) {
                    unset($todo[$key]);
                }
            }
        }
        return $found;
    }

    /**
     * Stores a value on the key's server; false when the server did not store it or the
     * client refuses the key.
     *
     * @param mixed $value
     * @throws ServerException as get()
     */
    public function set(string $key, $value, int $ttl = 0): bool
    {
        return $this->each($key, static fn ($conn) => $conn instanceof \Memcached ? $conn->set($key, $value, $ttl) : $conn->set($key, $value, 0, $ttl));
    }

    /**
     * Stores a value on the key's server only if the server does not hold the key; false
     * when it did not store it (the key was there) or the client refuses the key.
     *
     * @param mixed $value
     * @throws ServerException as get()
     */
    public function add(string $key, $value, int $ttl = 0): bool
    {
        return $this->each($key, static fn ($conn) => $conn instanceof \Memcached ? $conn->add($key, $value, $ttl) : $conn->add($key, $value, 0, $ttl));
    }

    /**
     * Deletes the key from its server (in warm-up mode: from its old owner, then its new
     * one); false when it was not there (or is refused).
     *
     * @throws ServerException as get()
     */
    public function delete(string $key): bool
    {
        $onOld = $this->warmFrom !== null && $this->warmFrom->delete($key);
        return $this->each($key, static fn ($conn) => $conn->delete($key)) || $onOld;
    }

    /**
     * The servers to try for `$key`, in order: its server, then (with `failover`) the rest
     * of the profile's failover sequence, each once. Empty when the client refuses the key.
     *
     * @return list<string>
     */
    private function candidates(string $key): array
    {
        $first = $this->serverFor($key);
        if ($first === null || !$this->failover) {
            return $first === null ? [] : [$first];
        }
        return array_values(array_unique(array_merge([$first], $this->ring->failover($key, max(1, count($this->ring))))));
    }

    /**
     * Moves `$key` on to its next candidate after `$e`, or throws `$e` when none is left.
     *
     * @param array<string, list<string>> $todo
     */
    private function next(array &$todo, string $key, ServerException $e): void
    {
        array_shift($todo[$key]);
        if ($todo[$key] === []) {
            throw $e;
        }
    }

    /**
     * Runs `$op` on the key's server (or along its failover sequence).
     *
     * @param callable(\Memcached|\Memcache): bool $op
     */
    private function each(string $key, callable $op): bool
    {
        $servers = $this->candidates($key);
        if ($servers === []) {
            return false;
        }
        foreach ($servers as $label) {
            $r = $this->call($label, $op);
            if (!$r instanceof ServerException) {
                return (bool) $r;
            }
            $last = $r;
        }
        throw $last;
    }

    /**
     * `$op` on one server's connection: its result, or the ServerException saying why the
     * server failed (it is then marked down for `retry` seconds; while it is, no call is
     * made).
     *
     * @param callable(\Memcached|\Memcache): mixed $op
     * @return mixed|ServerException
     */
    private function call(string $label, callable $op)
    {
        if (isset($this->down[$label])) {
            [$until, $why] = $this->down[$label];
            if (microtime(true) < $until) {
                return new ServerException($label, sprintf('%s; marked down for %d s more', $why, (int) ceil($until - microtime(true))));
            }
            unset($this->down[$label]);
        }
        $conn = $this->connection($label);
        unset($this->reported[$label]);
        $result = $op($conn);
        $why = $this->failure($label, $conn, $result);
        if ($why === null) {
            return $result;
        }
        $this->down[$label] = [microtime(true) + $this->retry, $why];
        return new ServerException($label, $why);
    }

    /**
     * Why the last call on `$conn` failed at the server, or null when the server answered
     * (a miss and "not stored" are answers).
     *
     * @param \Memcached|\Memcache $conn
     * @param mixed $result
     */
    private function failure(string $label, $conn, $result): ?string
    {
        if ($conn instanceof \Memcached) {
            $code = $conn->getResultCode();
            $failed = [];
            foreach (['HOST_LOOKUP_FAILURE', 'CONNECTION_FAILURE', 'CONNECTION_SOCKET_CREATE_FAILURE', 'WRITE_FAILURE',
                'UNKNOWN_READ_FAILURE', 'PROTOCOL_ERROR', 'ERRNO', 'TIMEOUT', 'SERVER_MARKED_DEAD',
                'SERVER_TEMPORARILY_DISABLED', 'NO_SERVERS', 'FAILURE', 'SOME_ERRORS'] as $name) {
                if (defined("\\Memcached::RES_$name")) {
                    $failed[] = constant("\\Memcached::RES_$name");
                }
            }
            return in_array($code, $failed, true) ? sprintf('%s (libmemcached result %d)', $conn->getResultMessage(), $code) : null;
        }
        // pecl memcache reports a failure through the callback given to addServer, or (a
        // write to a connection that died) only by a false result and the server's status.
        if (isset($this->reported[$label])) {
            return $this->reported[$label];
        }
        if ($result === false || $result === []) {
            [$host, $port] = self::hostPort($label);
            if ($conn->getServerStatus($host, $port) === 0) {
                return 'connection failed (pecl memcache marked the server failed)';
            }
        }
        return null;
    }

    /**
     * The connection to one server of the ring (opened on first use), with the client's
     * timeouts.
     *
     * @return \Memcached|\Memcache
     */
    public function connection(string $label)
    {
        if (isset($this->conns[$label])) {
            return $this->conns[$label];
        }
        [$host, $port] = self::hostPort($label);
        $ms = (int) ceil($this->timeout * 1000);
        if ($this->backend === self::MEMCACHED) {
            $conn = new \Memcached();
            $conn->setOption(\Memcached::OPT_CONNECT_TIMEOUT, $ms);
            // libmemcached waits for a reply in poll() with OPT_POLL_TIMEOUT (5 s by default,
            // whatever the send/receive timeouts say): this is what bounds a silent server.
            $conn->setOption(\Memcached::OPT_POLL_TIMEOUT, $ms);
            $conn->setOption(\Memcached::OPT_SEND_TIMEOUT, $ms * 1000);
            $conn->setOption(\Memcached::OPT_RECV_TIMEOUT, $ms * 1000);
            // A refused connection is not retried for `retry` seconds (libmemcached's own
            // marking; the client marks the server down itself for the other failures).
            $conn->setOption(\Memcached::OPT_RETRY_TIMEOUT, max(1, $this->retry));
            $conn->setOption(\Memcached::OPT_SERVER_FAILURE_LIMIT, 1);
            $conn->addServer($host, $port);
        } else {
            $conn = new \Memcache();
            $reported = &$this->reported;
            $conn->addServer($host, $port, false, 1, $this->timeout, max(1, $this->retry), true,
                static function ($h, $p, $udp, $error, $errno) use (&$reported, $label): void {
                    $reported[$label] = sprintf('%s (errno %d)', (string) $error, (int) $errno);
                });
        }
        return $this->conns[$label] = $conn;
    }

    /**
     * `host:port`, `[ipv6]:port`, `host` (port 11211) or a bare IPv6 address.
     *
     * @return array{string, int}
     */
    public static function hostPort(string $label): array
    {
        if (preg_match('/^\[([^\]]+)\](?::(\d+))?$/', $label, $m) === 1) {
            return [$m[1], isset($m[2]) ? (int) $m[2] : 11211];
        }
        if (substr_count($label, ':') === 1) {
            [$host, $port] = explode(':', $label);
            return [$host, (int) $port];
        }
        return [$label, 11211];
    }
}
