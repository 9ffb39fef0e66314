//! SipHash-2-4 (Aumasson & Bernstein, 2012) with a 128-bit key given as two 64-bit halves, the
//! way Go's `github.com/dchest/siphash.Hash(k0, k1, b)` takes it. Both Go bucket functions
//! (`maglev-go`, `mpchash-go`) hash their names and keys with it.

const C0: u64 = 0x736f_6d65_7073_6575;
const C1: u64 = 0x646f_7261_6e64_6f6d;
const C2: u64 = 0x6c79_6765_6e65_7261;
const C3: u64 = 0x7465_6462_7974_6573;

struct State([u64; 4]);

impl State {
    fn round(&mut self) {
        let [a, b, c, d] = &mut self.0;
        *a = a.wrapping_add(*b);
        *b = b.rotate_left(13) ^ *a;
        *a = a.rotate_left(32);
        *c = c.wrapping_add(*d);
        *d = d.rotate_left(16) ^ *c;
        *a = a.wrapping_add(*d);
        *d = d.rotate_left(21) ^ *a;
        *c = c.wrapping_add(*b);
        *b = b.rotate_left(17) ^ *c;
        *c = c.rotate_left(32);
    }

    /// Two compression rounds over one little-endian message word.
    fn absorb(&mut self, word: u64) {
        self.0[3] ^= word;
        self.round();
        self.round();
        self.0[0] ^= word;
    }
}

/// SipHash-2-4 of `data` under the key `(k0, k1)`.
pub fn siphash24(k0: u64, k1: u64, data: &[u8]) -> u64 {
    let mut s = State([k0 ^ C0, k1 ^ C1, k0 ^ C2, k1 ^ C3]);
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        s.absorb(u64::from_le_bytes(b));
    }
    // Last word: the remaining bytes, little-endian, with the length's low byte on top.
    let mut last = (data.len() as u64 & 0xff) << 56;
    for (i, &byte) in words.remainder().iter().enumerate() {
        last |= u64::from(byte) << (8 * i);
    }
    s.absorb(last);
    s.0[2] ^= 0xff;
    for _ in 0..4 {
        s.round();
    }
    s.0[0] ^ s.0[1] ^ s.0[2] ^ s.0[3]
}

#[cfg(test)]
mod tests {
    use super::siphash24;

    /// The reference paper's test vector (key 00..0f, message 00..0e, Appendix A).
    #[test]
    fn paper_vector() {
        let k0 = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
        let k1 = u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]);
        let msg: [u8; 15] = core::array::from_fn(|i| i as u8);
        assert_eq!(siphash24(k0, k1, &msg), 0xa129_ca61_49be_45e5);
    }

    /// Agrees with the standard library's (deprecated, still SipHash-2-4) hasher on every
    /// length around the word boundaries.
    #[test]
    #[allow(deprecated)]
    fn matches_core_siphasher() {
        use core::hash::{Hasher, SipHasher};
        let data: [u8; 40] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        for len in 0..data.len() {
            for (k0, k1) in [(0, 0), (1, 0), (2, 0), (0xdead_beef_cafe_babe, 0), (7, 9)] {
                let mut h = SipHasher::new_with_keys(k0, k1);
                h.write(&data[..len]);
                assert_eq!(siphash24(k0, k1, &data[..len]), h.finish(), "len {len}");
            }
        }
    }
}
