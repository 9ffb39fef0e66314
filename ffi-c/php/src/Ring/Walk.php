<?php

declare(strict_types=1);

namespace Ketama\Ring;

use FFI;
use Ketama\KetamaException;
use Ketama\Library;

/**
 * Several servers of a {@see \Ketama\Ring}: replicas, the client's failover sequence, and
 * lookups by a key hash the caller computed.
 *
 * @internal a part of {@see \Ketama\Ring}, used by it alone
 */
trait Walk
{
    /**
     * Up to `$n` distinct servers for `$key`, primary first (replicas / failover order).
     *
     * @return list<string>
     */
    public function getN(string $key, int $n): array
    {
        if ($this->hashFn !== null) {
            return $n <= 0 ? [] : $this->getByHash($this->callHash($key), min($n, max(1, $this->count())));
        }
        // Never more than the servers there are: nothing is allocated for a huge $n.
        // (1 on an empty ring, so that the library reports EMPTY_RING.)
        return $this->walk('ketama_ring_lookup_n', $key, min($n, max(1, $this->count())));
    }

    /**
     * The client's own failover sequence, primary first: spymemcached's and xmemcached's
     * rehash walks (servers may repeat), for other profiles the same as getN().
     *
     * @return list<string>
     */
    public function failover(string $key, int $n): array
    {
        if ($this->hashFn !== null) {
            return $this->getN($key, $n);
        }
        // spymemcached's walk may repeat servers, so $n is not bounded by the server count;
        // it is bounded so that no caller can make PHP allocate without limit.
        if ($n > self::MAX_FAILOVER) {
            throw KetamaException::of(sprintf(
                '%s: failover n = %d (at most %d)',
                Library::message(KetamaException::INDEX_OUT_OF_RANGE),
                $n,
                self::MAX_FAILOVER
            ), KetamaException::INDEX_OUT_OF_RANGE);
        }
        return $this->walk('ketama_ring_failover', $key, $n);
    }

    /**
     * Where the client sends `$key` while the servers labelled in `$dead` are down: the first
     * server of its failover sequence (within as many tries as the client makes) that is not
     * dead; `null` when the client gives up (every server it would try is dead).
     *
     * @param list<string> $dead labels of servers on this ring
     * @throws KetamaException MISSING_SERVER (a label in `$dead` is not on the ring),
     *         KEY_REJECTED, EMPTY_RING, NEEDS_KEY (a ring whose keys a callable hashes)
     */
    public function locateAlive(string $key, array $dead): ?string
    {
        if ($this->hashFn !== null) {
            throw KetamaException::of(
                Library::message(KetamaException::NEEDS_KEY) . ': locateAlive on a ring whose keys a callable hashes',
                KetamaException::NEEDS_KEY
            );
        }
        $index = array_flip($this->labels());
        $n = count($dead);
        $idx = $this->ffi->new('uint32_t[' . max(1, $n) . ']');
        foreach (array_values($dead) as $i => $label) {
            if (!isset($index[$label])) {
                throw KetamaException::of(
                    Library::message(KetamaException::MISSING_SERVER) . ": dead server '$label'",
                    KetamaException::MISSING_SERVER
                );
            }
            $idx[$i] = $index[$label];
        }
        $p = $this->ffi->new('const char*');
        $len = $this->ffi->new('size_t');
        $st = $this->ffi->ketama_ring_lookup_alive($this->ring, $key, strlen($key), $idx, $n, FFI::addr($p), FFI::addr($len));
        if ($st === KetamaException::NO_SERVER && $n > 0) {
            return null;
        }
        Library::check($st);
        return FFI::string($p, $len->cdata);
    }

    /** @return list<string> */
    private function walk(string $function, string $key, int $n): array
    {
        if ($n <= 0) {
            return [];
        }
        $labels = $this->ffi->new("const char*[$n]");
        $lens = $this->ffi->new("size_t[$n]");
        $count = $this->ffi->new('size_t');
        Library::check($this->ffi->$function($this->ring, $key, strlen($key), $n, $labels, $lens, FFI::addr($count)));
        $out = [];
        for ($i = 0; $i < $count->cdata; $i++) {
            $out[] = FFI::string($labels[$i], $lens[$i]);
        }
        return $out;
    }

    /**
     * Up to `$n` distinct servers for a key hash the caller computed (a hasher of its own),
     * primary first, by the ring's search and tie rules (see fromPoints()).
     *
     * @return list<string>
     * @throws KetamaException EMPTY_RING, NO_SERVER, NEEDS_KEY (a client that reads the key
     *         itself or a 128-bit hash: mcrouter, hash rendezvous, uhashring)
     */
    public function getByHash(int $hash, int $n = 1): array
    {
        $labels = $this->labels ??= $this->labelList();
        $out = [];
        foreach ($this->indexesByHash($hash, $n) as $i) {
            $out[] = $labels[$i];
        }
        return $out;
    }

    /**
     * Server indexes (see servers()) for a caller's key hash: getByHash() without building
     * label strings, for wrappers that keep their own per-server values.
     *
     * @return list<int>
     */
    public function indexesByHash(int $hash, int $n = 1): array
    {
        if ($hash < 0 || $hash > 0xFFFFFFFF) {
            throw new \InvalidArgumentException('a key hash is an int in 0..4294967295');
        }
        if ($n <= 0) {
            return [];
        }
        if ($n === 1) {
            $idx = $this->hashIdx ??= $this->ffi->new('uint32_t[1]');
            $count = $this->hashCount ??= $this->ffi->new('size_t');
        } else {
            $idx = $this->ffi->new("uint32_t[$n]");
            $count = $this->ffi->new('size_t');
        }
        Library::check($this->ffi->ketama_ring_lookup_hash($this->ring, $hash, $n, $idx, FFI::addr($count)));
        $out = [];
        for ($i = 0; $i < $count->cdata; $i++) {
            $out[] = $idx[$i];
        }
        return $out;
    }

    /** The caller's hash of `$key` (rings from fromPoints() given a callable). */
    private function callHash(string $key): int
    {
        $h = ($this->hashFn)($key);
        if (!is_int($h) || $h < 0 || $h > 0xFFFFFFFF) {
            throw new \UnexpectedValueException('the ring\'s hash callable must return an int in 0..4294967295');
        }
        return $h;
    }
}
