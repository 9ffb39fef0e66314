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
 *
 * Input rules (each refusal is a KetamaException naming the entry):
 * - A weight is a PHP int from 0 to 2^32 - 1 (0 only where the profile's client accepts
 *   it): `'abc'`, `'3'`, `2.9`, `-1`, `true` are refused with BAD_WEIGHT, never converted.
 * - PHP turns numeric string keys into ints, so `[5 => 7]` (and the list `[5, 7]`) cannot
 *   say whether 5 is a label: an int key with an int value is refused with BAD_LABEL. Write
 *   numeric labels in the list form (`['5', '7']`, weight 1) or as `[['label' => '5',
 *   'weight' => 7]]`. Labels come back as strings everywhere (servers(), points(), get()).
 * - At most 8,388,608 = 2^23 points on one continuum (52,428 equal servers on libketama):
 *   more is refused at once, before anything is hashed, with TOO_MANY_POINTS, whose message
 *   states the limit.
 */
final class Ring implements \Countable
{
    /** pack() format of a size_t (the lengths getMany() hands to the library) */
    private const SIZE_T_PACK = PHP_INT_SIZE === 8 ? 'Q*' : 'L*';

    private FFI $ffi;
    /** @var FFI\CData ketama_ring* */
    private $ring;
    /**
     * @var FFI\CData|null the same handle for get()'s fast path, null on a ring whose keys a
     *      PHP callable hashes (the library's lookup then fails, and get() takes its slow path)
     */
    private $fast = null;
    /**
     * Whether get() can take ketama_ring_lookup_str's answer: PHP's int must hold its 64 bits
     * (a 32-bit PHP keeps the low half, the server index, and loses the key length that
     * tells a key cut short by a NUL byte), else every get() takes the slow path.
     */
    private const FAST = PHP_INT_SIZE === 8;
    /**
     * @var list<string>|null labels by server index, filled on the first lookup after a change
     *      (get() and getMany() index it with the server index the library returns, so a
     *      lookup converts no string); null after a change
     */
    private ?array $labels = null;

    /** Made by fromPoints(): the library refuses every change. */
    private bool $explicit = false;
    /** the longest label's length, set with $labels (room for getMany()'s answer) */
    private int $labelMax = 0;
    /** @var ?callable the caller's key hash (a ring from fromPoints() given a callable) */
    private $hashFn = null;
    /** @var FFI\CData|null uint32_t[1] and size_t reused by getByHash() with n = 1 */
    private $hashIdx = null;
    /** @var FFI\CData|null */
    private $hashCount = null;
    /** The profile and hash names the ring was made with (for error messages). */
    private string $profile;
    private ?string $hash;

    /**
     * @param array<int|string, int|string|array{label?: string, weight?: int, name?: string}> $servers
     * @param string $profile our profile name (libketama, php-memcached, twemproxy, ...)
     * @param ?string $hash key hash name, null for the profile's default
     * @throws KetamaException
     */
    public function __construct(array $servers = [], string $profile = 'libketama', ?string $hash = null)
    {
        $this->ffi = Library::ffi();
        // A C string ends at the first NUL: "libketama\0x" must not pass as "libketama".
        foreach ([[$profile, KetamaException::UNKNOWN_PROFILE], [$hash ?? '', KetamaException::UNKNOWN_HASH]] as [$text, $code]) {
            if (str_contains($text, "\0")) {
                throw new KetamaException(Library::message($code) . ": '" . self::show($text) . "'", $code);
            }
        }
        $out = $this->ffi->new('ketama_ring*');
        $status = $this->ffi->ketama_ring_create($profile, $hash, FFI::addr($out));
        if ($status !== 0) {
            $what = $status === KetamaException::UNKNOWN_PROFILE ? $profile : (string) $hash;
            throw new KetamaException(Library::message($status) . ": '" . self::show($what) . "'", $status);
        }
        $this->ring = $out;
        $this->fast = self::FAST ? $out : null;
        $this->profile = $profile;
        $this->hash = $hash;
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
        Library::check($ffi->ketama_ring_create_points($profile, $name, $cLabels, $cLens, $ns, $cPos, $cOwn, $np, FFI::addr($out), null));
        $ring = (new \ReflectionClass(self::class))->newInstanceWithoutConstructor();
        $ring->ffi = $ffi;
        $ring->ring = $out;
        $ring->fast = self::FAST && $hashFn === null ? $out : null;
        $ring->profile = $profile;
        $ring->hash = $name;
        $ring->hashFn = $hashFn;
        $ring->explicit = true;
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
            $entries[] = self::entry($key, $value);
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
            throw new KetamaException(Library::message($status) . $this->blame($status, $entries, $at), $status);
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
            return $status === KetamaException::UNSUPPORTED && $this->explicit
                ? ': a ring from Ring::fromPoints() takes no changes; build a new one'
                : '';
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

    /** Library::check(), with the server label in the message. */
    private static function checkFor(int $status, string $label): void
    {
        if ($status !== 0) {
            throw new KetamaException(Library::message($status) . ": server '" . self::show($label) . "'", $status);
        }
    }

    /** A label or value for a message: at most 80 bytes, bytes outside printable ASCII as \xNN. */
    private static function show(string $s): string
    {
        $len = strlen($s);
        $shown = (string) preg_replace_callback('/[^\x20-\x7e]/', fn ($m) => sprintf('\\x%02x', ord($m[0])), substr($s, 0, 80));
        return $len > 80 ? "$shown... ($len bytes)" : $shown;
    }

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

    /**
     * One getMany() key as get()'s string parameter takes it: strings as they are; ints,
     * floats, bools and Stringable objects converted as PHP converts them; anything else
     * refused.
     *
     * @param mixed $key
     */
    private static function keyString($key): string
    {
        if (is_string($key)) {
            return $key;
        }
        if (is_int($key) || is_float($key) || is_bool($key) || $key instanceof \Stringable) {
            return (string) $key;
        }
        throw new \TypeError(sprintf('getMany: a key must be a string (or convert to one), got %s', get_debug_type($key)));
    }

    /** @return list<string> the labels by server index (and sets the longest's length) */
    private function labelList(): array
    {
        $labels = $this->labels();
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
            throw new KetamaException(sprintf(
                '%s: failover n = %d (at most %d)',
                Library::message(KetamaException::INDEX_OUT_OF_RANGE),
                $n,
                self::MAX_FAILOVER
            ), KetamaException::INDEX_OUT_OF_RANGE);
        }
        return $this->walk('ketama_ring_failover', $key, $n);
    }

    /** The largest `$n` failover() accepts. */
    public const MAX_FAILOVER = 65536;

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

    /**
     * One `$servers` entry as [label, weight, name], by the input rules in the class doc.
     *
     * @param int|string $key
     * @param mixed $value
     * @return array{0: string, 1: int, 2: ?string}
     */
    private static function entry($key, $value): array
    {
        if (is_int($key) && is_string($value)) {
            return [$value, 1, null]; // a list of labels
        }
        if (is_array($value)) {
            $label = $value['label'] ?? (is_string($key) ? $key : null);
            if (!is_string($label)) {
                throw self::badLabel($key, "the entry has no string 'label' (an int key is not a label)");
            }
            $name = $value['name'] ?? null;
            if ($name !== null && !is_string($name)) {
                throw new KetamaException(sprintf(
                    "%s: server '%s' name must be a string, got %s",
                    Library::message(KetamaException::BAD_LABEL),
                    self::show($label),
                    get_debug_type($name)
                ), KetamaException::BAD_LABEL);
            }
            return [$label, self::weight($value['weight'] ?? 1, $label), $name];
        }
        if (is_string($key)) {
            return [$key, self::weight($value, $key), null];
        }
        throw self::badLabel($key, sprintf(
            'PHP made a numeric label an int key, or a list holds a %s; write numeric labels as a list of strings or [\'label\' => \'%d\', \'weight\' => w]',
            get_debug_type($value),
            $key
        ));
    }

    /** @param int|string $key */
    private static function badLabel($key, string $why): KetamaException
    {
        return new KetamaException(
            sprintf('%s: servers entry [%s]: %s', Library::message(KetamaException::BAD_LABEL), var_export($key, true), $why),
            KetamaException::BAD_LABEL
        );
    }

    /**
     * A weight as the library takes it: a PHP int from 0 to 2^32 - 1, nothing converted.
     *
     * @param mixed $w
     */
    private static function weight($w, string $label): int
    {
        if (!is_int($w) || $w < 0 || $w > 0xFFFFFFFF) {
            $shown = is_string($w) ? "'" . self::show($w) . "'" : var_export($w, true);
            throw new KetamaException(sprintf(
                "%s: server '%s' weight %s (expected an int from 0 to 4294967295)",
                Library::message(KetamaException::BAD_WEIGHT),
                self::show($label),
                is_scalar($w) || $w === null ? $shown : get_debug_type($w)
            ), KetamaException::BAD_WEIGHT);
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
