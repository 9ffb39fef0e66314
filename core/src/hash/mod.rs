//! Every key hash the supported clients use, as one enum.
//!
//! Names: our snake_case names ([`Hash::name`]) select the libhashkit (C, x86 signed `char`)
//! flavour; the clients' own enum names (`KETAMA_HASH`, `FNV1_32_HASH`, `HASHKIT_HASH_MD5`, ...)
//! select that client's flavour (Java clients hash UTF-16 code units). See [`Hash::from_name`].

mod crc;
mod fnv;
pub mod furc;
mod hsieh;
mod java;
mod jenkins;
pub mod md5;
mod murmur;
pub mod murmur128;
pub mod murmur64;
mod names;
mod one_at_a_time;
pub mod pymurmur;
pub mod sha1;
pub mod spooky;
pub mod units;
pub mod whalin;

use crate::error::Error;
use units::{signed_bytes, unsigned_bytes, utf16_units};

/// A key hash function. `hash(key)` never fails and never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Hash {
    /// Jenkins one-at-a-time, C signed bytes: libmemcached's default.
    OneAtATime,
    /// One-at-a-time over unsigned bytes: xmemcached `ONE_AT_A_TIME`, ARM/PowerPC libhashkit.
    OneAtATimeUnsigned,
    /// ketama MD5: little-endian u32 of digest bytes 0..4 (`KETAMA_HASH`, `HASHKIT_HASH_MD5`).
    Md5,
    /// xmemcached `ELECTION_HASH`: MD5 like [`Hash::Md5`], but its ring takes one point per string.
    Election,
    /// libhashkit `crc`, spymemcached `CRC_HASH`, xmemcached `CRC32_HASH`: 15 bits only.
    Crc,
    /// The standard IEEE CRC-32 (PHP `crc32()`, pecl memcache, twemproxy `crc32a`, Go).
    Crc32a,
    /// twemproxy `crc16`: XMODEM table on an untruncated 32-bit accumulator.
    Crc16,
    /// FNV-1 64 (low word), C signed bytes.
    Fnv1_64,
    /// FNV-1a 64 (low word), C signed bytes: twemproxy's default.
    Fnv1a64,
    /// FNV-1 32, C signed bytes.
    Fnv1_32,
    /// FNV-1a 32, C signed bytes (also pecl memcache `fnv`).
    Fnv1a32,
    /// FNV-1 64 (low word) over unsigned bytes (ARM/PowerPC libhashkit).
    Fnv1_64Unsigned,
    /// FNV-1a 64 (low word) over unsigned bytes.
    Fnv1a64Unsigned,
    /// FNV-1 32 over unsigned bytes.
    Fnv1_32Unsigned,
    /// FNV-1a 32 over unsigned bytes.
    Fnv1a32Unsigned,
    /// Java `FNV1_64_HASH` over UTF-16 units.
    JavaFnv1_64,
    /// Java `FNV1A_64_HASH` over UTF-16 units.
    JavaFnv1a64,
    /// Java `FNV1_32_HASH` over UTF-16 units.
    JavaFnv1_32,
    /// Java `FNV1A_32_HASH` over UTF-16 units.
    JavaFnv1a32,
    /// Paul Hsieh's SuperFastHash (libhashkit, twemproxy), x86 signed tail byte.
    Hsieh,
    /// SuperFastHash with an unsigned tail byte (ARM/PowerPC builds).
    HsiehUnsigned,
    /// libhashkit MurmurHash2 variant, seed `0xDEADBEEF * len`.
    Murmur,
    /// libhashkit MurmurHash3_x86_32, seed `0xDEADBEEF * len`.
    Murmur3,
    /// lookup3 `hashlittle(key, len, 13)`.
    Jenkins,
    /// Java `String.hashCode()` as u32 (`NATIVE_HASH`).
    Native,
    /// xmemcached `MYSQL_HASH`.
    Mysql,
    /// xmemcached `ELF_HASH`.
    Elf,
    /// xmemcached `RS_HASH`.
    Rs,
    /// xmemcached `LUA_HASH` (signed 64-bit arithmetic, low 32 bits).
    Lua,
    /// flexihash `Md5Hasher`: big-endian u32 of digest bytes 0..4.
    Md5Be,
    /// The `toHash` of the user's PHP FlexiHash class (`tests/oracles/flexihash/SeedFlexiHash.php`),
    /// named `seed_tohash`.
    PhpToHash,
    /// SHA-1, big-endian u32 of digest bytes 0..4 (Ruby Dalli's ring points).
    Sha1,
    /// MurmurHash3_x86_32 with seed 0, as Guava `Hashing.murmur3_32()` hashes bytes (folsom).
    Murmur3_32,
    /// SpookyHash V2 `Hash32(key, len, 0)` (folly / mcrouter).
    Spooky32,
    /// pymemcache's pure-Python `murmur3_32`: MurmurHash3_x86_32, seed 0, over the key's
    /// characters each truncated to its low byte (`ord(c) & 0xFF`).
    PyMurmur3,
    /// emcache's `_hash`: MurmurHash3_x64_128 (seed 0) reduced to 32 bits through signed
    /// `char` reads and a precedence slip (see [`murmur128::emcache`]).
    EmcacheMurmur3,
    /// XXH3 64-bit, seed 0, its low 32 bits (memcached's proxy: `XXH3_64bits_withSeed` read
    /// as `unsigned int` by its ring).
    Xxh3,
    /// CRC-32 without its final inversion (`~crc32`): the value phpredis's `RedisArray`
    /// compares with its consistent ring's points.
    Crc32Raw,
    /// MurmurHash64A with Jedis's seed `0x1234ABCD` (`Hashing.MURMUR_HASH`): 64 bits, which
    /// [`Hash::hash64`] gives; [`Hash::hash`] gives the high 32.
    Murmur64A,
    /// XXH64, seed 0 (go-redis v9's `Ring`): 64 bits, which [`Hash::hash64`] gives;
    /// [`Hash::hash`] gives the high 32.
    Xxh64,
    /// FNV-1a 32 over unsigned bytes from the state 0 instead of the offset basis (Enyim's
    /// `FNV1a` key hash, whose hasher is never initialised before its first use).
    Fnv1a32Zero,
}

impl Hash {
    /// Whether this hash reads Java UTF-16 code units rather than bytes.
    pub fn is_java_utf16(self) -> bool {
        matches!(
            self,
            Hash::JavaFnv1_64
                | Hash::JavaFnv1a64
                | Hash::JavaFnv1_32
                | Hash::JavaFnv1a32
                | Hash::Native
                | Hash::Mysql
                | Hash::Elf
                | Hash::Rs
                | Hash::Lua
        )
    }

    /// Hashes `key` (the client's bytes; Java flavours decode them as UTF-8 first).
    ///
    /// ```
    /// use ketama_core::Hash;
    /// assert_eq!(Hash::Md5.hash(b"apple"), 3195025439);
    /// assert_eq!(Hash::OneAtATime.hash(b"apple"), 2297466611);
    /// ```
    #[inline]
    pub fn hash(self, key: &[u8]) -> u32 {
        // The defaults of the most used profiles inline; the rest through one call.
        match self {
            Hash::OneAtATime => one_at_a_time::one_at_a_time(signed_bytes(key)),
            Hash::Md5 => md5::ketama(key),
            _ => self.hash_any(key),
        }
    }

    /// [`Hash::hash`] for every function, out of line.
    #[inline(never)]
    fn hash_any(self, key: &[u8]) -> u32 {
        match self {
            Hash::OneAtATime => one_at_a_time::one_at_a_time(signed_bytes(key)),
            Hash::OneAtATimeUnsigned => one_at_a_time::one_at_a_time(unsigned_bytes(key)),
            Hash::Md5 | Hash::Election => md5::ketama(key),
            Hash::Crc => crc::crc15(key),
            Hash::Crc32a => crc::crc32a(key),
            Hash::Crc16 => crc::crc16(key),
            Hash::Fnv1_64 => fnv::fnv1_64(signed_bytes(key)),
            Hash::Fnv1a64 => fnv::fnv1a_64(signed_bytes(key)),
            Hash::Fnv1_32 => fnv::fnv1_32(signed_bytes(key)),
            Hash::Fnv1a32 => fnv::fnv1a_32(signed_bytes(key)),
            Hash::Fnv1_64Unsigned => fnv::fnv1_64(unsigned_bytes(key)),
            Hash::Fnv1a64Unsigned => fnv::fnv1a_64(unsigned_bytes(key)),
            Hash::Fnv1_32Unsigned => fnv::fnv1_32(unsigned_bytes(key)),
            Hash::Fnv1a32Unsigned => fnv::fnv1a_32(unsigned_bytes(key)),
            Hash::JavaFnv1_64 => fnv::fnv1_64(utf16_units(key)),
            Hash::JavaFnv1a64 => fnv::fnv1a_64(utf16_units(key)),
            Hash::JavaFnv1_32 => fnv::fnv1_32(utf16_units(key)),
            Hash::JavaFnv1a32 => fnv::fnv1a_32(utf16_units(key)),
            Hash::Hsieh => hsieh::hsieh(key, true),
            Hash::HsiehUnsigned => hsieh::hsieh(key, false),
            Hash::Murmur => murmur::murmur2(key),
            Hash::Murmur3 => murmur::murmur3(key),
            Hash::Jenkins => jenkins::jenkins(key),
            Hash::Native => java::native(utf16_units(key)),
            Hash::Mysql => java::mysql(utf16_units(key)),
            Hash::Elf => java::elf(utf16_units(key)),
            Hash::Rs => java::rs(utf16_units(key)),
            Hash::Lua => java::lua(utf16_units(key)),
            Hash::Md5Be => md5::big_endian(key),
            Hash::PhpToHash => md5::php_tohash(key),
            Hash::Sha1 => sha1::first_word_be(key),
            Hash::Murmur3_32 => murmur::murmur3_32_guava(key),
            Hash::Spooky32 => spooky::hash32(key, 0),
            Hash::PyMurmur3 => pymurmur::pymemcache(key),
            Hash::EmcacheMurmur3 => murmur128::emcache(key),
            Hash::Xxh3 => xxh3_64(key) as u32,
            Hash::Crc32Raw => !crc::crc32a(key),
            Hash::Murmur64A | Hash::Xxh64 => (self.hash64(key) >> 32) as u32,
            Hash::Fnv1a32Zero => fnv::fnv1a_32_from(0, unsigned_bytes(key)),
        }
    }

    /// Whether this hash has 64 bits ([`Hash::hash64`] gives more than [`Hash::hash`]).
    pub fn is_64_bit(self) -> bool {
        matches!(self, Hash::Murmur64A | Hash::Xxh64)
    }

    /// The hash's full 64 bits for the 64-bit hashes ([`Hash::is_64_bit`]); for every other
    /// hash its 32-bit value ([`Hash::hash`]) zero-extended.
    ///
    /// ```
    /// use ketama_core::Hash;
    /// assert_eq!(Hash::Xxh64.hash64(b""), 0xEF46_DB37_51D8_E999);
    /// assert_eq!(Hash::Xxh64.hash(b""), 0xEF46_DB37);
    /// assert_eq!(Hash::Md5.hash64(b"apple"), 3195025439);
    /// ```
    pub fn hash64(self, key: &[u8]) -> u64 {
        match self {
            Hash::Murmur64A => murmur64::jedis(key),
            Hash::Xxh64 => xxhash_rust::xxh64::xxh64(key, 0),
            _ => u64::from(self.hash(key)),
        }
    }
}

/// XXH3 64-bit with seed 0 (`XXH3_64bits`): memcached's proxy hashes keys with it and jumps
/// over the full 64 bits.
pub fn xxh3_64(key: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(key)
}

impl core::fmt::Display for Hash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Hash {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Hash::from_name(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redis_client_hashes() {
        // The CRC-32 check value of "123456789" is 0xCBF43926; phpredis compares its inverse.
        assert_eq!(Hash::Crc32a.hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(Hash::Crc32Raw.hash(b"123456789"), !0xCBF4_3926);
        // The 64-bit hashes give their high half as a 32-bit hash.
        for h in [Hash::Murmur64A, Hash::Xxh64] {
            assert!(h.is_64_bit());
            assert_eq!(u64::from(h.hash(b"key")), h.hash64(b"key") >> 32);
        }
        assert_eq!(Hash::Md5.hash64(b"key"), u64::from(Hash::Md5.hash(b"key")));
        // XXH64 seed 0 of "a" (the reference implementation's sanity value).
        assert_eq!(Hash::Xxh64.hash64(b"a"), 0xD24E_C4F1_A98C_6E5B);
    }

    #[test]
    fn java_known_answers() {
        let cases: [(&str, [u32; 7]); 3] = [
            (
                "hello world!",
                [
                    948,
                    3_111_880_380,
                    3_445_237_362,
                    2_315_368_860,
                    2_956_263_410,
                    2_398_699_516,
                    2_614_696_403,
                ],
            ),
            (
                "café",
                [
                    6317,
                    4_043_580_002,
                    3_898_172_124,
                    3_853_951_970,
                    856_211_068,
                    3_833_532_679,
                    2_425_794_034,
                ],
            ),
            (
                "emoji😀x",
                [
                    19412,
                    651_624_534,
                    918_180_296,
                    162_790_294,
                    3_646_128_104,
                    3_331_975_971,
                    866_013_889,
                ],
            ),
        ];
        let names = [
            "CRC_HASH",
            "FNV1_64_HASH",
            "FNV1A_64_HASH",
            "FNV1_32_HASH",
            "FNV1A_32_HASH",
            "KETAMA_HASH",
            "ONE_AT_A_TIME",
        ];
        for (key, want) in cases {
            for (name, w) in names.iter().zip(want) {
                let h = Hash::from_name(name).unwrap();
                assert_eq!(h.hash(key.as_bytes()), w, "{name} {key}");
            }
        }
    }
}
