//! The four FNV variants as memcached clients compute them: 32-bit results, over whatever
//! elements the caller's flavour yields (signed bytes, unsigned bytes or UTF-16 units).
//!
//! The 64-bit variants keep only the low 32 bits, and the low word of a 64-bit product depends
//! only on the low words of its factors, so 32-bit arithmetic with the 64-bit basis's and prime's
//! low words (0x84222325, 0x1b3) is exact.

const BASIS_32: u32 = 0x811C_9DC5;
const PRIME_32: u32 = 0x0100_0193;
const BASIS_64_LOW: u32 = 0x8422_2325;
const PRIME_64_LOW: u32 = 0x1b3;

/// FNV-1a (xor, then multiply) with the 32-bit prime from the state `start` (the offset basis
/// for the standard hash; Enyim's uninitialised hasher starts from 0).
#[inline]
pub fn fnv1a_32_from(start: u32, units: impl Iterator<Item = u32>) -> u32 {
    units.fold(start, |h, x| (h ^ x).wrapping_mul(PRIME_32))
}

/// FNV-1 (multiply, then xor) with the 32-bit basis and prime.
#[inline]
pub fn fnv1_32(units: impl Iterator<Item = u32>) -> u32 {
    units.fold(BASIS_32, |h, x| h.wrapping_mul(PRIME_32) ^ x)
}

/// FNV-1a (xor, then multiply) with the 32-bit basis and prime.
#[inline]
pub fn fnv1a_32(units: impl Iterator<Item = u32>) -> u32 {
    fnv1a_32_from(BASIS_32, units)
}

/// Low 32 bits of FNV-1 with the 64-bit basis and prime.
#[inline]
pub fn fnv1_64(units: impl Iterator<Item = u32>) -> u32 {
    units.fold(BASIS_64_LOW, |h, x| h.wrapping_mul(PRIME_64_LOW) ^ x)
}

/// Low 32 bits of FNV-1a with the 64-bit basis and prime (libhashkit computes it in 32 bits).
#[inline]
pub fn fnv1a_64(units: impl Iterator<Item = u32>) -> u32 {
    units.fold(BASIS_64_LOW, |h, x| (h ^ x).wrapping_mul(PRIME_64_LOW))
}

#[cfg(test)]
mod tests {
    use super::super::units::{signed_bytes, unsigned_bytes};
    use super::*;
    use core::hash::Hasher;

    #[test]
    fn known_answers() {
        assert_eq!(fnv1_64(signed_bytes(b"apple")), 473_199_127);
        assert_eq!(fnv1a_64(signed_bytes(b"apple")), 1_488_911_807);
        assert_eq!(fnv1_32(signed_bytes(b"apple")), 67_176_023);
        assert_eq!(fnv1a_32(signed_bytes(b"apple")), 280_767_167);
        let ete = "été".as_bytes();
        assert_eq!(fnv1a_32(signed_bytes(ete)), 200_187_927);
        assert_eq!(fnv1a_32(unsigned_bytes(ete)), 4_290_086_935);
        assert_eq!(fnv1_64(signed_bytes(ete)), 3_995_086_359);
        assert_eq!(fnv1_64(unsigned_bytes(ete)), 3_487_848_983);
        // From the state 0 (Enyim): "a" is 0x61 times the prime.
        assert_eq!(
            fnv1a_32_from(0, unsigned_bytes(b"a")),
            0x61u32.wrapping_mul(PRIME_32)
        );
        assert_eq!(fnv1a_32_from(0, unsigned_bytes(b"")), 0);
        // The standard test vectors (isthe.com test_fnv.c) from the basis.
        assert_eq!(fnv1a_32(unsigned_bytes(b"foobar")), 0xbf9c_f968);
        assert_eq!(fnv1a_32(unsigned_bytes(b"")), 0x811c_9dc5);
    }

    #[test]
    fn low_word_of_real_fnv1a_64() {
        // The `fnv` crate computes the genuine 64-bit FNV-1a over unsigned bytes.
        for key in [&b""[..], b"apple", b"\xff\x80 key", "日本語".as_bytes()] {
            let mut h = fnv::FnvHasher::default();
            h.write(key);
            assert_eq!(fnv1a_64(unsigned_bytes(key)), h.finish() as u32);
        }
    }
}
