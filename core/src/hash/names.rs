//! The hash name table: each [`Hash`]'s canonical name, the clients' own names for it and its
//! one-line description, and name lookup.

use super::Hash;
use crate::error::Error;

/// One row of the name table: the variant, its canonical name, the clients' names for it, and
/// a one-line description.
struct Row {
    hash: Hash,
    name: &'static str,
    aliases: &'static [&'static str],
    about: &'static str,
}

const fn row(
    hash: Hash,
    name: &'static str,
    aliases: &'static [&'static str],
    about: &'static str,
) -> Row {
    Row {
        hash,
        name,
        aliases,
        about,
    }
}

/// The name table. Client names are matched case-sensitively (`ONE_AT_A_TIME` is xmemcached's
/// unsigned flavour, `one_at_a_time` libhashkit's signed one); snake_case names also match in any case
/// when nothing else does.
static TABLE: &[Row] = &[
    row(
        Hash::OneAtATime,
        "one_at_a_time",
        &[
            "default",
            "HASHKIT_HASH_DEFAULT",
            "MEMCACHED_HASH_DEFAULT",
            "HASH_DEFAULT",
        ],
        "Jenkins one-at-a-time, C signed bytes (libmemcached default)",
    ),
    row(
        Hash::OneAtATimeUnsigned,
        "one_at_a_time_unsigned",
        &["ONE_AT_A_TIME"],
        "one-at-a-time over unsigned bytes (xmemcached ONE_AT_A_TIME, ARM libhashkit)",
    ),
    row(
        Hash::Md5,
        "md5",
        &[
            "ketama",
            "KETAMA_HASH",
            "HASHKIT_HASH_MD5",
            "MEMCACHED_HASH_MD5",
            "HASH_MD5",
        ],
        "MD5, little-endian first word (ketama)",
    ),
    row(
        Hash::Election,
        "election",
        &["ELECTION_HASH"],
        "MD5 like md5; xmemcached rings take one point per string for it",
    ),
    row(
        Hash::Crc,
        "crc",
        &[
            "HASHKIT_HASH_CRC",
            "MEMCACHED_HASH_CRC",
            "HASH_CRC",
            "CRC_HASH",
            "CRC32_HASH",
        ],
        "(crc32 >> 16) & 0x7fff: 15 bits (libhashkit, Java CRC)",
    ),
    row(
        Hash::Crc32a,
        "crc32a",
        &["crc32_ieee"],
        "standard IEEE CRC-32 (PHP crc32(), pecl memcache, Go)",
    ),
    row(
        Hash::Crc16,
        "crc16",
        &[],
        "twemproxy crc16 (XMODEM table, 32-bit accumulator)",
    ),
    row(
        Hash::Fnv1_64,
        "fnv1_64",
        &[
            "HASHKIT_HASH_FNV1_64",
            "MEMCACHED_HASH_FNV1_64",
            "HASH_FNV1_64",
        ],
        "FNV-1 64-bit, low word, C signed bytes",
    ),
    row(
        Hash::Fnv1a64,
        "fnv1a_64",
        &[
            "HASHKIT_HASH_FNV1A_64",
            "MEMCACHED_HASH_FNV1A_64",
            "HASH_FNV1A_64",
        ],
        "FNV-1a 64-bit, low word, C signed bytes (twemproxy default)",
    ),
    row(
        Hash::Fnv1_32,
        "fnv1_32",
        &[
            "HASHKIT_HASH_FNV1_32",
            "MEMCACHED_HASH_FNV1_32",
            "HASH_FNV1_32",
        ],
        "FNV-1 32-bit, C signed bytes",
    ),
    row(
        Hash::Fnv1a32,
        "fnv1a_32",
        &[
            "fnv",
            "HASHKIT_HASH_FNV1A_32",
            "MEMCACHED_HASH_FNV1A_32",
            "HASH_FNV1A_32",
        ],
        "FNV-1a 32-bit, C signed bytes (pecl memcache fnv)",
    ),
    row(
        Hash::Fnv1_64Unsigned,
        "fnv1_64_unsigned",
        &[],
        "FNV-1 64-bit low word, unsigned bytes",
    ),
    row(
        Hash::Fnv1a64Unsigned,
        "fnv1a_64_unsigned",
        &[],
        "FNV-1a 64-bit low word, unsigned bytes",
    ),
    row(
        Hash::Fnv1_32Unsigned,
        "fnv1_32_unsigned",
        &[],
        "FNV-1 32-bit, unsigned bytes",
    ),
    row(
        Hash::Fnv1a32Unsigned,
        "fnv1a_32_unsigned",
        &[],
        "FNV-1a 32-bit, unsigned bytes",
    ),
    row(
        Hash::JavaFnv1_64,
        "java_fnv1_64",
        &["FNV1_64_HASH"],
        "Java FNV1_64_HASH (UTF-16 units)",
    ),
    row(
        Hash::JavaFnv1a64,
        "java_fnv1a_64",
        &["FNV1A_64_HASH"],
        "Java FNV1A_64_HASH (UTF-16 units)",
    ),
    row(
        Hash::JavaFnv1_32,
        "java_fnv1_32",
        &["FNV1_32_HASH"],
        "Java FNV1_32_HASH (UTF-16 units)",
    ),
    row(
        Hash::JavaFnv1a32,
        "java_fnv1a_32",
        &["FNV1A_32_HASH"],
        "Java FNV1A_32_HASH (UTF-16 units)",
    ),
    row(
        Hash::Hsieh,
        "hsieh",
        &["HASHKIT_HASH_HSIEH", "MEMCACHED_HASH_HSIEH", "HASH_HSIEH"],
        "Hsieh SuperFastHash (libhashkit, twemproxy)",
    ),
    row(
        Hash::HsiehUnsigned,
        "hsieh_unsigned",
        &[],
        "Hsieh SuperFastHash, unsigned tail byte",
    ),
    row(
        Hash::Murmur,
        "murmur",
        &[
            "HASHKIT_HASH_MURMUR",
            "MEMCACHED_HASH_MURMUR",
            "HASH_MURMUR",
        ],
        "libhashkit MurmurHash2, seed 0xDEADBEEF*len",
    ),
    row(
        Hash::Murmur3,
        "murmur3",
        &["HASHKIT_HASH_MURMUR3", "MEMCACHED_HASH_MURMUR3"],
        "libhashkit MurmurHash3_x86_32, seed 0xDEADBEEF*len",
    ),
    row(
        Hash::Jenkins,
        "jenkins",
        &["HASHKIT_HASH_JENKINS", "MEMCACHED_HASH_JENKINS"],
        "lookup3 hashlittle, initval 13",
    ),
    row(
        Hash::Native,
        "native",
        &["NATIVE_HASH"],
        "Java String.hashCode() as u32",
    ),
    row(
        Hash::Mysql,
        "mysql",
        &["MYSQL_HASH"],
        "xmemcached MYSQL_HASH (UTF-16 units)",
    ),
    row(
        Hash::Elf,
        "elf",
        &["ELF_HASH"],
        "xmemcached ELF_HASH (UTF-16 units)",
    ),
    row(
        Hash::Rs,
        "rs",
        &["RS_HASH"],
        "xmemcached RS_HASH (UTF-16 units)",
    ),
    row(
        Hash::Lua,
        "lua",
        &["LUA_HASH"],
        "xmemcached LUA_HASH (UTF-16 units, i64)",
    ),
    row(
        Hash::Md5Be,
        "md5_be",
        &[],
        "MD5, big-endian first word (flexihash Md5Hasher)",
    ),
    row(
        Hash::Sha1,
        "sha1",
        &[],
        "SHA-1, big-endian first word (Ruby dalli ring points)",
    ),
    row(
        Hash::Murmur3_32,
        "murmur3_32",
        &["guava_murmur3_32"],
        "MurmurHash3_x86_32 seed 0 over bytes (Guava murmur3_32, folsom)",
    ),
    row(
        Hash::Spooky32,
        "spooky32",
        &["SpookyHashV2_32"],
        "SpookyHash V2 Hash32, seed 0 (folly, mcrouter)",
    ),
    row(
        Hash::PyMurmur3,
        "pymemcache_murmur3",
        &["murmur3_32_chars"],
        "pymemcache murmur3_32: MurmurHash3_x86_32 seed 0 over ord(c) & 0xFF of each character",
    ),
    row(
        Hash::EmcacheMurmur3,
        "emcache_murmur3",
        &["murmur3_x64_128_emcache"],
        "emcache _hash: MurmurHash3_x64_128 seed 0, low bytes read as signed char (1,152 values)",
    ),
    row(
        Hash::Xxh3,
        "xxh3",
        &["XXH3_64bits"],
        "XXH3 64-bit seed 0, low 32 bits (memcached proxy)",
    ),
    row(
        Hash::Crc32Raw,
        "crc32_raw",
        &[],
        "CRC-32 without its final inversion, ~crc32 (phpredis RedisArray consistent ring)",
    ),
    row(
        Hash::Murmur64A,
        "murmur64a",
        &["MURMUR_HASH"],
        "MurmurHash64A seed 0x1234ABCD (Jedis); 64 bits on its ring, the high 32 here",
    ),
    row(
        Hash::Xxh64,
        "xxh64",
        &["xxhash.Sum64"],
        "XXH64 seed 0 (go-redis v9 Ring); 64 bits in its rendezvous, the high 32 here",
    ),
    row(
        Hash::Fnv1a32Zero,
        "fnv1a_32_zero",
        &[],
        "FNV-1a 32 from the state 0, not the offset basis, unsigned bytes (Enyim key hash)",
    ),
    row(
        Hash::PhpToHash,
        "seed_tohash",
        &["toHash"],
        "toHash of the user's PHP FlexiHash class",
    ),
];

impl Hash {
    /// Every hash, in documentation order.
    pub fn all() -> impl Iterator<Item = Hash> {
        TABLE.iter().map(|r| r.hash)
    }

    fn row(self) -> &'static Row {
        // Every variant has exactly one row (`core/tests/tables.rs` reads the enum's source and
        // fails on a variant without its row); fall back to the first row rather than panic.
        TABLE.iter().find(|r| r.hash == self).unwrap_or(&TABLE[0])
    }

    /// Our canonical snake_case name.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The clients' own names that select this hash (may be empty).
    pub fn aliases(self) -> &'static [&'static str] {
        self.row().aliases
    }

    /// How many low bits a value can use: `hash(key) < 2^bits` for every key (15 for the
    /// 15-bit `crc`, 32 for the others). A modulo client that reads the value as a signed
    /// number places a hash below 2^31 as an unsigned one does.
    ///
    /// ```
    /// use ketama_core::Hash;
    /// assert_eq!(Hash::Crc.bits(), 15);
    /// assert!(Hash::Crc.hash(b"apple") < 1 << 15);
    /// ```
    pub fn bits(self) -> u32 {
        match self {
            Hash::Crc => 15,
            _ => 32,
        }
    }

    /// One line saying what this hash is and who uses it.
    pub fn description(self) -> &'static str {
        self.row().about
    }

    /// Looks a hash up by our snake_case name or a client's own enum name.
    ///
    /// Bare `crc32` is ambiguous (15-bit in twemproxy and Java, full CRC-32 in PHP): without a
    /// profile it is rejected with [`Error::AmbiguousHash`]; profiles resolve it
    /// ([`crate::Profile::hash_from_name`]).
    ///
    /// ```
    /// use ketama_core::Hash;
    /// assert_eq!(Hash::from_name("KETAMA_HASH"), Ok(Hash::Md5));
    /// assert_eq!(Hash::from_name("FNV1_32_HASH"), Ok(Hash::JavaFnv1_32));
    /// assert_eq!(Hash::from_name("fnv1_32"), Ok(Hash::Fnv1_32));
    /// assert!(Hash::from_name("crc32").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Hash, Error> {
        if name == "crc32" {
            return Err(Error::AmbiguousHash);
        }
        TABLE
            .iter()
            .find(|r| r.name == name || r.aliases.contains(&name))
            .or_else(|| TABLE.iter().find(|r| r.name.eq_ignore_ascii_case(name)))
            .map(|r| r.hash)
            .ok_or(Error::UnknownHash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_complete_and_unambiguous() {
        for (i, r) in TABLE.iter().enumerate() {
            assert_eq!(r.hash.name(), r.name);
            assert_eq!(Hash::from_name(r.name), Ok(r.hash));
            for a in r.aliases {
                assert_eq!(Hash::from_name(a), Ok(r.hash), "{a}");
            }
            for other in &TABLE[i + 1..] {
                assert_ne!(r.hash, other.hash);
                assert!(!other
                    .aliases
                    .iter()
                    .any(|a| *a == r.name || r.aliases.contains(a)));
            }
        }
        assert_eq!(Hash::from_name("crc32"), Err(Error::AmbiguousHash));
        assert_eq!(Hash::from_name("nope"), Err(Error::UnknownHash));
    }
}
