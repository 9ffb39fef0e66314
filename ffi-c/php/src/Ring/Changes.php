<?php

declare(strict_types=1);

namespace Ketama\Ring;

use FFI;
use Ketama\KetamaException;
use Ketama\Library;

/**
 * Changes of a {@see \Ketama\Ring}: adding (one server or many, all or nothing), removing and
 * reweighting servers, with the blamed entry named in a refusal.
 *
 * @internal a part of {@see \Ketama\Ring}, used by it alone
 */
trait Changes
{
    /**
     * Adds servers in one step (all or nothing), in the forms and by the input rules of the
     * class doc; a refusal names the entry.
     *
     * @param array<int|string, int|string|array{label?: string, weight?: int, name?: string}> $servers
     */
    public function addMany(array $servers): void
    {
        $this->labels = null;
        $n = count($servers);
        if ($n === 0) {
            return;
        }
        $entries = [];
        foreach ($servers as $key => $value) {
            try {
                $entries[] = self::entry($key, $value);
            } catch (KetamaException $e) {
                // The entry refused is named by its place in $servers too.
                throw KetamaException::of($e->getMessage(), $e->getCode(), count($entries), $e->serverLabel());
            }
        }
        $labels = $this->ffi->new("const char*[$n]");
        $labelLens = $this->ffi->new("size_t[$n]");
        $weights = $this->ffi->new("uint32_t[$n]");
        $names = $this->ffi->new("const char*[$n]");
        $nameLens = $this->ffi->new("size_t[$n]");
        $keep = []; // owned C copies of the strings, alive until the call returns
        foreach ($entries as $i => [$label, $weight, $name]) {
            $keep[] = $c = $this->cString($label);
            $labels[$i] = FFI::cast('const char*', $c);
            $labelLens[$i] = strlen($label);
            $weights[$i] = $weight;
            if ($name !== null) {
                $keep[] = $c = $this->cString($name);
                $names[$i] = FFI::cast('const char*', $c);
                $nameLens[$i] = strlen($name);
            }
        }
        $failed = $this->ffi->new('size_t[1]');
        $failed[0] = $n; // written by the library only when one entry is to blame
        $status = $this->ffi->ketama_ring_add_many($this->ring, $labels, $labelLens, $weights, $names, $nameLens, $n, $failed);
        if ($status !== 0) {
            $at = $failed[0] < $n ? (int) $failed[0] : null;
            $label = $at === null ? null : $entries[$at][0];
            throw KetamaException::of(Library::message($status) . $this->blame($status, $entries, $at), $status, $at, $label);
        }
    }

    /**
     * The message tail for a failed addMany(): the entry the library blamed (`$at`, from its
     * failed_index_out), and for a duplicate which server it repeats.
     *
     * @param list<array{0: string, 1: int, 2: ?string}> $entries
     */
    private function blame(int $status, array $entries, ?int $at): string
    {
        if ($at === null) {
            return '';
        }
        [$label, $weight] = $entries[$at];
        if ($status === KetamaException::DUPLICATE_SERVER) {
            if (in_array($label, $this->labels(), true)) {
                return sprintf(": server '%s' (entry %d) is already on the ring", self::show($label), $at);
            }
            foreach ($entries as $i => [$other]) {
                if ($i < $at && $other === $label) {
                    return sprintf(": server '%s' (entry %d) repeats entry %d", self::show($label), $at, $i);
                }
            }
            return sprintf(": server '%s' (entry %d): two labels name one endpoint, e.g. [::1]:11211 and [0:0::1]:11211", self::show($label), $at);
        }
        return sprintf(": server '%s' weight %d (entry %d)", self::show($label), $weight, $at);
    }

    /**
     * Adds one server at the end of the server order.
     *
     * @param int $weight an int from 0 to 2^32 - 1; anything else (`'abc'`, `2.9`) is refused
     *        with BAD_WEIGHT, never converted
     */
    public function add(string $label, $weight = 1, ?string $name = null): void
    {
        $this->labels = null;
        self::checkFor($this->ffi->ketama_ring_add_named(
            $this->ring, $label, strlen($label), self::weight($weight, $label), $name, $name === null ? 0 : strlen($name)
        ), $label);
    }

    /** Removes the server with this label. */
    public function remove(string $label): void
    {
        $this->labels = null;
        self::checkFor($this->ffi->ketama_ring_remove($this->ring, $label, strlen($label)), $label);
    }

    /**
     * Changes a server's weight.
     *
     * @param int $weight as for add()
     */
    public function setWeight(string $label, $weight): void
    {
        self::checkFor($this->ffi->ketama_ring_set_weight($this->ring, $label, strlen($label), self::weight($weight, $label)), $label);
    }
}
