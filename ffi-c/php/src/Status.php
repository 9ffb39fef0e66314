<?php
// GENERATED from include/ketama.h by ffi-c/gen-header.sh; do not edit.

declare(strict_types=1);

namespace Ketama;

/**
 * The library's status values (`ketama_status`, the numbers of `KETAMA_STATUS_*`): the codes
 * of a KetamaException, which implements this interface (`KetamaException::EMPTY_RING`).
 */
interface Status
{
    /**
     * Success.
     */
    public const OK = 0;
    /**
     * A required pointer argument was NULL.
     */
    public const NULL_ARGUMENT = 1;
    /**
     * The ring has no servers.
     */
    public const EMPTY_RING = 2;
    /**
     * The ring has servers, but none owns the key (every server got zero points, or the
     * `flexihash-seed` class returns null).
     */
    public const NO_SERVER = 3;
    /**
     * No profile has this name.
     */
    public const UNKNOWN_PROFILE = 4;
    /**
     * No hash function has this name.
     */
    public const UNKNOWN_HASH = 5;
    /**
     * `crc32` is ambiguous without a profile: say `crc` (15-bit) or `crc32a` (full CRC-32).
     */
    public const AMBIGUOUS_HASH = 6;
    /**
     * The profile's client does not accept this weight.
     */
    public const BAD_WEIGHT = 7;
    /**
     * A server with this label is already on the ring.
     */
    public const DUPLICATE_SERVER = 8;
    /**
     * No server with this label is on the ring.
     */
    public const MISSING_SERVER = 9;
    /**
     * The server label cannot be parsed (expected `host:port`, `[ipv6]:port` or `host`).
     */
    public const BAD_LABEL = 10;
    /**
     * Text that must be UTF-8 (a label, a name, a profile or hash name) is not.
     */
    public const INVALID_UTF8 = 11;
    /**
     * The profile's client refuses this key.
     */
    public const KEY_REJECTED = 12;
    /**
     * The profile cannot place this server (e.g. `xmemcached-nginx` with a host name).
     */
    public const UNSUPPORTED = 13;
    /**
     * More points than one continuum may hold: the limit is 2^23 = 8,388,608 points (52,428
     * equal servers on the libketama profiles), refused before anything is hashed.
     */
    public const TOO_MANY_POINTS = 14;
    /**
     * An index argument is past the end.
     */
    public const INDEX_OUT_OF_RANGE = 15;
    /**
     * A Rust panic was caught at the C boundary (a bug in ketama; please report it).
     */
    public const PANIC = 16;
    /**
     * An internal error (a lock poisoned by an earlier panic, or an error this version does
     * not know how to name).
     */
    public const INTERNAL = 17;
    /**
     * A capacity factor below 1.
     */
    public const BAD_FACTOR = 18;
    /**
     * A ring from `ketama_ring_create_points()` takes no changes: build a new one.
     */
    public const FIXED_POINTS = 19;
    /**
     * The profile does not place keys on a continuum of 32-bit points (modulo, jump,
     * rendezvous, maglev, uhashring's 128-bit and Jedis's 64-bit rings, ...), which this call
     * needs.
     */
    public const NOT_A_CONTINUUM = 20;
    /**
     * A key hash alone cannot place a key on this profile: its client reads the key itself
     * (mcrouter, hash rendezvous, jump over xxh3) or a 128-bit or 64-bit hash (uhashring,
     * Jedis).
     */
    public const NEEDS_KEY = 21;
    /**
     * The current loads (bounded loads) do not have one entry per server.
     */
    public const BAD_LOADS = 22;
    /**
     * More servers than the profile's client takes (mcrouter: 2^23).
     */
    public const TOO_MANY_SERVERS = 23;
    /**
     * No bucket function has this name.
     */
    public const UNKNOWN_ALGORITHM = 24;
    /**
     * The bucket count is 0.
     */
    public const ZERO_BUCKETS = 25;
    /**
     * The bucket count is above the bucket function's limit.
     */
    public const TOO_MANY_BUCKETS = 26;
    /**
     * The reference bucket function returns no bucket for this input.
     */
    public const NO_BUCKET = 27;
    /**
     * A placement option the profile's client does not have, or a value it refuses
     * (`hash_tag` is exactly 2 bytes; a key prefix 1..127 bytes without NUL).
     */
    public const BAD_OPTION = 28;
}
