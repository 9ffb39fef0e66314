//! Every supported client as one row of data: what differs between them, and nothing else.
//! Each row's `description` says which client, version and settings it reproduces, and
//! `verified_by` how that is checked (both listed in the README and `docs/compat.md`); the
//! table below shows the knobs (generated from the rows by `core/tests/tables.rs`).
//!
//! <!-- generated from the profile rows by core/tests/tables.rs: do not edit (KETAMA_WRITE_TABLES=1 cargo test -p ketama-core --test tables) -->
//! | profile | node string | points per server | key hash | placement |
//! |---|---|---|---|---|
//! | `libketama` | `Label`, `S-i` | relative weight, libketama float formula; md5, 4 points per digest | `md5` | first point >= hash; earlier server wins |
//! | `libmemcached` | `OmitDefaultPort`, `S-i` | 100 strings per server; the key hash, 1 point per string | `one_at_a_time` (+10 more) | first point >= hash; earlier server wins |
//! | `libmemcached-weighted` (= `php-memcached`) | `OmitDefaultPort`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+10 more) | first point >= hash; earlier server wins |
//! | `libmemcached-spy` | `SlashLabel`, `S-i` | 100 strings per server; the key hash, 1 point per string | `one_at_a_time` (+10 more) | first point >= hash; earlier server wins |
//! | `libmemcached-spy-weighted` | `SlashLabel`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+10 more) | first point >= hash; earlier server wins |
//! | `twemproxy` (= `nutcracker`) | `OmitDefaultPort`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `fnv1a_64` (+11 more) | first point >= hash; earlier server wins |
//! | `twemproxy-modula` | - | - | `fnv1a_64` (+11 more) | hash % total weight (weight slots) |
//! | `pecl-memcache` | `Label`, `S-i` | 160 x weight strings; the key hash, 1 point per string | `crc32a` (+1 more) | 1024-bucket table; earlier server wins |
//! | `pecl-memcache-standard` | - | - | `crc32a` (+1 more) | ((hash >> 16) & 0x7fff) % total weight |
//! | `spymemcached` | `JavaSpy`, `S-i` | 160 strings per server; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+6 more) | first point >= hash; later server wins |
//! | `spymemcached-libmemcached-format` | `JavaHostName`, `S-i` | 160 strings per server; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+6 more) | first point >= hash; later server wins |
//! | `spymemcached-weighted` | `JavaSpy`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+6 more) | first point >= hash; later server wins |
//! | `spymemcached-weighted-libmemcached-format` | `JavaHostName`, `S-i` | relative weight, libmemcached float formula; md5, 4 points per digest | `md5` (+6 more) | first point >= hash; later server wins |
//! | `xmemcached` | `JavaXmc`, `S-i` | 160 x weight strings; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+12 more) | first point >= hash; xmemcached sorted list |
//! | `xmemcached-nginx` | `JavaNginx`, `S-i` | 160 x weight strings; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+12 more) | first point >= hash; xmemcached sorted list |
//! | `xmemcached-gwhalin` | `JavaHostNamePort`, `S-i` | 160 x weight strings; md5 x 4 with KETAMA_HASH, else the key hash | `md5` (+12 more) | first point >= hash; xmemcached sorted list |
//! | `uhashring` | `Label`, `S-i` | 160 x weight strings; md5 as a 128-bit number | `md5` | first point > hash; later server wins |
//! | `uhashring-ketama` | `Label`, `S-i` | relative weight, integer formula; md5, 4 points per digest | `md5` | first point > hash; later server wins |
//! | `hash_ring` | `Label`, `S-i` | relative weight, integer formula; md5, 3 points per digest | `md5` | first point > hash; later server wins |
//! | `node-hashring` | `Label`, `S-i` | relative weight, node-hashring double formula; md5, 4 points per digest | `md5` | first point >= hash; earlier server wins |
//! | `go-ketama` | `Label`, `S-i` | relative weight, libketama float formula; md5, 4 points per digest | `md5` | first point >= hash (hash 0 to the last point); earlier server wins |
//! | `groupcache` | `Label`, `iS` | 50 strings per server; the key hash, 1 point per string | `crc32a` | first point >= hash; later server wins |
//! | `flexihash` | `Label`, `Si` | 64 x weight strings; the key hash, 1 point per string | `crc32a` | first point > hash; later server wins |
//! | `flexihash-seed` | `Bare`, `S` | 1 strings per server; the key hash, 1 point per string | `seed_tohash` | largest point <= hash; earlier server wins |
//! | `dalli` | `HostPort`, `S:i` | relative weight, dalli double formula (160 n w / W); sha1, first word big-endian, 1 point per string | `crc32a` | largest point <= hash, else the largest point (backwards); earlier server wins |
//! | `nginx` | `NginxHostNulPort`, `S` | 160 x weight strings; crc32 chain, each point over S and the previous one | `crc32a` | first point >= hash; earlier server wins |
//! | `folsom` | `Label`, `S-i` | 100 strings per server; murmur3_32 chain, each point hashing the previous one | `murmur3_32` | first point >= hash in signed order; later server wins |
//! | `memjs` | - | - | `native` | \|signed hash\| % n |
//! | `whalin-consistent` | `Label`, `S-i` | relative weight, whalin Java int formula (40 n w / W); md5, 4 points per digest | `md5` | first point >= hash; later server wins |
//! | `whalin-consistent-sanitized` | `Label`, `S-i` | relative weight, whalin Java int formula (40 n w / W); md5, 4 points per digest | `md5` | first point >= hash; later server wins |
//! | `whalin-native` | - | - | `native` | \|signed hash\| % total weight |
//! | `whalin-old-compat` | - | - | `native` | \|64-bit old-compat hash\| % total weight |
//! | `whalin-new-compat` | - | - | `crc` | \|signed hash\| % total weight |
//! | `mcrouter-ch3` | - | - | `spooky32` | mcrouter furc_hash (CH3) |
//! | `mcrouter-wch3` | - | - | `spooky32` | mcrouter WeightedCh3 (furc_hash + spooky draws, weights / max) |
//! | `pymemcache` | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `pymemcache-unicode` | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `pymemcache-bytes` | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `django-pymemcache` (= `django`) | - | - | `pymemcache_murmur3` | rendezvous: highest hash of S-key, ties to the greater node string |
//! | `emcache` | - | - | `emcache_murmur3` | rendezvous: highest hash of key + S, ties to the greater node hash, then the earlier server |
//! | `python-memcached` | - | - | `crc` (+1 more) | hash % total weight (weight slots) |
//! | `memcached-proxy` | - | - | `xxh3` | jump consistent hash over 64-bit XXH3 of the key |
//! | `memcached-proxy-ring` | `HostPort`, `S-i` | 160 strings per server; xxh3, low 32 bits, 1 point per string | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `memcached-proxy-ring-ketama` | `HostPort`, `S-i` | 40 strings per server; md5, 4 points per digest | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `memcached-proxy-ring-twemproxy` | `OmitDefaultPort`, `S-i` | 40 strings per server; md5, 4 points per digest | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `memcached-proxy-ring-evcache` | `HostSlashHostPort`, `S-i` | 40 strings per server; md5, 4 points per digest | `xxh3` (+1 more) | first point >= hash; earlier server wins |
//! | `evcache` | `JavaEvcache`, `S-i` | 160 strings per server; md5 x 4 with KETAMA_HASH, else the key hash | `md5` | first point >= hash; later server wins |
//! | `predis` | `HostPort`, `S:i` | relative weight, Predis PHP round formula (round(w / W n 128)); the key hash, 1 point per string | `crc32a` | largest point <= hash, else the largest point (backwards); later server wins |
//! | `predis-ketama` | `HostPort`, `S-i` | relative weight, Predis double formula (floor(w / W n 40)); md5, 4 points per digest | `md5` | first point >= hash; later server wins |
//! | `phpredis-array` | - | - | `crc32a` | (hash * n) / (2^32 - 1): a range per server |
//! | `phpredis-array-consistent` | `Label`, `S-i` | 40 strings per server; md5, 4 points per digest | `crc32_raw` | first point >= hash; earlier server wins |
//! | `redis-rb` | `RedisUrlDb`, `S:i` | 160 strings per server; the key hash, 1 point per string | `crc32a` | largest point <= hash, else the largest point (backwards); later server wins |
//! | `redis-rb-5` | `RedisUrl`, `S:i` | 160 strings per server; md5, first word big-endian, 1 point per string | `crc32a` | largest point <= hash, else the largest point (backwards); later server wins |
//! | `jedis` | `ShardPlace`, `S-NODE-i` | 160 x weight strings (a Java int); the key hash's 64 bits, 1 point per string | `murmur64a` | first point >= hash in signed order; later server wins |
//! | `jedis-named` | `Label`, `S*i` | 160 x weight strings (a Java int); the key hash's 64 bits, 1 point per string | `murmur64a` | first point >= hash in signed order; later server wins |
//! | `jedis-2-named` | `NameStarWeight`, `Si` | 160 x weight strings (a Java int); the key hash's 64 bits, 1 point per string | `murmur64a` | first point >= hash in signed order; later server wins |
//! | `jedis-4` | `ShardPlace`, `S-NODE-i` | 160 strings per server; the key hash's 64 bits, 1 point per string | `murmur64a` | first point >= hash in signed order; later server wins |
//! | `go-redis` | - | - | `xxh64` | rendezvous: highest mix(H64(key) ^ H64(S)), ties to the earlier server |
//! | `go-redis-v7` | `Label`, `iS` | 100 strings per server; the key hash, 1 point per string | `crc32a` | first point >= hash; later server wins |
//! | `redis-shard` | `Label`, `S:i` | 128 strings per server; the key hash, 1 point per string | `crc32a` | first point > hash, else the last point (no wrap); later server wins |
//! | `finagle` | `JavaHostName`, `S-i` | relative weight, Finagle double formula ((int)(w / W n 40 + 1e-10)); md5, 4 points per digest | `md5` | first point >= hash; later server wins |
//! | `enyim` | `IpEndPoint`, `S-i` | 100 strings per server; fnv1a_32, the first string from state 0, 1 point per string | `fnv1a_32_zero` | first point >= hash (below the first point: the last); later server wins |
//! | `enyim-ketama` | `IpEndPoint`, `S-i` | 40 strings per server; md5, 4 points per digest | `md5` | first point >= hash (below the first point: the last); later server wins |
//! | `cache-memcached-fast` | `HostNulPort`, `S` | 150 x weight strings; crc32 chain, each point over S and the previous one | `crc32a` | first point >= hash; earlier server wins |
//! | `cache-memcached-fast-compat` | - | - | `crc` | one point per server at its weight share; hash % W scaled onto it |
//! | `cache-memcached` | - | - | `crc` | hash % total weight (weight slots) |
//! | `modula` | - | - | `one_at_a_time` (+10 more) | hash % n |
//! | `gomemcache` | - | - | `crc32a` | hash % n |
//! | `jump` | - | - | `md5` | jump consistent hash |
//! | `rendezvous` | - | - | `md5` | rendezvous hashing |
//! | `maglev` | - | - | `md5` | a Maglev table |
//! <!-- end of generated table -->
//!
//! The table's files: `knobs` and `keys` hold the knob types, `row` the [`Profile`] type, one
//! file per client family its rows (re-exported here), and this file the list of every row
//! ([`PROFILES`]) and the lookups by name.

use crate::error::Error;

mod describe;
mod keys;
mod knobs;
mod row;

// The rows, one file per client family.
mod algorithms;
mod dotnet;
mod go;
mod java;
mod jedis;
mod js;
mod libmemcached;
mod perl;
mod php;
mod proxies;
mod python;
mod ruby;
mod whalin;

pub use self::algorithms::*;
pub use self::dotnet::*;
pub use self::go::*;
pub use self::java::*;
pub use self::jedis::*;
pub use self::js::*;
pub use self::keys::{
    KeyChars, KeyLimits, KeyRewrite, KeyTag, TagRule, ANY_KEY, DJANGO_KEY, EMCACHE_KEY, ENYIM_KEY,
    FINAGLE_KEY, FOLSOM_KEY, MEMCACHED_KEY, NON_EMPTY_KEY, PYMEMCACHE_KEY, PYMEMCACHE_UNICODE_KEY,
    PYTHON_MEMCACHED_KEY,
};
pub use self::knobs::{
    Bound, Failover, Join, Order, Placement, PointHash, Removal, ScoreTies, StringForm, Ties,
    ZeroWeight,
};
pub use self::libmemcached::*;
pub use self::perl::*;
pub use self::php::*;
pub use self::proxies::*;
pub use self::python::*;
pub use self::row::Profile;
pub use self::ruby::*;
pub use self::whalin::*;

/// Every profile, in documentation order.
pub static PROFILES: &[&Profile] = &[
    &LIBKETAMA,
    &LIBMEMCACHED,
    &LIBMEMCACHED_WEIGHTED,
    &LIBMEMCACHED_SPY,
    &LIBMEMCACHED_SPY_WEIGHTED,
    &TWEMPROXY,
    &TWEMPROXY_MODULA,
    &PECL_MEMCACHE,
    &PECL_MEMCACHE_STANDARD,
    &SPYMEMCACHED,
    &SPYMEMCACHED_LIBMEMCACHED_FORMAT,
    &SPYMEMCACHED_WEIGHTED,
    &SPYMEMCACHED_WEIGHTED_LIBMEMCACHED_FORMAT,
    &XMEMCACHED,
    &XMEMCACHED_NGINX,
    &XMEMCACHED_GWHALIN,
    &UHASHRING,
    &UHASHRING_KETAMA,
    &HASH_RING,
    &NODE_HASHRING,
    &GO_KETAMA,
    &GROUPCACHE,
    &FLEXIHASH,
    &FLEXIHASH_SEED,
    &DALLI,
    &NGINX,
    &FOLSOM,
    &MEMJS,
    &WHALIN_CONSISTENT,
    &WHALIN_CONSISTENT_SANITIZED,
    &WHALIN_NATIVE,
    &WHALIN_OLD_COMPAT,
    &WHALIN_NEW_COMPAT,
    &MCROUTER_CH3,
    &MCROUTER_WCH3,
    &PYMEMCACHE,
    &PYMEMCACHE_UNICODE,
    &PYMEMCACHE_BYTES,
    &DJANGO_PYMEMCACHE,
    &EMCACHE,
    &PYTHON_MEMCACHED,
    &MEMCACHED_PROXY,
    &MEMCACHED_PROXY_RING,
    &MEMCACHED_PROXY_RING_KETAMA,
    &MEMCACHED_PROXY_RING_TWEMPROXY,
    &MEMCACHED_PROXY_RING_EVCACHE,
    &EVCACHE,
    &PREDIS,
    &PREDIS_KETAMA,
    &PHPREDIS_ARRAY,
    &PHPREDIS_ARRAY_CONSISTENT,
    &REDIS_RB,
    &REDIS_RB_5,
    &JEDIS,
    &JEDIS_NAMED,
    &JEDIS_2_NAMED,
    &JEDIS_4,
    &GO_REDIS,
    &GO_REDIS_V7,
    &REDIS_SHARD,
    &FINAGLE,
    &ENYIM,
    &ENYIM_KETAMA,
    &CACHE_MEMCACHED_FAST,
    &CACHE_MEMCACHED_FAST_COMPAT,
    &CACHE_MEMCACHED,
    &MODULA,
    &GOMEMCACHE,
    &JUMP,
    &RENDEZVOUS,
    &MAGLEV,
];

impl Profile {
    /// Looks a profile up by name or alias.
    ///
    /// ```
    /// use ketama_core::Profile;
    /// assert_eq!(Profile::by_name("php-memcached").unwrap().name, "libmemcached-weighted");
    /// assert!(Profile::by_name("nope").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<&'static Profile, Error> {
        PROFILES
            .iter()
            .copied()
            .find(|p| p.name == name || p.aliases.contains(&name))
            .ok_or(Error::UnknownProfile)
    }

    /// Every profile, in documentation order.
    pub fn all() -> &'static [&'static Profile] {
        PROFILES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_offers_its_default_hash_first_and_no_hash_twice() {
        for p in PROFILES {
            assert_eq!(p.hashes.first(), Some(&p.default_hash), "{}", p.name);
            for (i, h) in p.hashes.iter().enumerate() {
                assert!(
                    !p.hashes[i + 1..].contains(h),
                    "{} offers {h} twice",
                    p.name
                );
            }
        }
    }

    #[test]
    fn the_hash_tag_option_is_offered_exactly_where_tags_are_configured() {
        // `--hash-tag` sets the delimiters of a configured rule; a client with braces of its
        // own, or without tags, has no such option.
        for p in PROFILES {
            assert_eq!(
                p.options.hash_tag,
                matches!(p.key_tag, KeyTag::Configured(_)),
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn wide_points_are_searched_upper_bound() {
        // The 128-bit layout has one search (first point > the key's digest): a row asking
        // for 128-bit points with another bound would be searched by a rule it did not ask for.
        for p in PROFILES {
            if p.points == PointHash::Md5Wide && p.is_ring() {
                assert_eq!(
                    p.placement,
                    Placement::Ring(Bound::UpperBound),
                    "{}",
                    p.name
                );
            }
            // 64-bit points are searched first point >= the key's hash, in the order the
            // bound's flip gives (signed for Jedis).
            if p.points == PointHash::KeyHash64 {
                assert!(
                    matches!(
                        p.placement,
                        Placement::Ring(Bound::LowerBound | Bound::LowerBoundSigned)
                    ),
                    "{}",
                    p.name
                );
            }
        }
    }
}
