<?php

declare(strict_types=1);

namespace Ketama;

/**
 * A drop-in replacement for the widely copied `FlexiHash` class of the "Memcached分布式布置方案"
 * article (our `flexihash-seed` profile): replace the class with `use Ketama\FlexiHash;`.
 *
 *     $fh = new FlexiHash();
 *     $fh->addServer('192.168.1.1');
 *     $fh->addServer('192.168.1.2');
 *     $fh->lookup('key1');   // the server with the largest toHash() <= toHash('key1')
 *
 * Same placement, quirks included: each server is one point `toHash($server)`; the first
 * server to claim a point keeps it; `removeServer()` frees the point of `toHash($server)`
 * whoever holds it; a key goes to the server with the largest point <= `toHash($key)`, and a
 * key below every point gets `$serverList[count - 1]`, which is `null` unless that number
 * happens to be a point (the original also raises an "Undefined array key" warning there).
 * Lookups run in the native ring; once a server's name is one it refuses as a label (a
 * blank, a bad port, two names of one endpoint), in a {@see RawRing} over the names as given
 * (core's continuum over raw names, the same profile), rebuilt at the first lookup after a
 * change.
 */
class FlexiHash
{
    /** @var array<int, string> point => server, as the original's `$serverList` */
    private array $serverList = [];
    /** the native ring while every server is a label it accepts */
    private ?Ring $ring;
    /** once a name is refused as a label: the raw ring of `$serverList`, null after a change */
    private ?RawRing $raw = null;
    /** @var list<string> the raw ring's servers as given, by index */
    private array $rawServers = [];
    /** @var list<string> servers to add to the native ring in one batch at the next lookup */
    private array $pending = [];

    public function __construct()
    {
        $this->ring = new Ring([], 'flexihash-seed');
    }

    /**
     * The seed's hash: the first 8 hex digits of `md5($key)`, every other one folded base 31,
     * masked to 31 bits.
     *
     * @param string $key
     */
    public function toHash($key): int
    {
        return \Ketama\hash('seed_tohash', (string) $key);
    }

    /**
     * Puts a server on the ring at `toHash($server)`, unless another server holds that point.
     *
     * @param string $server
     */
    public function addServer($server): bool
    {
        $point = $this->toHash($server);
        if (!isset($this->serverList[$point])) {
            $this->serverList[$point] = $server;
            $this->raw = null;
            if ($this->ring !== null) {
                $this->pending[] = (string) $server;
            }
        }
        return true;
    }

    /**
     * Frees the point `toHash($server)` (whichever server holds it).
     *
     * @param string $server
     */
    public function removeServer($server): bool
    {
        $point = $this->toHash($server);
        if (isset($this->serverList[$point])) {
            $this->flush();
            if ($this->ring !== null) {
                $this->ring->remove((string) $this->serverList[$point]);
            }
            unset($this->serverList[$point]);
            $this->raw = null;
        }
        return true;
    }

    /**
     * The server for a key (see the class notes for keys below every point).
     *
     * @param string $key
     * @return ?string
     */
    public function lookup($key)
    {
        if ($this->serverList === []) {
            return null;
        }
        $this->flush();
        try {
            if ($this->ring !== null) {
                return $this->ring->get((string) $key);
            }
            return $this->rawServers[$this->rawRing()->get((string) $key)];
        } catch (KetamaException $e) {
            // NO_SERVER: the user's PHP FlexiHash class falls off its list and returns null (the refusal
            // rule makes a single get() throw there).
            if ($e->getCode() !== KetamaException::NO_SERVER) {
                throw $e;
            }
        }
        return $this->serverList[count($this->serverList) - 1] ?? null;
    }

    /** The raw ring of the current servers (one point each, as the native ring has them). */
    private function rawRing(): RawRing
    {
        if ($this->raw === null) {
            $this->rawServers = array_values($this->serverList);
            $this->raw = new RawRing(array_map(fn ($s) => [(string) $s, 1], $this->rawServers), 'flexihash-seed');
        }
        return $this->raw;
    }

    /** Adds the queued servers to the native ring; a name it refuses switches to the raw ring. */
    private function flush(): void
    {
        if ($this->pending === [] || $this->ring === null) {
            return;
        }
        $pending = $this->pending;
        $this->pending = [];
        try {
            $this->ring->addMany($pending);
        } catch (KetamaException $e) {
            $this->ring = null;
        }
    }
}
