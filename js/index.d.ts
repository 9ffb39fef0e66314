// Types of the ketama package (hand-written but for the error classes, lib/errors.d.ts; checked
// by `tsc --noEmit` on test/types.ts).

/** A key: a string (hashed as its UTF-8 bytes) or raw bytes. */
export type Key = string | Uint8Array;

/** One memcached server. */
export interface ServerSpec {
  /** `host:port`, `[ipv6]:port`, `host` or a bare IPv6 address: what lookups return. */
  label: string;
  /** The weight (its meaning depends on the profile; default 1). */
  weight?: number;
  /** An explicit node name (twemproxy's server name, a Java client's node string). */
  name?: string | null;
}

/**
 * Placement options: they change which bytes of a key are hashed, never the servers' points.
 * Values are strings (their UTF-8 bytes) or bytes.
 */
export interface PlacementOptions {
  /** A hash tag's delimiters, exactly 2 bytes (null: none): only the tag between them is
   * hashed, found by the client's own rule: twemproxy's `hash_tag` (the non-empty bytes
   * between the first opening byte and the next closing byte), Jedis's key-tag pattern
   * (`{}`: `\{(.+?)\}` with `find()`). Twemproxy and Jedis profiles only (the Redis clients
   * whose tag rule is always on, Predis, phpredis, redis-rb, go-redis and redis-shard, hash
   * `{tag}` without it and refuse it; docs/compat.md lists each profile's rule). */
  hashTag?: string | Uint8Array | null;
  /** php-memcached's `OPT_PREFIX_KEY`, at most 127 bytes without NUL (empty: none); it moves
   * keys only with `hashWithPrefix`. Libmemcached profiles only. */
  prefixKey?: string | Uint8Array | null;
  /** `OPT_HASH_WITH_PREFIX_KEY`: prefix + key is hashed (over 250 bytes: hash 0). */
  hashWithPrefix?: boolean;
}

/** What a ring is built from. */
export interface RingOptions {
  /** A profile name or alias (`libmemcached-weighted`, `php-memcached`, `spymemcached`, ...). */
  profile: string;
  /** The key hash (null/undefined: the profile's default). */
  hash?: string | null;
  /** The servers, in the order the client is given them. */
  servers: ServerSpec[];
  /** Placement options (BadOptionError when the profile's client lacks one or refuses it). */
  options?: PlacementOptions;
}

/** A consistent-hashing ring (or modulo/jump/rendezvous/maglev table) for one profile. */
export class Ring {
  constructor(options: RingOptions);
  /** The canonical name of the key hash in use. */
  readonly hashName: string;
  /** A copy of the ring with these placement options (this ring is unchanged); BadOptionError
   * when the profile's client lacks one or refuses its value. */
  withOptions(options: PlacementOptions): Ring;
  /** The ring's placement options (none: null tag, empty prefix, false). */
  options(): { hashTag: string | Uint8Array | null; prefixKey: string | Uint8Array; hashWithPrefix: boolean };
  /** The label of the server `key` goes to. */
  get(key: Key): string;
  /** The index (in the order given) of the server `key` goes to. */
  index(key: Key): number;
  /** The label of the server each key goes to, in order; null where the client refuses the
   * key or no server owns it (EmptyRingError for a ring without servers). */
  getMany(keys: ArrayLike<Key>): Array<string | null>;
  /** The index of the server each key goes to, in order, -1 where `getMany` gives null;
   * into `out` when given (at least as long as `keys`). */
  indexMany(keys: ArrayLike<Key>, out?: Int32Array): Int32Array;
  /** Up to `n` distinct server labels for `key`, primary first. */
  getN(key: Key, n: number): string[];
  /** Up to `n` distinct server indexes for `key`, primary first. */
  indexN(key: Key, n: number): number[];
  /** The client's own failover sequence for `key` (labels; rehash clients may repeat). */
  failover(key: Key, n: number): string[];
  /** Where `key` goes while the servers at the indexes in `dead` are down (null: the client gives up). */
  getAlive(key: Key, dead: number[]): string | null;
  /** The key hash as this ring computes it (after the client's key rewriting). */
  keyHash(key: Key): number;
  /** The continuum as [position, label] pairs, ascending (empty for non-ring profiles). */
  points(): Array<[number, string]>;
  /** The servers' labels, in the order given. */
  servers(): string[];
  /** The node string the client hashes for server `i`. */
  nodeString(i: number): string | undefined;
}

/** The unsigned 32-bit hash of `key` by the named hash function. */
export function hash(name: string, key: Key): number;

/** Every profile. */
export function profiles(): { name: string; aliases: string[]; description: string; defaultHash: string }[];

/** Every hash function. */
export function hashes(): { name: string; aliases: string[]; description: string }[];

/** The most points one continuum may hold (2^23). */
export const MAX_POINTS: number;

// KetamaError and one class per core error (generated from spec/errors.json).
export * from './lib/errors';

/** The bucket functions `bucket` accepts. */
export const BUCKET_ALGORITHMS: string[];

/** A bucket function fixed to one bucket count, its table built once. */
export class Bucketer {
  /** `jump`, `guava`, `jumpback`, `fliphash`, `maglev-go` or `mpchash-go`; buckets 1 ..= its limit. */
  constructor(algorithm: string, buckets: number);
  /** The bucket (0 ..= buckets - 1) of a 64-bit input: a BigInt, a safe integer or a decimal string. */
  get(input: bigint | number | string): number;
}

/** The bucket of `input` in 0 ..= buckets - 1 under `algorithm` (see Bucketer). */
export function bucket(algorithm: string, input: bigint | number | string, buckets: number): number;

/** SipHash-2-4 of `data` under the key (k0, k1). */
export function siphash24(k0: bigint, k1: bigint, data: Uint8Array): bigint;
