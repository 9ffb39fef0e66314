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

    /**
     * @param string $backend self::MEMCACHED or self::MEMCACHE
     * @throws \InvalidArgumentException when the backend is unknown or its extension is missing
     */
    public function __construct(Ring $ring, string $backend = self::MEMCACHED)
    {
        if ($backend !== self::MEMCACHED && $backend !== self::MEMCACHE) {
            throw new \InvalidArgumentException("unknown backend '$backend': use 'memcached' or 'memcache'");
        }
        if (!extension_loaded($backend)) {
            throw new \InvalidArgumentException("the PHP extension '$backend' is not loaded");
        }
        $this->ring = $ring;
        $this->backend = $backend;
    }

    /**
     * A client over a new ring of these servers (see `Ring::__construct` for the forms).
     *
     * @param array<int|string, int|string|array{weight?: int, name?: string}> $servers
     * @throws KetamaException
     */
    public static function create(array $servers, string $profile, ?string $hash = null, string $backend = self::MEMCACHED): self
    {
        return new self(new Ring($servers, $profile, $hash), $backend);
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
     */
    public function get(string $key, $default = null)
    {
        $found = $this->getMulti([$key]);
        return array_key_exists($key, $found) ? $found[$key] : $default;
    }

    /**
     * The keys found, with their values, in the order asked; one request per server.
     *
     * @param iterable<string> $keys
     * @return array<string, mixed>
     */
    public function getMulti(iterable $keys): array
    {
        $byServer = [];
        $order = [];
        foreach ($keys as $key) {
            $key = (string) $key;
            $order[] = $key;
            $label = $this->serverFor($key);
            if ($label !== null) {
                $byServer[$label][] = $key;
            }
        }
        $found = [];
        foreach ($byServer as $label => $list) {
            $conn = $this->connection($label);
            $got = $conn instanceof \Memcached ? $conn->getMulti($list) : $conn->get($list);
            if (is_array($got)) {
                $found += $got;
            }
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
     * Stores a value on the key's server.
     *
     * @param mixed $value
     */
    public function set(string $key, $value, int $ttl = 0): bool
    {
        $label = $this->serverFor($key);
        if ($label === null) {
            return false;
        }
        $conn = $this->connection($label);
        return $conn instanceof \Memcached ? $conn->set($key, $value, $ttl) : $conn->set($key, $value, 0, $ttl);
    }

    /** Deletes the key from its server; false when it was not there (or is refused). */
    public function delete(string $key): bool
    {
        $label = $this->serverFor($key);
        if ($label === null) {
            return false;
        }
        return $this->connection($label)->delete($key);
    }

    /**
     * The connection to one server of the ring (opened on first use).
     *
     * @return \Memcached|\Memcache
     */
    public function connection(string $label)
    {
        if (isset($this->conns[$label])) {
            return $this->conns[$label];
        }
        [$host, $port] = self::hostPort($label);
        if ($this->backend === self::MEMCACHED) {
            $conn = new \Memcached();
            $conn->setOption(\Memcached::OPT_CONNECT_TIMEOUT, 2000);
            $conn->setOption(\Memcached::OPT_SEND_TIMEOUT, 2000000);
            $conn->setOption(\Memcached::OPT_RECV_TIMEOUT, 2000000);
            $conn->addServer($host, $port);
        } else {
            $conn = new \Memcache();
            $conn->addServer($host, $port, false, 1, 2);
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
