//! MurmurHash64A (Austin Appleby's 64-bit MurmurHash2) as Jedis computes it: `MurmurHash.hash64A`
//! with seed `0x1234ABCD` (`Hashing.MURMUR_HASH`), over the key's UTF-8 bytes.

/// Jedis's seed (`Hashing.MURMUR_HASH`).
pub const JEDIS_SEED: u64 = 0x1234_ABCD;

const M: u64 = 0xc6a4_a793_5bd1_e995;
const R: u32 = 47;

/// MurmurHash64A of `key` with `seed`: 8-byte little-endian blocks, the 1..=7 tail bytes read
/// as one zero-padded little-endian word.
pub fn murmur64a(key: &[u8], seed: u64) -> u64 {
    let mut h = seed ^ (key.len() as u64).wrapping_mul(M);
    let mut blocks = key.chunks_exact(8);
    for block in &mut blocks {
        let mut word = [0u8; 8];
        word.copy_from_slice(block);
        let mut k = u64::from_le_bytes(word);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h ^= k;
        h = h.wrapping_mul(M);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut word = [0u8; 8];
        word[..tail.len()].copy_from_slice(tail);
        h ^= u64::from_le_bytes(word);
        h = h.wrapping_mul(M);
    }
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^ (h >> R)
}

/// Jedis's key hash: MurmurHash64A with [`JEDIS_SEED`] (a signed Java `long`, compared in
/// signed order by its ring).
#[inline]
pub fn jedis(key: &[u8]) -> u64 {
    murmur64a(key, JEDIS_SEED)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SMHasher's verification value of MurmurHash64A: hash the keys `[0]`, `[0, 1]`, ...,
    /// `[0..=254]` with seeds 256 - length, then the concatenated little-endian hashes with
    /// seed 0; the low 32 bits of that are 0x1F0D3804.
    #[test]
    fn smhasher_verification_value() {
        let mut hashes = std::vec::Vec::new();
        let key: std::vec::Vec<u8> = (0..=255u8).collect();
        for len in 0..256usize {
            let h = murmur64a(&key[..len], 256 - len as u64);
            hashes.extend_from_slice(&h.to_le_bytes());
        }
        assert_eq!(murmur64a(&hashes, 0) as u32, 0x1F0D_3804);
    }

    #[test]
    fn empty_key_with_seed_zero_is_zero() {
        assert_eq!(murmur64a(b"", 0), 0);
    }
}
