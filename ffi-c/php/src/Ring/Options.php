<?php

declare(strict_types=1);

namespace Ketama\Ring;

use FFI;
use Ketama\KetamaException;
use Ketama\Library;

/**
 * Placement options of a {@see \Ketama\Ring}: a hash tag's delimiters, php-memcached's
 * `OPT_PREFIX_KEY` and `OPT_HASH_WITH_PREFIX_KEY` (the rules are the library's).
 *
 * @internal a part of {@see \Ketama\Ring}, used by it alone
 */
trait Options
{
    /**
     * Sets the placement options, replacing any set before: `hash_tag` (a 2-byte string,
     * the delimiters of a tag, only the tag being hashed, found by the client's own rule:
     * twemproxy's `hash_tag` and the Jedis profiles' key-tag pattern, `{}` being Jedis's
     * default; the Redis clients whose tag rule is always on, Predis, phpredis, redis-rb,
     * go-redis and redis-shard, hash `{tag}` without it and refuse it; docs/compat.md lists
     * each profile's rule), `prefix_key` (1..127 bytes) and `hash_with_prefix` (bool),
     * libmemcached profiles (`php-memcached`, `libmemcached`, `modula`, ...). A key the
     * array does not name is refused; so is an option the profile's client lacks or a value
     * it refuses (BAD_OPTION; the ring is then unchanged).
     *
     * @param array{hash_tag?: ?string, prefix_key?: ?string, hash_with_prefix?: bool} $options
     * @throws KetamaException BAD_OPTION
     */
    public function setOptions(array $options): void
    {
        foreach (array_keys($options) as $k) {
            if (!in_array($k, ['hash_tag', 'prefix_key', 'hash_with_prefix'], true)) {
                throw new \InvalidArgumentException("unknown option '$k' (hash_tag, prefix_key, hash_with_prefix)");
            }
        }
        $tag = $options['hash_tag'] ?? null;
        $prefix = $options['prefix_key'] ?? null;
        $keep = []; // owned C copies, alive until the call returns
        $tagPtr = null;
        $prefixPtr = null;
        if ($tag !== null) {
            $keep[] = $c = $this->cString((string) $tag);
            $tagPtr = FFI::cast('const char*', $c);
        }
        if ($prefix !== null) {
            $keep[] = $c = $this->cString((string) $prefix);
            $prefixPtr = FFI::cast('const char*', $c);
        }
        $status = $this->ffi->ketama_ring_set_options(
            $this->ring,
            $tagPtr,
            $tag === null ? 0 : strlen((string) $tag),
            $prefixPtr,
            $prefix === null ? 0 : strlen((string) $prefix),
            empty($options['hash_with_prefix']) ? 0 : 1
        );
        if ($status !== 0) {
            throw KetamaException::of(Library::message($status) . " (profile {$this->profile})", $status);
        }
    }
}
