//! MurmurHash3_x64_128 and the 32-bit value emcache derives from it.

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

#[inline]
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// MurmurHash3_x64_128 of `key` with a 32-bit seed: the 16 output bytes (h1 then h2, each
/// little-endian), as the reference `MurmurHash3_x64_128(key, len, seed, out)` writes them.
pub fn murmur3_x64_128(key: &[u8], seed: u32) -> [u8; 16] {
    let (mut h1, mut h2) = (u64::from(seed), u64::from(seed));
    let mut blocks = key.chunks_exact(16);
    for b in &mut blocks {
        let mut k1 = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        let mut k2 = u64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]]);
        k1 = k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
        h1 ^= k1;
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        k2 = k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        h2 ^= k2;
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    let word = |bytes: &[u8]| {
        bytes
            .iter()
            .rev()
            .fold(0u64, |a, &b| (a << 8) | u64::from(b))
    };
    if tail.len() > 8 {
        let k2 = word(&tail[8..]);
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
    }
    if !tail.is_empty() {
        let k1 = word(&tail[..tail.len().min(8)]);
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    }
    let len = key.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&h1.to_le_bytes());
    out[8..].copy_from_slice(&h2.to_le_bytes());
    out
}

/// emcache's `_hash`: `(<char>out[3] & mask << 24) | (<char>out[2] & mask << 16) |
/// (<char>out[1] & mask << 8) | <char>out[0] & mask` over MurmurHash3_x64_128(key, seed 0).
/// `<<` binds tighter than `&` and `<char>` is signed: each byte is sign-extended and masked
/// with `0xFFFFFFFF << 8i`, so a byte >= 0x80 sets every bit from its position up and a byte
/// < 0x80 at positions 1..3 contributes nothing. Only 1,152 values occur.
pub fn emcache(key: &[u8]) -> u32 {
    let out = murmur3_x64_128(key, 0);
    let sx = |b: u8| b as i8 as i32 as u32;
    (sx(out[3]) & (u32::MAX << 24))
        | (sx(out[2]) & (u32::MAX << 16))
        | (sx(out[1]) & (u32::MAX << 8))
        | sx(out[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_answers() {
        // The reference implementation's output bytes (as PyPI mmh3 4.x `hash_bytes` gives).
        let hex = |d: [u8; 16]| {
            d.iter()
                .map(|b| std::format!("{b:02x}"))
                .collect::<std::string::String>()
        };
        assert_eq!(
            hex(murmur3_x64_128(b"hello", 0)),
            "029bbd41b3a7d8cb191dae486a901e5b"
        );
        assert_eq!(
            hex(murmur3_x64_128(b"0123456789abcdefXYZ", 0)),
            "1d904a6c0275d399f39cf8ea56e2694e"
        );
        assert_eq!(murmur3_x64_128(b"", 0), [0; 16]);
    }

    #[test]
    fn emcache_sign_extension() {
        // Only the low byte survives below 0x80; any byte >= 0x80 fills the bits above it.
        let v = emcache(b"hello");
        let d = murmur3_x64_128(b"hello", 0);
        let want = if d[0] >= 0x80 {
            0xFFFF_FF00 | u32::from(d[0])
        } else {
            u32::from(d[0])
                | if d[1] >= 0x80 { 0xFFFF_FF00 } else { 0 }
                | if d[2] >= 0x80 { 0xFFFF_0000 } else { 0 }
                | if d[3] >= 0x80 { 0xFF00_0000 } else { 0 }
        };
        assert_eq!(v, want);
    }
}
