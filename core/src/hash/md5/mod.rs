//! MD5-based hashes: ketama's little-endian words, flexihash's big-endian word, and the
//! `toHash` of the user's PHP FlexiHash class.
//!
//! Messages of at most 55 bytes (keys, point strings) take [`block::digest_short`]: one
//! compression, our own code from RFC 1321; longer ones the `md-5` crate. Batches of short
//! messages can be hashed several at a time in SIMD lanes ([`lanes`]).

pub mod block;
pub mod lanes;

use md5::{Digest, Md5};

pub use block::SHORT;

/// The 16-byte MD5 digest of `data`.
#[inline]
pub fn digest(data: &[u8]) -> [u8; 16] {
    if data.len() <= SHORT {
        block::digest_short(data)
    } else {
        Md5::digest(data).into()
    }
}

/// The first four bytes of the MD5 digest of `data` as a little-endian u32 (`word_le(&digest(data), 0)`),
/// what every 32-bit MD5 key hash reads; a short message skips the steps that only write the
/// other three words.
#[inline]
pub fn first_word(data: &[u8]) -> u32 {
    if data.len() <= SHORT {
        block::first_word_short(data)
    } else {
        word_le(&digest(data), 0)
    }
}

/// Word `g` (0..=3) of a digest as a little-endian u32: `md5le(s, g)` in docs/client-notes.md.
#[inline]
pub fn word_le(d: &[u8; 16], g: usize) -> u32 {
    let i = 4 * (g & 3);
    u32::from_le_bytes([d[i], d[i + 1], d[i + 2], d[i + 3]])
}

/// ketama / `KETAMA_HASH` / `HASHKIT_HASH_MD5`: the first digest word, little-endian.
#[inline]
pub fn ketama(key: &[u8]) -> u32 {
    first_word(key)
}

/// [`big_endian`] of a digest already computed.
#[inline]
pub fn big_endian_of(d: &[u8; 16]) -> u32 {
    big_endian_of_first(word_le(d, 0))
}

/// [`big_endian`] from the digest's first word ([`first_word`]).
#[inline]
pub fn big_endian_of_first(w: u32) -> u32 {
    w.swap_bytes()
}

/// [`php_tohash`] of a digest already computed.
#[inline]
pub fn php_tohash_of(d: &[u8; 16]) -> u32 {
    php_tohash_of_first(word_le(d, 0))
}

/// [`php_tohash`] from the digest's first word ([`first_word`]).
#[inline]
pub fn php_tohash_of_first(w: u32) -> u32 {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    // Hex characters 0, 2, 4, 6 are the high nibbles of bytes 0..4.
    w.to_le_bytes()
        .iter()
        .fold(0u32, |h, &b| h * 31 + u32::from(HEX[usize::from(b >> 4)]))
        & 0x7FFF_FFFF
}

/// flexihash `Md5Hasher` (>= 2.0.1): the first four digest bytes as a big-endian u32.
#[inline]
pub fn big_endian(key: &[u8]) -> u32 {
    big_endian_of_first(first_word(key))
}

/// The `toHash` of the user's PHP FlexiHash class (profile `flexihash-seed`, hash name
/// `seed_tohash`; the class is `tests/oracles/flexihash/SeedFlexiHash.php`): hex digits 0, 2, 4 and 6 of the lowercase hex MD5
/// (the loop increments `$i` twice), folded with `* 31`; the final `& 0x7FFFFFFF` never changes it.
#[inline]
pub fn php_tohash(key: &[u8]) -> u32 {
    php_tohash_of_first(first_word(key))
}

/// uhashring's default ring position: the whole digest as a big-endian 128-bit integer
/// (`int(md5(s).hexdigest(), 16)`).
#[inline]
pub fn wide(key: &[u8]) -> u128 {
    u128::from_be_bytes(digest(key))
}

#[cfg(test)]
mod tests {
    use md5::{Digest, Md5};
    use proptest::prelude::*;

    fn reference(data: &[u8]) -> [u8; 16] {
        Md5::digest(data).into()
    }

    /// Every length 0..=200 (either side of the one-block limit) against the `md-5` crate,
    /// over a few byte patterns including every byte value.
    #[test]
    fn every_length_matches_the_crate() {
        let mut x = 0x9E37_79B9u32;
        for len in 0..=200usize {
            let patterns: [std::vec::Vec<u8>; 3] = [
                (0..len).map(|i| i as u8).collect(),
                std::vec![0xFF; len],
                (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        x as u8
                    })
                    .collect(),
            ];
            for msg in &patterns {
                assert_eq!(super::digest(msg), reference(msg), "len {len}");
                if len <= super::SHORT {
                    assert_eq!(super::block::digest_short(msg), reference(msg), "len {len}");
                }
                let d = reference(msg);
                assert_eq!(super::first_word(msg), super::word_le(&d, 0), "len {len}");
                assert_eq!(
                    super::big_endian(msg),
                    super::big_endian_of(&d),
                    "len {len}"
                );
                assert_eq!(
                    super::php_tohash(msg),
                    super::php_tohash_of(&d),
                    "len {len}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn random_inputs_match_the_crate(msg in proptest::collection::vec(any::<u8>(), 0..200)) {
            prop_assert_eq!(super::digest(&msg), reference(&msg));
            prop_assert_eq!(super::first_word(&msg), super::word_le(&reference(&msg), 0));
        }
    }

    #[test]
    fn known_answers() {
        assert_eq!(super::ketama(b"apple"), 3_195_025_439);
        assert_eq!(super::php_tohash(b"apple"), 1_510_573);
    }
}
