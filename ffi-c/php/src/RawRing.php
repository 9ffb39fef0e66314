<?php

declare(strict_types=1);

namespace Ketama;

use FFI;

/**
 * A continuum over raw node names (the library's `ketama_raw_ring`): each server is a name
 * hashed exactly as given (any bytes: no label parsing, the same name twice is two servers,
 * each with its own points), known by its index in the list it was made from. It never
 * changes: make a new one.
 *
 *     $raw = new Ketama\RawRing([['cache 1', 64], ['cache 2', 128]], 'flexihash', 'md5_be', true);
 *     $raw->get('object-a');      // 1: the index of 'cache 2'
 *     $raw->getN('object-a', 2);  // [1, 0]
 *
 * What the drop-ins place names with that a {@see Ring} does not take as labels (flexihash
 * targets, the FlexiHash class's servers). `$profile` must be a searched continuum with one
 * owner per point (`libketama`, `flexihash`, `flexihash-seed`, `uhashring-ketama`, ...);
 * `$hash` names the key hash (also the point hash where the profile hashes points with it),
 * null for the profile's default; with `$strings` each count is the number of point strings
 * itself rather than a weight.
 */
final class RawRing implements \Countable
{
    private FFI $ffi;
    /** @var FFI\CData ketama_raw_ring* */
    private $ring;
    private int $servers;
    private int $points;
    /** @var FFI\CData|null uint32_t[] reused by getN() */
    private $walk = null;

    /**
     * @param list<array{0: string, 1: int}> $servers `[name, count]` in order
     * @throws KetamaException UNKNOWN_PROFILE, UNKNOWN_HASH, EMPTY_RING (no server),
     *         BAD_WEIGHT (a count that is not an int in 0..2^32-1, or a weight the client
     *         refuses), TOO_MANY_POINTS, NOT_A_CONTINUUM
     */
    public function __construct(array $servers, string $profile = 'libketama', ?string $hash = null, bool $strings = false)
    {
        $ffi = Library::ffi();
        $n = count($servers);
        $names = $ffi->new('const char*[' . max(1, $n) . ']');
        $lens = $ffi->new('size_t[' . max(1, $n) . ']');
        $counts = $ffi->new('uint32_t[' . max(1, $n) . ']');
        $keep = [];
        foreach (array_values($servers) as $i => [$name, $count]) {
            if (!is_int($count) || $count < 0 || $count > 0xFFFFFFFF) {
                throw new KetamaException(Library::message(KetamaException::BAD_WEIGHT) . ": server $i", KetamaException::BAD_WEIGHT);
            }
            $name = (string) $name;
            $len = strlen($name);
            $keep[] = $c = $ffi->new('char[' . ($len + 1) . ']');
            FFI::memcpy($c, $name, $len);
            $names[$i] = FFI::cast('const char*', $c);
            $lens[$i] = $len;
            $counts[$i] = $count;
        }
        $out = $ffi->new('ketama_raw_ring*');
        $blamed = $ffi->new('size_t');
        $blamed->cdata = PHP_INT_MAX;
        $create = $strings ? 'ketama_raw_ring_create_counted' : 'ketama_raw_ring_create';
        $status = $ffi->$create($profile, strlen($profile), $hash, $hash === null ? 0 : strlen($hash),
            $names, $lens, $counts, $n, FFI::addr($out), FFI::addr($blamed));
        if ($status !== 0) {
            $what = [KetamaException::UNKNOWN_PROFILE => $profile, KetamaException::UNKNOWN_HASH => (string) $hash][$status]
                ?? ($blamed->cdata !== PHP_INT_MAX ? 'server ' . $blamed->cdata : null);
            throw new KetamaException(Library::message($status) . ($what === null ? '' : ": $what"), $status);
        }
        $this->ffi = $ffi;
        $this->ring = $out;
        $sizes = $ffi->new('size_t[2]');
        Library::check($ffi->ketama_raw_ring_size($out, FFI::addr($sizes[0]), FFI::addr($sizes[1])));
        $this->servers = $sizes[0];
        $this->points = $sizes[1];
    }

    public function __destruct()
    {
        if (isset($this->ring)) {
            $this->ffi->ketama_raw_ring_free($this->ring);
        }
    }

    /** Raw rings wrap a native handle: cloning is not supported. */
    private function __clone()
    {
    }

    /**
     * The index of the server `$key` goes to.
     *
     * @throws KetamaException NO_SERVER (no server has a point), KEY_REJECTED
     */
    public function get(string $key): int
    {
        $i = $this->ffi->ketama_raw_ring_lookup_index($this->ring, $key, strlen($key));
        if ($i < 0) {
            throw new KetamaException(Library::message(-$i), -$i);
        }
        return $i;
    }

    /**
     * Up to `$n` distinct server indexes for `$key`: its own, then the next owners walking
     * the continuum the way the profile's search goes.
     *
     * @return list<int>
     * @throws KetamaException as get()
     */
    public function getN(string $key, int $n): array
    {
        $n = max(0, min($n, $this->servers));
        if ($n === 0) {
            return [];
        }
        if ($this->walk === null || FFI::sizeof($this->walk) < 4 * $n) {
            $this->walk = $this->ffi->new("uint32_t[$n]");
        }
        $count = $this->ffi->new('size_t');
        Library::check($this->ffi->ketama_raw_ring_lookup_n($this->ring, $key, strlen($key), $n, $this->walk, FFI::addr($count)));
        $out = [];
        for ($i = 0; $i < $count->cdata; $i++) {
            $out[] = $this->walk[$i];
        }
        return $out;
    }

    /**
     * Every point, ascending: `[position, server index]` (among equal positions the tie
     * rule's winner first).
     *
     * @return list<array{0: int, 1: int}>
     */
    public function points(): array
    {
        $n = $this->points;
        if ($n === 0) {
            return [];
        }
        $pos = $this->ffi->new("uint32_t[$n]");
        $own = $this->ffi->new("uint32_t[$n]");
        $count = $this->ffi->new('size_t');
        Library::check($this->ffi->ketama_raw_ring_points($this->ring, $pos, $own, $n, FFI::addr($count)));
        $out = [];
        for ($i = 0; $i < $count->cdata; $i++) {
            $out[] = [$pos[$i], $own[$i]];
        }
        return $out;
    }

    /** Number of points. */
    public function count(): int
    {
        return $this->points;
    }

    /** Number of servers (entries of the list, points or not). */
    public function serverCount(): int
    {
        return $this->servers;
    }
}
