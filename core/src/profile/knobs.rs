//! The knobs a profile row sets, one type per way clients differ (what the ring reads).

/// How the `i`-th point string of node string `S` is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringForm {
    /// `S-i` (ketama and almost everyone).
    Dash,
    /// `iS` (groupcache: `strconv.Itoa(i) + key`).
    Prefix,
    /// `Si` (flexihash: `$target . $i`, no separator).
    Concat,
    /// `S` alone (one point per server).
    Bare,
    /// `S:i` (dalli: `"#{name}:#{i}"`).
    Colon,
    /// `S*i` (Jedis named shards: `name + "*" + n`).
    Star,
    /// `S-NODE-i` (Jedis unnamed shards: `"SHARD-" + i + "-NODE-" + n`, the node string
    /// being `SHARD-<place>`).
    DashNode,
}

/// How point strings become ring positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointHash {
    /// MD5 of each string, `per` little-endian words of the digest (4 ketama, 3 hash_ring).
    Md5Words {
        /// Points per digest.
        per: u8,
    },
    /// One point per string, hashed with the ring's key hash (so `--hash` moves the points).
    KeyHash,
    /// The Java clients: exactly `KETAMA_HASH` gives `strings / 4` digests x 4 md5 words;
    /// any other hash (`ELECTION_HASH` included) one point per string with that hash.
    JavaKetama,
    /// The whole MD5 digest as a 128-bit integer (uhashring's default ring).
    Md5Wide,
    /// CRC-32 chain (nginx): point i = crc32(S || le32(point i - 1)), with 0 before point 0;
    /// one point per string.
    Crc32Chain,
    /// murmur3_32 chain (folsom): point 0 = murmur3_32(S), point i = murmur3_32 of the
    /// little-endian bytes of point i - 1; one point per string.
    Murmur3Chain,
    /// SHA-1 of each string, the big-endian first word of the digest, one point per string
    /// (dalli: the first 8 hex digits).
    Sha1Word,
    /// XXH3 64-bit of each string, its low 32 bits, one point per string (memcached proxy
    /// ring, default mode), whatever the key hash.
    Xxh3Word,
    /// MD5 of each string, the big-endian first word of the digest, one point per string
    /// (redis-rb 5: `Digest::MD5.digest(s).unpack1("L>")`), whatever the key hash.
    Md5WordBe,
    /// One point per string, the ring's 64-bit key hash ([`crate::Hash::hash64`]) of it: a
    /// continuum of 64-bit positions, searched with the key's 64-bit hash (Jedis, in signed
    /// order with [`Bound::LowerBoundSigned`]).
    KeyHash64,
    /// FNV-1a 32 over each string's bytes, one point per string, the first string hashed from
    /// the state 0 and the others from the offset basis (Enyim's `DefaultNodeLocator` reuses
    /// one hasher that initialises itself only after its first hash), whatever the key hash.
    Fnv1aFirstZero,
}

/// Which comparison finds a key hash's point on a sorted continuum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// First point >= h, else the first point.
    LowerBound,
    /// First point > h, else the first point.
    UpperBound,
    /// As `LowerBound`, but a key hash of exactly 0 goes to the last point (go-ketama's
    /// unsigned underflow, kept on purpose upstream).
    LowerBoundZeroLast,
    /// The largest point <= h; below the smallest point PHP reads `list[count - 1]`, which is
    /// a server only if some point equals `count - 1`, else null (the user's PHP FlexiHash
    /// class, `flexihash-seed`).
    Floor,
    /// The largest point <= h; below the smallest point, the largest point (dalli:
    /// `bsearch_index { |e| e.value > h }` minus one, index -1 wrapping to the last point).
    FloorWrap,
    /// First point >= h in **signed** 32-bit order, else the first (most negative) point
    /// (folsom's `TreeMap<Integer, _>.ceilingEntry`). Positions are stored with the sign bit
    /// flipped (`p ^ 2^31`), so the continuum's unsigned order is the signed order; the key
    /// hash is flipped the same way before the search. On a continuum of 64-bit positions
    /// ([`PointHash::KeyHash64`]: Jedis's `TreeMap<Long, _>.tailMap(h).firstKey()`) the sign
    /// bit is bit 63.
    LowerBoundSigned,
    /// First point > h; past the last point, the last point (no wrap: redis-shard's
    /// `min(bisect_right(sorted_keys, h), len - 1)`).
    UpperBoundClamp,
    /// First point >= h, past the last point the first; but a hash below the first point
    /// goes to the **last** point (Enyim's `Array.BinarySearch`: the complement 0 is read as
    /// "smaller than everything, use the highest key").
    LowerBoundBelowLast,
}

impl Bound {
    /// Whether a walk for the next servers (failover, `locate_n`) goes backwards along the
    /// continuum (the floor searches) rather than forwards.
    pub fn walks_backwards(self) -> bool {
        matches!(self, Bound::Floor | Bound::FloorWrap)
    }

    /// What is XORed into a 32-bit position or key hash so that the continuum's unsigned
    /// order is the order this search compares in (`2^31` for the signed search, else 0; on a
    /// continuum of 64-bit positions the flip is `2^63`, [`Bound::flip64`]).
    pub fn flip(self) -> u32 {
        match self {
            Bound::LowerBoundSigned => 0x8000_0000,
            _ => 0,
        }
    }

    /// [`Bound::flip`] for 64-bit positions (`2^63` for the signed search, else 0).
    pub fn flip64(self) -> u64 {
        u64::from(self.flip()) << 32
    }
}

/// Which algorithm places a key on a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// A sorted continuum of points, searched by the [`Bound`].
    Ring(Bound),
    /// pecl memcache: the continuum searched lower-bound, read through a 1024-entry table:
    /// `bucket[b]` = owner of the first point >= `b * 4194303`; key -> `bucket[h % 1024]`.
    PeclBuckets,
    /// `hash % slots` over the servers in order (each repeated `w` times when weighted).
    Modula {
        /// Each server fills `weight` consecutive slots.
        weighted: bool,
        /// pecl memcache standard: `h = (h >> 16) & 0x7fff`, 0 becomes 1.
        high15: bool,
    },
    /// The whalin Java client's bucket lists and memjs: the key hash as a signed Java
    /// `long` (the 32-bit hash sign-extended, or whalin's 64-bit old-compat hash),
    /// `|h| mod slots` over the servers in order (each repeated `w` times when weighted).
    JavaAbsModulo {
        /// Each server fills `weight` consecutive slots.
        weighted: bool,
        /// whalin OLD_COMPAT_HASH: `h = 33 h + u` over the key's UTF-16 units in 64 bits
        /// (the ring's hash is not used).
        old_compat: bool,
    },
    /// mcrouter CH3: `furc_hash(key, n)` over the servers in order (the key itself, not a key
    /// hash); weighted: WeightedCh3 with each weight divided by the largest.
    Furc {
        /// WeightedCh3 (SpookyHash draws against the weights, up to 32 salted tries).
        weighted: bool,
    },
    /// Lamping & Veach jump consistent hash over the servers in order.
    Jump,
    /// Jump consistent hash of the key's full 64-bit XXH3 (seed 0) over the servers in order
    /// (memcached proxy's default `dist_jump_hash`); the key hash is not used.
    JumpXxh3,
    /// Rendezvous (highest random weight); weights scale the score (logarithmic method).
    Rendezvous,
    /// Google Maglev lookup table (65,537 entries).
    Maglev,
    /// Rendezvous as the Python clients do it: each server scores the profile's hash of one
    /// string joining its node string and the (rewritten) key; the highest score wins;
    /// weights ignored.
    HashRendezvous {
        /// How the node string and the key are joined.
        join: Join,
        /// Who wins equal scores.
        ties: ScoreTies,
    },
    /// A range partition of the hash space over the servers in order: server
    /// `(h * n) / (2^32 - 1)` in 64-bit integers (phpredis `RedisArray` without
    /// `consistent`); a hash of `2^32 - 1` falls past the last server, which the client reads
    /// out of bounds: no server here. Weights ignored.
    Proportional,
    /// Rendezvous over 64-bit hashes (go-redis v9 `Ring`, through dgryski/go-rendezvous):
    /// each server scores `mix(H(key) ^ H(node string))` with the ring's 64-bit hash
    /// ([`crate::Hash::hash64`]) and `mix(x)`: `x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    /// x * 2685821657736338717` (wrapping); the greatest unsigned score wins, an equal score
    /// goes to the earlier server. Weights ignored.
    MixRendezvous,
    /// Cache::Memcached::Fast with `ketama_points => 0` (its Cache::Memcached-compatible
    /// mode): one point per server, added in order: the total `W += w`, every earlier point
    /// `p` becomes `(u32)(p - (double)p * (w / W))`, the new server's point is `2^32 - 1`. A key
    /// hash `h` (the profile's 15-bit `crc`) is reduced to `b = h % (u32)(W + 0.5)`, scaled to
    /// `(u32)((double)b / W * 4294967295.0 + 0.5) + 1` (wrapping), and goes to the owner of the
    /// first point >= that, wrapping to the first point.
    ScaledPoints,
}

/// How a rendezvous client joins a node string `S` and a key `K` into the string it hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// `S-K` (pymemcache `f"{node}-{key}"`).
    NodeDashKey,
    /// `KS` (emcache `key + rendezvous_id`).
    KeyNode,
}

/// Who wins equal rendezvous scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreTies {
    /// The greater node string (pymemcache `max(str(node), str(winner))`).
    GreaterNode,
    /// The greater hash of the node string alone, then the earlier server (emcache).
    GreaterNodeHash,
}

impl Placement {
    /// The comparison on the continuum, for placements that search one (pecl's table is
    /// filled by a lower-bound search).
    pub fn bound(self) -> Option<Bound> {
        match self {
            Placement::Ring(b) => Some(b),
            Placement::PeclBuckets => Some(Bound::LowerBound),
            _ => None,
        }
    }
}

/// Which server owns a position several servers' points share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The server given first (stable sort of an array; libmemcached, libketama, twemproxy).
    EarlierWins,
    /// The server given last (a sorted map filled in order: spymemcached, uhashring, Go maps).
    LaterWins,
    /// xmemcached: the colliding servers sorted by node string (UTF-16 order), owner
    /// `list[point % len]`.
    SortedList,
}

/// What a weight of 0 means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroWeight {
    /// Counted as 1 in both `w` and the total (libmemcached, go-ketama).
    AsOne,
    /// Accepted and given to the count rule as it is: relative-weight rules give the server
    /// no points (it stays on the ring), fixed counts ignore the weight (spymemcached's
    /// weight-0 servers get their 160 points), per-weight counts give 0.
    AsIs,
    /// Rejected with [`crate::Error::BadWeight`] (twemproxy, libketama).
    Reject,
    /// Counted as 100 in both `w` and the total (Predis: `(int) $weight ?: 100`, its default
    /// weight).
    AsHundred,
}

/// The order a client keeps its servers in (it decides ties and modulo slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The order they were given (added).
    Given,
    /// twemproxy: sorted by node string, shorter first, then bytewise.
    NodeLengthThenBytes,
}

/// What a client does when the server it picked is down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failover {
    /// Walk the continuum (or the server list) on to the next distinct servers.
    Walk,
    /// Rehash the key and look again: `hv = (hv + H(str(t) + key)) mod 2^32` for
    /// t = `first_tag`, `first_tag + 1`, ..., each `hv` looked up on the ring (servers may
    /// repeat). spymemcached's `KetamaIterator` starts at 0 with no bound of its own;
    /// xmemcached's `nextHash` starts at 1 and gives up after as many tries as servers.
    Rehash {
        /// The first `t`.
        first_tag: u32,
        /// At most as many rehashes as there are servers.
        bounded_by_servers: bool,
    },
    /// Rehash the key with the try number in front: lookup `t` (t >= 1) hashes
    /// `str(t - 1) + key` and looks that up, up to `tries` lookups in all, then the client
    /// gives up (dalli: `hash_for("#{try}#{key}")`, 20 lookups; a one-server ring has no
    /// continuum and gives up after its only server).
    RehashKey {
        /// Lookups in all, the first (the key itself) included.
        tries: u32,
    },
    /// Rehash the key with the try number after it: lookup `t` (t >= 1) hashes
    /// `key + "-" + str(t - 1)` and places that as a key, up to `tries` lookups in all, then
    /// the client gives up (pecl memcache `mmc_pool_find_next`: `sprintf("%s-%d", key, i)`,
    /// `memcache.max_failover_attempts` = 20 rehashes after the key itself; one server is
    /// returned without hashing, so a one-server pool has nowhere else to go).
    RehashKeyDash {
        /// Lookups in all, the first (the key itself) included.
        tries: u32,
    },
    /// Rehash the previous *hash* with the try number: `h(t + 1) = H(str(h(t)) + str(t))`,
    /// t from 0, each `h(t)` placed as the key's hash is, up to `tries` lookups, then the
    /// client gives up (python-memcached `_get_server`, `_SERVER_RETRIES` = 10).
    RehashHash {
        /// Lookups in all, the first (the key's hash) included.
        tries: u32,
    },
    /// Rehash the key with a counter in front until a server not yet tried comes up: after
    /// the key's own server, `str(t) + key` for t = 0, 1, 2, ... is placed as a key is (the
    /// client's own hash and bucket list or ring), a server already tried is skipped, each
    /// distinct server is tried once, and the client gives up when all have been (whalin
    /// `SchoonerSockIOPool.getSock` with its default `failover = true`: the counter restarts
    /// at 0 after each failed server, which lands on the same untried server as counting on;
    /// a one-bucket list is tried alone).
    RehashKeyUntried,
    /// Rehash by summing: lookup 1 places the key's hash `hv`, lookup `t + 1` places
    /// `hv = (hv + H(str(t) + key)) mod 2^32` for t = 1, 2, ..., each placed as the key's hash
    /// is (servers may repeat), up to `tries` lookups in all, then the client gives up
    /// (Cache::Memcached `get_sock`: `$hv += _hashfunc($tries . $real_key)`, 20 lookups; one
    /// server is used without hashing).
    RehashSum {
        /// Lookups in all, the first (the key's hash) included.
        tries: u32,
    },
    /// Rehash the key with a counter in front, doubled: after the key's own server, lookup
    /// t (t = 0, 1, ..., one per server) places `2 * H(str(t) + key) mod 2^32` as a key hash
    /// is (servers may repeat), then the client gives up (Enyim's `KetamaNodeLocator`:
    /// spymemcached's `hash += (uint)(hash ^ hash >> 32)` applied to a 32-bit hash); a
    /// one-server pool has no other.
    RehashDoubled,
    /// The client keeps sending to the server it picked while that server is down (emcache
    /// with its default `purge_unhealthy_nodes=False`): the key fails until it is back.
    Stay,
}

/// What removing a server does to the points it shares with others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Only the removed server's points go; a position it shared stays with the others
    /// (the ring equals a fresh build without the server).
    OwnPoints,
    /// flexihash `removeTarget`: every position the server had is unset, even where another
    /// server had won it, so the others lose those positions too.
    ClearsItsPositions,
}
