//! Bob Jenkins' one-at-a-time hash, libmemcached's default (`HASHKIT_HASH_DEFAULT`).

/// One-at-a-time over the given elements (signed bytes in C on x86, unsigned bytes in
/// xmemcached's `ONE_AT_A_TIME`).
#[inline]
pub fn one_at_a_time(units: impl Iterator<Item = u32>) -> u32 {
    let mut h = units.fold(0u32, |mut h, x| {
        h = h.wrapping_add(x);
        h = h.wrapping_add(h << 10);
        h ^ (h >> 6)
    });
    h = h.wrapping_add(h << 3);
    h ^= h >> 11;
    h.wrapping_add(h << 15)
}

#[cfg(test)]
mod tests {
    use super::super::units::{signed_bytes, unsigned_bytes};
    use super::*;

    #[test]
    fn known_answers() {
        assert_eq!(one_at_a_time(signed_bytes(b"apple")), 2_297_466_611);
        assert_eq!(one_at_a_time(signed_bytes("été".as_bytes())), 2_144_029_493);
        assert_eq!(
            one_at_a_time(unsigned_bytes("été".as_bytes())),
            1_191_034_661
        );
    }
}
