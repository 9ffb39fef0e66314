//! libhashkit's MurmurHash2 and MurmurHash3 variants, both seeded with `0xDEADBEEF * len`, and
//! the plain MurmurHash3_x86_32 with seed 0 as Guava's `Hashing.murmur3_32()` computes it over
//! bytes (folsom's ketama).

#[inline]
fn seed(len: usize) -> u32 {
    0xDEAD_BEEF_u32.wrapping_mul(len as u32)
}

/// libhashkit `HASHKIT_HASH_MURMUR` (also twemproxy `murmur`): MurmurHash2, seed `0xDEADBEEF * len`.
pub fn murmur2(key: &[u8]) -> u32 {
    const M: u32 = 0x5bd1_e995;
    let mut h = seed(key.len()) ^ key.len() as u32;
    let mut words = key.chunks_exact(4);
    for w in &mut words {
        let mut k = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> 24;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M) ^ k;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let t = tail
            .iter()
            .rev()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
        h = (h ^ t).wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^ (h >> 15)
}

/// libhashkit `HASHKIT_HASH_MURMUR3`: MurmurHash3_x86_32 with seed `0xDEADBEEF * len`.
pub fn murmur3(key: &[u8]) -> u32 {
    murmur3_x86_32(key, seed(key.len()))
}

/// Guava `Hashing.murmur3_32()` (and `murmur3_32_fixed()`) `.hashBytes(key).asInt()` as u32:
/// MurmurHash3_x86_32 with seed 0 (folsom's ketama points and key hash).
pub fn murmur3_32_guava(key: &[u8]) -> u32 {
    murmur3_x86_32(key, 0)
}

/// MurmurHash3_x86_32 with an explicit seed (little-endian blocks, tail bytes unsigned).
pub fn murmur3_x86_32(key: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let scramble = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    let mut h = seed;
    let mut words = key.chunks_exact(4);
    for w in &mut words {
        h ^= scramble(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        h ^= scramble(
            tail.iter()
                .rev()
                .fold(0u32, |acc, &b| (acc << 8) | u32::from(b)),
        );
    }
    h ^= key.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_answers() {
        assert_eq!(super::murmur2(b"apple"), 4_142_305_122);
        assert_eq!(super::murmur3(b"apple"), 1_120_212_521);
    }
}
