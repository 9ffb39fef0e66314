<?php

declare(strict_types=1);

namespace Ketama\Ring;

use FFI;
use Ketama\Library;

/**
 * What a {@see \Ketama\Ring} holds: its key hash of a key, its servers, labels and points.
 *
 * @internal a part of {@see \Ketama\Ring}, used by it alone
 */
trait Inspect
{
    /** The ring's key hash of `$key` (the callable's, for a ring from fromPoints() given one). */
    public function keyHash(string $key): int
    {
        if ($this->hashFn !== null) {
            return $this->callHash($key);
        }
        $h = $this->ffi->new('uint32_t');
        Library::check($this->ffi->ketama_ring_key_hash($this->ring, $key, strlen($key), FFI::addr($h)));
        return $h->cdata;
    }

    /** Number of servers. */
    public function count(): int
    {
        $n = $this->ffi->new('size_t');
        Library::check($this->ffi->ketama_ring_server_count($this->ring, FFI::addr($n)));
        return $n->cdata;
    }

    /**
     * The servers in order, as `[label, weight]` pairs (a list, not a `label => weight` map:
     * PHP would turn a numeric label such as "5" into the int key 5).
     *
     * @return list<array{0: string, 1: int}>
     */
    public function servers(): array
    {
        $out = [];
        $p = $this->ffi->new('const char*');
        $n = $this->ffi->new('size_t');
        $w = $this->ffi->new('uint32_t');
        for ($i = 0, $c = $this->count(); $i < $c; $i++) {
            Library::check($this->ffi->ketama_ring_server($this->ring, $i, FFI::addr($p), FFI::addr($n), FFI::addr($w)));
            $out[] = [FFI::string($p, $n->cdata), $w->cdata];
        }
        return $out;
    }

    /**
     * The server labels in order (strings, numeric ones too).
     *
     * @return list<string>
     */
    public function labels(): array
    {
        return array_column($this->servers(), 0);
    }

    /**
     * The continuum, ascending: list of `[point, label]`.
     *
     * @return list<array{0: int, 1: string}>
     */
    public function points(): array
    {
        $n = $this->ffi->new('size_t');
        Library::check($this->ffi->ketama_ring_point_count($this->ring, FFI::addr($n)));
        $total = $n->cdata;
        if ($total === 0) {
            return [];
        }
        $pos = $this->ffi->new("uint32_t[$total]");
        $own = $this->ffi->new("uint32_t[$total]");
        Library::check($this->ffi->ketama_ring_points($this->ring, $pos, $own, $total, FFI::addr($n)));
        $labels = $this->labels();
        $out = [];
        for ($i = 0; $i < $n->cdata; $i++) {
            $out[] = [$pos[$i], $labels[$own[$i]]];
        }
        return $out;
    }
}
