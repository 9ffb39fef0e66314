<?php

declare(strict_types=1);

namespace Ketama\Flexihash;

use Ketama\Flexihash\Hasher\Crc32Hasher;
use Ketama\Flexihash\Hasher\HasherInterface;
use Ketama\Flexihash\Hasher\Md5Hasher;
use Ketama\KetamaException;
use Ketama\RawRing;
use Ketama\Ring;

/**
 * A drop-in replacement for pda/flexihash 3.x's `Flexihash\Flexihash`: change
 * `use Flexihash\Flexihash;` to `use Ketama\Flexihash\Flexihash;` (and the same for the
 * hashers and the exception), keep the rest.
 *
 *     $hash = new Flexihash();                       // Crc32Hasher, 64 positions per target
 *     $hash->addTargets(['cache-1', 'cache-2', 'cache-3']);
 *     $hash->lookup('object-a');                      // "cache-1"
 *     $hash->lookupList('object', 2);                 // ["cache-2", "cache-4"] ...
 *
 * Same methods, results and exceptions as flexihash 3.0.0: a target gets
 * `round($replicas * $weight)` positions `$hasher->hash($target . $i)`, a later target takes a
 * shared position, removing a target clears all its positions, a resource goes to the first
 * position above its hash (wrapping), `lookupList()` walks on to the next distinct targets.
 *
 * With {@see Crc32Hasher} or {@see Md5Hasher} (exactly those classes) the native ring does the
 * work (our `flexihash` profile, hash `crc32a` or `md5_be`) whenever it can represent the
 * targets: labels it accepts and `round($replicas * $weight)` a multiple of 64. Targets it
 * cannot take (names that are not labels, other position counts) go to a {@see RawRing}:
 * core's continuum over the targets' names as given, with `round($replicas * $weight)`
 * positions each (the same profile and hash; rebuilt at the first lookup after a change).
 * Any other {@see HasherInterface} (and counts above 2^32 - 1 or beyond the 2^23 points a
 * continuum holds) keeps flexihash's own position table (the hasher is called as flexihash
 * calls it); lookups then search a ring built from those positions ({@see Ring::fromPoints()},
 * rebuilt at the first lookup after a change) when every position and the resource's hash are
 * ints in 0..2^32-1, else a PHP sorted array searched by bisection (flexihash's own speed).
 */
class Flexihash
{
    /** Our hasher classes and the native hash each one is. */
    private const NATIVE_HASHES = [Crc32Hasher::class => 'crc32a', Md5Hasher::class => 'md5_be'];
    /** Positions per unit of native weight (the `flexihash` profile's 64 replicas). */
    private const NATIVE_REPLICAS = 64;

    /** @var int|float positions per unit of weight */
    private $replicas = 64;
    /** @var HasherInterface */
    private $hasher;
    /** @var array<int|string, array{0: mixed, 1: float}> target key => [target as given, positions] */
    private $targets = [];
    /** @var ?Ring the native ring, while it places the resources */
    private $ring = null;
    /** @var bool the raw ring places the resources (our hasher, targets the native ring refused) */
    private $rawPath = false;
    /** @var ?RawRing the raw ring of the current targets, null after a change */
    private $raw = null;
    /** @var list<mixed> the raw ring's targets as given, by server index */
    private $rawTargets = [];
    /** @var array<string, mixed> native label => target as given */
    private $byLabel = [];
    /** @var array<string, int> native path: label => weight added since the last lookup (one batch) */
    private $pending = [];
    /** @var float positions of the current targets (native path; raw path: as the raw ring counts them) */
    private $positionTotal = 0.0;
    /** @var array<int|string, mixed> slow path: position => target */
    private $positionToTarget = [];
    /** @var array<int|string, list<int|string>> slow path: target key => its positions */
    private $targetToPositions = [];
    /** @var bool slow path: $positionToTarget is sorted and $sortedPositions is current */
    private $sorted = false;
    /** @var list<int|string> slow path: the positions, ascending */
    private $sortedPositions = [];
    /** @var bool slow path: every position is an integer (bisection applies) */
    private $intPositions = true;
    /** @var ?Ring any other hasher: a ring from the current positions (Ring::fromPoints) */
    private $pointsRing = null;
    /** @var bool $pointsRing reflects the current positions (or they cannot be one: null) */
    private $pointsCurrent = false;
    /** @var list<mixed> targets by server index of $pointsRing */
    private $pointsTargets = [];

    /**
     * @param ?HasherInterface $hasher null for {@see Crc32Hasher}
     * @param int|float|null $replicas positions per unit of weight; empty for 64
     */
    public function __construct(?HasherInterface $hasher = null, $replicas = null)
    {
        $this->hasher = $hasher ?? new Crc32Hasher();
        if (!empty($replicas)) {
            $this->replicas = $replicas;
        }
        $name = self::NATIVE_HASHES[get_class($this->hasher)] ?? null;
        if ($name !== null) {
            $this->ring = new Ring([], 'flexihash', $name);
        }
    }

    /**
     * Adds a target with `round($replicas * $weight)` positions.
     *
     * @param string $target
     * @param int|float $weight
     * @return $this
     * @throws Exception when the target is already there
     */
    public function addTarget($target, $weight = 1)
    {
        if (isset($this->targets[$target])) {
            throw new Exception("Target '$target' already exists.");
        }
        $count = round($this->replicas * $weight);
        $this->targets[$target] = [$target, $count];
        if ($this->ring !== null) {
            if ($this->addNative($target, $count)) {
                return $this;
            }
            $this->leaveNative(); // rebuilds every position, this target's included
            return $this;
        }
        if ($this->rawPath) {
            if (self::rawCount($count) !== null) {
                $this->positionTotal += self::rawCount($count);
                $this->raw = null;
                return $this;
            }
            $this->leaveRaw(); // a count the raw ring cannot take: flexihash's table, in order
            return $this;
        }
        $key = array_key_last($this->targets);
        $this->hashTarget($key, $target, $count);
        return $this;
    }

    /**
     * Adds each target with the same weight.
     *
     * @param iterable<string> $targets
     * @param int|float $weight
     * @return $this
     */
    public function addTargets($targets, $weight = 1)
    {
        foreach ($targets as $target) {
            $this->addTarget($target, $weight);
        }
        return $this;
    }

    /**
     * Removes a target and every position it has.
     *
     * @param string $target
     * @return $this
     * @throws Exception when the target is not there
     */
    public function removeTarget($target)
    {
        if (!isset($this->targets[$target])) {
            throw new Exception("Target '$target' does not exist.");
        }
        [$value, $count] = $this->targets[$target];
        if ($this->ring !== null) {
            $this->flush();
        }
        if (($this->ring !== null || $this->rawPath) && $this->sharesPositions($target)) {
            // flexihash's removal clears every position the target's strings hash to, whoever
            // holds it now: only its own table reproduces that
            if ($this->ring !== null) {
                $this->leaveNative(true);
            } else {
                $this->leaveRaw();
            }
        }
        unset($this->targets[$target]);
        if ($this->ring !== null) {
            $label = (string) $value;
            $this->ring->remove($label);
            unset($this->byLabel[$label]);
            $this->positionTotal -= $count;
            return $this;
        }
        if ($this->rawPath) {
            $this->positionTotal -= self::rawCount($count) ?? 0;
            $this->raw = null;
            return $this;
        }
        foreach ($this->targetToPositions[$target] as $position) {
            unset($this->positionToTarget[$position]);
        }
        unset($this->targetToPositions[$target]);
        $this->sorted = false;
        $this->pointsCurrent = false;
        return $this;
    }

    /**
     * Every target, in the order added.
     *
     * @return list<int|string>
     */
    public function getAllTargets(): array
    {
        return array_keys($this->targets);
    }

    /**
     * The target for a resource.
     *
     * @param string $resource
     * @throws Exception when there are no targets (or none has a position)
     */
    public function lookup($resource): string
    {
        if ($this->ring !== null) {
            $this->flush();
        }
        $raw = $this->rawPath ? $this->rawRing() : null;
        if (($this->ring !== null || $raw !== null) && $this->positionTotal > 0 && count($this->targets) > 1 && is_string($resource)) {
            try {
                return $this->ring !== null ? $this->byLabel[$this->ring->get($resource)] : $this->rawTargets[$raw->get($resource)];
            } catch (\Ketama\KetamaException $e) {
                if ($e->getCode() !== \Ketama\KetamaException::NO_SERVER) {
                    throw $e;
                }
                // no owner: fall through to the list walk, as before
            }
        }
        $targets = $this->lookupList($resource, 1);
        if (empty($targets)) {
            throw new Exception('No targets exist');
        }
        return $targets[0];
    }

    /**
     * Up to `$requestedCount` distinct targets for a resource, in order of precedence.
     *
     * @param string $resource
     * @param int $requestedCount
     * @return list<mixed>
     * @throws Exception when the count is empty (0)
     */
    public function lookupList($resource, $requestedCount): array
    {
        if (!$requestedCount) {
            throw new Exception('Invalid count requested');
        }
        if ($this->ring !== null) {
            $this->flush();
        }
        $raw = $this->rawPath ? $this->rawRing() : null;
        if ($this->ring === null && $raw === null) {
            return $this->slowLookupList($resource, $requestedCount);
        }
        if ($this->positionTotal <= 0) {
            return [];
        }
        $targetCount = count($this->targets);
        if ($targetCount == 1) {
            return [reset($this->targets)[0]];
        }
        $limit = self::limit($requestedCount, $targetCount);
        if (!is_string($resource)) {
            $this->hasher->hash($resource); // flexihash's hashers take strings: same TypeError
        }
        $out = [];
        if ($raw !== null) {
            foreach ($raw->getN((string) $resource, $limit) as $i) {
                $out[] = $this->rawTargets[$i];
            }
            return $out;
        }
        foreach ($this->ring->getN((string) $resource, $limit) as $label) {
            $out[] = $this->byLabel[$label];
        }
        return $out;
    }

    public function __toString(): string
    {
        return sprintf('%s{targets:[%s]}', get_class($this), implode(',', $this->getAllTargets()));
    }

    // -- the native path -------------------------------------------------------------------

    /**
     * Queues the target for the native ring (added in one batch at the next lookup or
     * removal); false if the ring cannot represent its positions.
     */
    private function addNative($target, float $count): bool
    {
        $label = (string) $target;
        if (isset($this->byLabel[$label]) || !is_finite($count) || $count < 0
            || fmod($count, self::NATIVE_REPLICAS) != 0 || $count / self::NATIVE_REPLICAS > 0xFFFFFFFF) {
            return false;
        }
        $this->pending[$label] = (int) ($count / self::NATIVE_REPLICAS);
        $this->byLabel[$label] = $target;
        $this->positionTotal += $count;
        return true;
    }

    /** Adds the queued targets to the native ring, or leaves the native path if it refuses one. */
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
            $this->leaveNative(); // a label it refuses, too many points, ...
            return;
        }
        foreach (array_keys($pending) as $label) {
            if (strpbrk((string) $label, '[:') !== false) {
                // a label stored under another spelling would hash other strings
                $stored = array_slice($this->ring->labels(), -count($pending));
                if (array_map('strval', $stored) !== array_map('strval', array_keys($pending))) {
                    $this->leaveNative();
                }
                return;
            }
        }
    }

    /**
     * Leaves the native ring: for our hashers to the raw ring when it can take every count
     * (unless `$toTable`), else to flexihash's table (every current target's positions,
     * hashed in order).
     */
    private function leaveNative(bool $toTable = false): void
    {
        $this->ring = null;
        $this->byLabel = [];
        $this->pending = [];
        $this->positionTotal = 0.0;
        $raw = !$toTable && isset(self::NATIVE_HASHES[get_class($this->hasher)]);
        foreach ($this->targets as [, $count]) {
            $raw = $raw && self::rawCount($count) !== null;
            $this->positionTotal += self::rawCount($count) ?? 0;
        }
        if ($raw) {
            $this->rawPath = true;
            $this->raw = null;
            return;
        }
        $this->leaveRaw();
    }

    /**
     * Whether a target holds a position another current target also has (two point strings
     * alike, `'cache-5' . 12` and `'cache-51' . 2`, or two hashes alike), on the native or the
     * raw ring.
     *
     * @param int|string $target
     */
    private function sharesPositions($target): bool
    {
        $mine = [];
        $others = [];
        if ($this->ring !== null) {
            $label = (string) $this->targets[$target][0];
            foreach ($this->ring->points() as [$p, $l]) {
                if ((string) $l === $label) {
                    $mine[$p] = true;
                } else {
                    $others[$p] = true;
                }
            }
        } else {
            $raw = $this->rawRing();
            if ($raw === null) {
                return false;
            }
            $me = 0;
            foreach (array_keys($this->targets) as $i => $key) {
                if ((string) $key === (string) $target) {
                    $me = $i;
                }
            }
            foreach ($raw->points() as [$p, $i]) {
                if ($i === $me) {
                    $mine[$p] = true;
                } else {
                    $others[$p] = true;
                }
            }
        }
        return array_intersect_key($mine, $others) !== [];
    }

    // -- the raw path (our hashers, targets the native ring refused) -------------------------

    /**
     * The point strings a raw ring gives a target with `$count` positions (flexihash's loop
     * `for ($i = 0; $i < $count; ++$i)` runs none for a negative or NAN count), or null
     * when it cannot take the count (above 2^32 - 1, infinite).
     */
    private static function rawCount(float $count): ?int
    {
        if (is_nan($count) || $count <= 0) {
            return 0;
        }
        return $count > 0xFFFFFFFF ? null : (int) $count;
    }

    /**
     * The raw ring of the current targets, in order (built at the first lookup after a
     * change); null, and the object on flexihash's table from then on, when core refuses it
     * (more points than a continuum holds).
     */
    private function rawRing(): ?RawRing
    {
        if ($this->raw !== null) {
            return $this->raw;
        }
        $servers = [];
        $this->rawTargets = [];
        foreach ($this->targets as [$value, $count]) {
            $servers[] = [(string) $value, self::rawCount($count) ?? 0];
            $this->rawTargets[] = $value;
        }
        if ($servers === []) {
            return null;
        }
        try {
            $this->raw = new RawRing($servers, 'flexihash', self::NATIVE_HASHES[get_class($this->hasher)], true);
        } catch (KetamaException $e) {
            $this->leaveRaw();
            return null;
        }
        return $this->raw;
    }

    /** Switches to the slow path: every current target's positions, hashed in order. */
    private function leaveRaw(): void
    {
        $this->rawPath = false;
        $this->raw = null;
        $this->rawTargets = [];
        $this->positionTotal = 0.0;
        $this->positionToTarget = [];
        $this->targetToPositions = [];
        foreach ($this->targets as $key => [$value, $count]) {
            $this->hashTarget($key, $value, $count);
        }
    }

    // -- the slow path (any hasher) --------------------------------------------------------

    /** @param int|string $key */
    private function hashTarget($key, $target, float $count): void
    {
        $this->targetToPositions[$key] = [];
        for ($i = 0; $i < $count; ++$i) {
            $position = $this->hasher->hash($target . $i);
            $this->positionToTarget[$position] = $target;
            $this->targetToPositions[$key][] = $position;
        }
        $this->sorted = false;
        $this->pointsCurrent = false;
    }

    /** @return list<mixed> */
    private function slowLookupList($resource, $requestedCount): array
    {
        if (empty($this->positionToTarget)) {
            return [];
        }
        $targetCount = count($this->targets);
        if ($targetCount == 1) {
            return array_values(array_unique(array_values($this->positionToTarget)));
        }
        $h = $this->hasher->hash($resource);
        $ring = $this->pointsRing();
        if ($ring !== null && is_int($h) && $h >= 0 && $h <= 0xFFFFFFFF) {
            $out = [];
            foreach ($ring->indexesByHash($h, self::limit($requestedCount, $targetCount)) as $i) {
                $out[] = $this->pointsTargets[$i];
            }
            return $out;
        }
        if (!$this->sorted) {
            ksort($this->positionToTarget, SORT_REGULAR);
            $this->sortedPositions = array_keys($this->positionToTarget);
            $this->intPositions = count(array_filter($this->sortedPositions, 'is_int')) === count($this->sortedPositions);
            $this->sorted = true;
        }
        $positions = $this->sortedPositions;
        $n = count($positions);
        $start = $this->firstAbove($positions, $h);
        $results = [];
        for ($j = 0; $j < $n; $j++) {
            $target = $this->positionToTarget[$positions[($start + $j) % $n]];
            if (!in_array($target, $results)) {
                $results[] = $target;
            }
            if (count($results) == $requestedCount || count($results) == $targetCount) {
                break;
            }
        }
        return $results;
    }

    /** How many targets flexihash's walk yields: it stops at `count == $requestedCount` or at the number of targets. */
    private static function limit($requestedCount, int $targetCount): int
    {
        if (is_numeric($requestedCount) && (float) $requestedCount == (int) $requestedCount
            && (int) $requestedCount > 0 && (int) $requestedCount < $targetCount) {
            return (int) $requestedCount;
        }
        return $targetCount;
    }

    /**
     * The native ring for a hasher of the caller's: every current position and its target
     * given to {@see Ring::fromPoints()} (the `flexihash` profile's search: first position
     * above the hash, wrapping), rebuilt after a change at the next lookup. Null when a
     * position is not an int in 0..2^32-1 (the PHP bisection then does the work).
     */
    private function pointsRing(): ?Ring
    {
        if ($this->pointsCurrent) {
            return $this->pointsRing;
        }
        $this->pointsCurrent = true;
        $this->pointsRing = null;
        $this->pointsTargets = [];
        $labels = [];
        $points = [];
        foreach ($this->positionToTarget as $position => $target) {
            if (!is_int($position) || $position < 0 || $position > 0xFFFFFFFF) {
                $this->pointsTargets = [];
                return null;
            }
            $key = (string) $target;
            if (!isset($labels[$key])) {
                // synthetic labels: any target string works, whatever a server label allows
                $labels[$key] = 't' . count($labels);
                $this->pointsTargets[] = $target;
            }
            $points[] = [$position, $labels[$key]];
        }
        if ($points === []) {
            return null;
        }
        $this->pointsRing = Ring::fromPoints($points, null, 'flexihash', array_values($labels));
        return $this->pointsRing;
    }

    /**
     * Index of the first position `> $h` (count($positions) wraps to 0), by bisection when
     * every position and the hash are integers, else by flexihash's own linear scan.
     *
     * @param list<int|string> $positions
     */
    private function firstAbove(array $positions, $h): int
    {
        $n = count($positions);
        if (is_int($h) && $this->intPositions) {
            $lo = 0;
            $hi = $n;
            while ($lo < $hi) {
                $mid = ($lo + $hi) >> 1;
                if ($positions[$mid] > $h) {
                    $hi = $mid;
                } else {
                    $lo = $mid + 1;
                }
            }
            return $lo % $n;
        }
        foreach ($positions as $i => $position) {
            if ($position > $h) {
                return $i;
            }
        }
        return 0;
    }
}
