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
    use Ring\Input;
    use Ring\Changes;
    use Ring\Lookup;
    use Ring\Walk;
    use Ring\Inspect;
    use Ring\Options;

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
     * @param array{hash_tag?: ?string, prefix_key?: ?string, hash_with_prefix?: bool} $options
     *        placement options (see setOptions())
     * @throws KetamaException
     */
    public function __construct(array $servers = [], string $profile = 'libketama', ?string $hash = null, array $options = [])
    {
        $this->ffi = Library::ffi();
        // A C string ends at the first NUL: "libketama\0x" must not pass as "libketama".
        foreach ([[$profile, KetamaException::UNKNOWN_PROFILE], [$hash ?? '', KetamaException::UNKNOWN_HASH]] as [$text, $code]) {
            if (str_contains($text, "\0")) {
                throw KetamaException::of(Library::message($code) . ": '" . self::show($text) . "'", $code);
            }
        }
        $out = $this->ffi->new('ketama_ring*');
        $status = $this->ffi->ketama_ring_create($profile, $hash, FFI::addr($out));
        if ($status !== 0) {
            $what = $status === KetamaException::UNKNOWN_PROFILE ? $profile : (string) $hash;
            throw KetamaException::of(Library::message($status) . ": '" . self::show($what) . "'", $status);
        }
        $this->ring = $out;
        $this->fast = self::FAST ? $out : null;
        $this->profile = $profile;
        $this->hash = $hash;
        if ($options !== []) {
            $this->setOptions($options);
        }
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
     * appearance in `$points`). The ring refuses changes (FIXED_POINTS); build a new one.
     *
     * @param iterable<array{0: int, 1: string}> $points
     * @param string|callable|null $hash
     * @param ?list<string> $servers
     * @throws KetamaException EMPTY_RING (no point), INDEX_OUT_OF_RANGE (a label not in
     *         `$servers`), TOO_MANY_POINTS, NOT_A_CONTINUUM (a profile without a 32-bit continuum),
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
                    throw KetamaException::of(Library::message(KetamaException::INDEX_OUT_OF_RANGE) . ": '$label' is not in \$servers", KetamaException::INDEX_OUT_OF_RANGE);
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

    /** The largest `$n` failover() accepts. */
    public const MAX_FAILOVER = 65536;
}
