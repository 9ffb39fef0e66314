<?php

declare(strict_types=1);

namespace Ketama\Ring;

use FFI;
use Ketama\KetamaException;
use Ketama\Library;

/**
 * Key lookups of a {@see \Ketama\Ring}: one key (the two-argument fast path and the long
 * way) and many keys in one native call, against the label list kept on the PHP side.
 *
 * @internal a part of {@see \Ketama\Ring}, used by it alone
 */
trait Lookup
{
    /**
     * The label of the server `$key` goes to.
     *
     * @throws KetamaException when the client refuses the key (KEY_REJECTED), no server owns
     *         it (NO_SERVER) or the ring is empty (EMPTY_RING); see the README's refusal rule
     */
    public function get(string $key): string
    {
        // One native call of two arguments (each FFI argument costs about 30 ns) returning a
        // plain int, `(key length << 32) | server index`, and the label array kept here: the
        // xor with the length PHP knows is the index when the library saw the whole key, and
        // no index (negative or >= 2^32) when a NUL byte cut the key short, the call failed,
        // the labels are stale after a change (null) or PHP hashes the keys ($fast null).
        // Everything else takes getSlow(), which gives the answer or the error.
        return $this->labels[$this->ffi->ketama_ring_lookup_str($this->fast, $key) ^ (strlen($key) << 32)]
            ?? $this->getSlow($key);
    }

    /**
     * get() by the long way: the caller's hash, or the key with its length, a failure status
     * thrown, the label array refilled after a change.
     *
     * The refusal rule: a single lookup throws for a refused key (KEY_REJECTED), a key no
     * server owns (NO_SERVER) and an empty ring; getMany() gives null per refused key.
     */
    private function getSlow(string $key): string
    {
        if ($this->hashFn !== null) {
            return $this->getByHash($this->callHash($key), 1)[0];
        }
        $i = $this->ffi->ketama_ring_lookup_index($this->ring, $key, strlen($key));
        if ($i < 0) {
            Library::check(-$i);
        }
        return ($this->labels ??= $this->labelList())[$i];
    }

    /**
     * `get()` for each key: a list aligned with the input (entry i is the server of the i-th
     * key), null for a key the client refuses. Duplicate keys each get their entry; keys are
     * never used as array keys, so "123" stays a string and nothing merges.
     *
     * @param iterable<string> $keys
     * @return list<?string>
     */
    public function getMany(iterable $keys): array
    {
        // Each key as get()'s string parameter takes it: strings as they are; ints, floats,
        // bools and Stringable objects converted as PHP converts them; anything else refused.
        // An array of strings (the usual case) is taken as it is: one pass that only checks.
        $list = is_array($keys) ? $keys : null;
        if ($list !== null) {
            foreach ($list as $key) {
                if (!is_string($key)) {
                    $list = null;
                    break;
                }
            }
        }
        if ($list === null) {
            $list = [];
            foreach ($keys as $key) {
                $list[] = self::keyString($key);
            }
        }
        if ($this->hashFn !== null) {
            // the caller's hash runs in PHP, key by key
            $out = [];
            foreach ($list as $key) {
                try {
                    $out[] = $this->get($key);
                } catch (KetamaException $e) {
                    if (!in_array($e->getCode(), [KetamaException::NO_SERVER, KetamaException::KEY_REJECTED], true)) {
                        throw $e;
                    }
                    $out[] = null;
                }
            }
            return $out;
        }
        $n = count($list);
        if ($n === 0) {
            return [];
        }
        $labels = $this->labels ??= $this->labelList();
        // One native call and no per-key PHP work but PHP's own bulk functions: the keys
        // joined with NUL bytes in, the labels joined with NUL bytes out (labels never hold
        // control characters), split by explode(): a list aligned with the keys.
        $joined = implode("\0", $list);
        if ($joined !== '' && substr_count($joined, "\0") === $n - 1) {
            $cap = $n * ($this->labelMax + 1);
            $out = $this->ffi->new("char[$cap]");
            $len = $this->ffi->new('size_t');
            $refused = $this->ffi->new('size_t');
            Library::check($this->ffi->ketama_ring_lookup_joined(
                $this->ring, $joined, strlen($joined), 0, $out, $cap, FFI::addr($len), FFI::addr($refused)
            ));
            $found = explode("\0", FFI::string($out, $len->cdata));
            if ($refused->cdata > 0) {
                foreach ($found as $i => $label) {
                    if ($label === '') {
                        $found[$i] = null;
                    }
                }
            }
            return $found;
        }
        // Keys holding NUL bytes (or one empty key): the keys back to back in one string, their
        // lengths copied in with one memcpy, the server indexes copied out with one
        // FFI::string (no per-key FFI call, CData access or pointer array).
        $list = array_values($list);
        $lens = $this->ffi->new("size_t[$n]");
        FFI::memcpy($lens, pack(self::SIZE_T_PACK, ...array_map('strlen', $list)), $n * PHP_INT_SIZE);
        $idx = $this->ffi->new("uint32_t[$n]");
        Library::check($this->ffi->ketama_ring_lookup_packed($this->ring, implode('', $list), $lens, $n, $idx));
        $found = unpack('L*', FFI::string($idx, 4 * $n));
        $out = [];
        for ($i = 1; $i <= $n; $i++) {
            // UINT32_MAX (a refused key) is no index: null
            $out[] = $labels[$found[$i]] ?? null;
        }
        return $out;
    }

    /** @return list<string> the labels by server index (and sets the longest's length) */
    private function labelList(): array
    {
        $labels = $this->labels();
        $this->labelMax = $labels === [] ? 0 : max(array_map('strlen', $labels));
        return $labels;
    }
}
