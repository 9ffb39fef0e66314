<?php

declare(strict_types=1);

namespace Ketama;

use FFI;

/**
 * A ring of memcached servers placed exactly as one client places them.
 *
 *     $ring = new Ketama\Ring(['10.0.0.1:11211' => 600, '10.0.0.2:11211' => 300], 'libketama');
 *     $ring->get('user:42');   // "10.0.0.2:11211"
 *
 * Servers: `label => weight`, a list of labels (weight 1), or `label => ['weight' => w,
 * 'name' => n]` (the name is twemproxy's server name, or the node string a Java client
 * hashes). Labels are `host:port`, `[ipv6]:port` or `host`.
 */
final class Ring implements \Countable
{
    /** pack() format of a size_t (the lengths getMany() hands to the library) */
    private const SIZE_T_PACK = PHP_INT_SIZE === 8 ? 'Q*' : 'L*';

    private FFI $ffi;
    /** @var FFI\CData ketama_ring* */
    private $ring;
    /**
     * @var list<string>|null labels by server index, filled on the first lookup after a change
     *      (get() and getMany() index it with the server index the library returns, so a
     *      lookup converts no string); null after a change
     */
    private ?array $labels = null;
    /** the longest label's length, set with $labels (room for getMany()'s answer) */
    private int $labelMax = 0;
    /** @var ?callable the caller's key hash (a ring from fromPoints() given a callable) */
    private $hashFn = null;
    /** @var FFI\CData|null uint32_t[1] and size_t reused by getByHash() with n = 1 */
    private $hashIdx = null;
    /** @var FFI\CData|null */
    private $hashCount = null;

    /**
     * @param array<int|string, int|string|array{weight?: int, name?: string}> $servers
     * @param string $profile our profile name (libketama, php-memcached, twemproxy, ...)
     * @param ?string $hash key hash name, null for the profile's default
     * @throws KetamaException
     */
    public function __construct(array $servers = [], string $profile = 'libketama', ?string $hash = null)
    {
        $this->ffi = Library::ffi();
        $out = $this->ffi->new('ketama_ring*');
        Library::check($this->ffi->ketama_ring_create($profile, $hash, FFI::addr($out)));
        $this->ring = $out;
        $this->addMany($servers);
        $this->labels = $this->labelList();
    }

    /**
     * A ring whose continuum is exactly `$points`, for a client whose points ketama does not
     * generate (a custom hasher, a client not shipped yet): `$points` is a list of
     * `[position, label]` pairs, positions ints in 0..2^32-1, in any order. `$hash`: a hash
     * name, null for the profile's, or a PHP callable `fn(string $key): int` returning
     * 0..2^32-1 (the key is hashed in PHP, the search is ours). `$profile` gives the search,
     * tie and key rules; `$servers` the labels in server order (default: in order of first
     * appearance in `$points`). The ring refuses changes (UNSUPPORTED); build a new one.
     *
     * @param iterable<array{0: int, 1: string}> $points
     * @param string|callable|null $hash
     * @param ?list<string> $servers
     * @throws KetamaException EMPTY_RING (no point), INDEX_OUT_OF_RANGE (a label not in
     *         `$servers`), TOO_MANY_POINTS, UNSUPPORTED (a profile without a 32-bit continuum),
     *         UNKNOWN_PROFILE, UNKNOWN_HASH, DUPLICATE_SERVER, BAD_LABEL
     */
    public static function fromPoints(iterable $points, $hash = null, string $profile = 'libketama', ?array $servers = null): self
    {
        $ffi = Library::ffi();
        $name = null;
        $hashFn = null;
        if (is_string($hash)) {
            $name = $hash;
        } elseif (is_callable($hash)) {
            $hashFn = $hash;
        } elseif ($hash !== null) {
            throw new \InvalidArgumentException('hash: a hash name, a callable or null');
        }
        $index = [];
        $fixed = $servers !== null;
        foreach ($servers ?? [] as $label) {
            $label = (string) $label;
            $index[$label] ??= count($index);
        }
        $pos = [];
        $own = [];
        foreach ($points as $point) {
            [$p, $label] = $point;
            if (!is_int($p) || $p < 0 || $p > 0xFFFFFFFF) {
                throw new \InvalidArgumentException('a point position must be an int in 0..4294967295');
            }
            $label = (string) $label;
            if (!isset($index[$label])) {
                if ($fixed) {
                    throw new KetamaException(Library::message(KetamaException::INDEX_OUT_OF_RANGE) . ": '$label' is not in \$servers", KetamaException::INDEX_OUT_OF_RANGE);
                }
                $index[$label] = count($index);
            }
            $pos[] = $p;
            $own[] = $index[$label];
        }
        $labels = array_keys($index);
        $ns = count($labels);
        $np = count($pos);
        $cLabels = $ffi->new('const char*[' . max(1, $ns) . ']');
        $cLens = $ffi->new('size_t[' . max(1, $ns) . ']');
        $keep = [];
        foreach ($labels as $i => $label) {
            $label = (string) $label;
            $n = strlen($label);
            $keep[] = $c = $ffi->new('char[' . ($n + 1) . ']');
            FFI::memcpy($c, $label, $n);
            $cLabels[$i] = FFI::cast('const char*', $c);
            $cLens[$i] = $n;
        }
        $cPos = $ffi->new('uint32_t[' . max(1, $np) . ']');
        $cOwn = $ffi->new('uint32_t[' . max(1, $np) . ']');
        foreach ($pos as $i => $p) {
            $cPos[$i] = $p;
            $cOwn[$i] = $own[$i];
        }
        $out = $ffi->new('ketama_ring*');
        Library::check($ffi->ketama_ring_create_points($profile, $name, $cLabels, $cLens, $ns, $cPos, $cOwn, $np, FFI::addr($out)));
        $ring = (new \ReflectionClass(self::class))->newInstanceWithoutConstructor();
        $ring->ffi = $ffi;
        $ring->ring = $out;
        $ring->hashFn = $hashFn;
        $ring->labels = $ring->labelList();
        return $ring;
    }

    public function __destruct()
    {
        if (isset($this->ring)) {
            $this->ffi->ketama_ring_free($this->ring);
        }
    }

    /** Rings wrap a native handle: cloning is not supported. */
    private function __clone()
    {
    }

    /**
     * Adds servers in one step (all or nothing).
     *
     * @param array<int|string, int|string|array{weight?: int, name?: string}> $servers
     */
    public function addMany(array $servers): void
    {
        $this->labels = null;
        $n = count($servers);
        if ($n === 0) {
            return;
        }
        $labels = $this->ffi->new("const char*[$n]");
        $labelLens = $this->ffi->new("size_t[$n]");
        $weights = $this->ffi->new("uint32_t[$n]");
        $names = $this->ffi->new("const char*[$n]");
        $nameLens = $this->ffi->new("size_t[$n]");
        $keep = []; // owned C copies of the strings, alive until the call returns
        $i = 0;
        foreach ($servers as $key => $value) {
            [$label, $weight, $name] = self::entry($key, $value);
            $keep[] = $c = $this->cString($label);
            $labels[$i] = FFI::cast('const char*', $c);
            $labelLens[$i] = strlen($label);
            $weights[$i] = self::weight($weight);
            if ($name !== null) {
                $keep[] = $c = $this->cString($name);
                $names[$i] = FFI::cast('const char*', $c);
                $nameLens[$i] = strlen($name);
            }
            $i++;
        }
        Library::check($this->ffi->ketama_ring_add_many($this->ring, $labels, $labelLens, $weights, $names, $nameLens, $n));
    }

    /** Adds one server at the end of the server order. */
    public function add(string $label, int $weight = 1, ?string $name = null): void
    {
        $this->labels = null;
        Library::check($this->ffi->ketama_ring_add_named(
            $this->ring, $label, strlen($label), self::weight($weight), $name, $name === null ? 0 : strlen($name)
        ));
    }

    /** Removes the server with this label. */
    public function remove(string $label): void
    {
        $this->labels = null;
        Library::check($this->ffi->ketama_ring_remove($this->ring, $label, strlen($label)));
    }

    /** Changes a server's weight. */
    public function setWeight(string $label, int $weight): void
    {
        Library::check($this->ffi->ketama_ring_set_weight($this->ring, $label, strlen($label), self::weight($weight)));
    }

    /**
     * The label of the server `$key` goes to.
     *
     * @throws KetamaException when the client refuses the key (KEY_REJECTED), no server owns
     *         it (NO_SERVER) or the ring is empty (EMPTY_RING); see the README's refusal rule
     */
    public function get(string $key): string
    {
        if ($this->hashFn !== null) {
            return $this->getByHash($this->callHash($key), 1)[0];
        }
        // One native call returning a plain int: the server index, or minus a status. The
        // refusal rule: a single lookup throws for a refused key (KEY_REJECTED), a key no
        // server owns (NO_SERVER) and an empty ring; getMany() gives null per refused key.
        $i = $this->ffi->ketama_ring_lookup_index($this->ring, $key, strlen($key));
        return $this->labels[$i] ?? $this->labelAt($i);
    }

    /** get()'s slow path: a failure status (negative) or the label array to fill. */
    private function labelAt(int $i): string
    {
        if ($i < 0) {
            Library::check(-$i);
        }
        return ($this->labels ??= $this->labelList())[$i];
    }

    /**
     * `get()` for each key, keyed by the key.
     *
     * @param iterable<string> $keys
     * @return array<string, ?string>
     */
    public function getMany(iterable $keys): array
    {
        if (is_array($keys)) {
            // implode() and array_combine() turn each value into a string the way a
            // (string) cast does, so an array needs no copy here
            $list = array_values($keys);
        } else {
            $list = [];
            foreach ($keys as $key) {
                $list[] = (string) $key;
            }
        }
        if ($this->hashFn !== null) {
            // the caller's hash runs in PHP, key by key
            $out = [];
            foreach ($list as $key) {
                $key = (string) $key;
                try {
                    $out[$key] = $this->get($key);
                } catch (KetamaException $e) {
                    if ($e->getCode() !== KetamaException::NO_SERVER) {
                        throw $e;
                    }
                    $out[$key] = null;
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
        // control characters), split by explode() and paired with the keys by array_combine().
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
            return array_combine($list, $found);
        }
        // Keys holding NUL bytes (or one empty key): the keys back to back in one string, their
        // lengths copied in with one memcpy, the server indexes copied out with one
        // FFI::string (no per-key FFI call, CData access or pointer array).
        $list = array_map('strval', $list);
        $lens = $this->ffi->new("size_t[$n]");
        FFI::memcpy($lens, pack(self::SIZE_T_PACK, ...array_map('strlen', $list)), $n * PHP_INT_SIZE);
        $idx = $this->ffi->new("uint32_t[$n]");
        Library::check($this->ffi->ketama_ring_lookup_packed($this->ring, implode('', $list), $lens, $n, $idx));
        $found = unpack('L*', FFI::string($idx, 4 * $n));
        $out = [];
        foreach ($list as $i => $key) {
            // UINT32_MAX (a refused key) is no index: null
            $out[$key] = $labels[$found[$i + 1]] ?? null;
        }
        return $out;
    }

    /** @return list<string> the labels by server index (and sets the longest's length) */
    private function labelList(): array
    {
        $labels = array_map('strval', array_keys($this->servers()));
        $this->labelMax = $labels === [] ? 0 : max(array_map('strlen', $labels));
        return $labels;
    }

    /**
     * Up to `$n` distinct servers for `$key`, primary first (replicas / failover order).
     *
     * @return list<string>
     */
    public function getN(string $key, int $n): array
    {
        if ($this->hashFn !== null) {
            return $n <= 0 ? [] : $this->getByHash($this->callHash($key), $n);
        }
        return $this->walk('ketama_ring_lookup_n', $key, $n);
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
        return $this->walk('ketama_ring_failover', $key, $n);
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
     * @throws KetamaException EMPTY_RING, NO_SERVER, UNSUPPORTED (uhashring's 128-bit ring)
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
     * The servers, `label => weight`, in order.
     *
     * @return array<string, int>
     */
    public function servers(): array
    {
        $out = [];
        $p = $this->ffi->new('const char*');
        $n = $this->ffi->new('size_t');
        $w = $this->ffi->new('uint32_t');
        for ($i = 0, $c = $this->count(); $i < $c; $i++) {
            Library::check($this->ffi->ketama_ring_server($this->ring, $i, FFI::addr($p), FFI::addr($n), FFI::addr($w)));
            $out[FFI::string($p, $n->cdata)] = $w->cdata;
        }
        return $out;
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
        $labels = array_keys($this->servers());
        $out = [];
        for ($i = 0; $i < $n->cdata; $i++) {
            $out[] = [$pos[$i], $labels[$own[$i]]];
        }
        return $out;
    }

    /** @return array{0: string, 1: int, 2: ?string} */
    private static function entry($key, $value): array
    {
        if (is_int($key) && is_string($value)) {
            return [$value, 1, null];
        }
        if (is_array($value)) {
            return [(string) $key, (int) ($value['weight'] ?? 1), isset($value['name']) ? (string) $value['name'] : null];
        }
        if (is_int($value)) {
            return [(string) $key, $value, null];
        }
        throw new \InvalidArgumentException('servers: use label => weight, a list of labels, or label => [weight, name]');
    }

    private static function weight(int $w): int
    {
        if ($w < 0 || $w > 0xFFFFFFFF) {
            throw new KetamaException(Library::message(KetamaException::BAD_WEIGHT), KetamaException::BAD_WEIGHT);
        }
        return $w;
    }

    /** An owned, NUL-terminated C copy of a PHP string. */
    private function cString(string $s): FFI\CData
    {
        $n = strlen($s);
        $c = $this->ffi->new('char[' . ($n + 1) . ']'); // managed: freed with the CData
        FFI::memcpy($c, $s, $n);
        return $c;
    }
}
