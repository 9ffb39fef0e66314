//! A Bloom filter of key fingerprints, of a fixed size: it never answers "absent" for a
//! fingerprint inserted, and answers "maybe present" for others at a rate that grows as it
//! fills (with the 3 probes used here, about 1.4% at 11 bits per key, 21% at 3.3).

/// Probes per fingerprint.
const PROBES: u64 = 3;

/// A fixed-size set of fingerprints that may answer "maybe" for one never inserted.
#[derive(Debug)]
pub struct Filter {
    words: Vec<u64>,
    /// Bits, less one (a power of two less one).
    mask: u64,
}

impl Filter {
    /// An empty filter of `bits` bits (rounded up to a power of two, at least 64).
    pub fn new(bits: usize) -> Filter {
        let bits = bits.max(64).next_power_of_two();
        Filter {
            words: vec![0; bits / 64],
            mask: bits as u64 - 1,
        }
    }

    /// Inserts uniformly random `fp`; `true` when it may have been inserted before (every
    /// probe was set), `false` when it certainly was not.
    pub fn insert(&mut self, fp: u64) -> bool {
        // Two halves of the fingerprint give the probes (i-th: h1 + i * h2).
        let h1 = fp;
        let h2 = fp.rotate_left(32) | 1;
        let mut maybe = true;
        for i in 0..PROBES {
            let bit = h1.wrapping_add(i.wrapping_mul(h2)) & self.mask;
            let (w, b) = ((bit / 64) as usize, 1u64 << (bit % 64));
            maybe &= self.words[w] & b != 0;
            self.words[w] |= b;
        }
        maybe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(i: u64) -> u64 {
        let mut x = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    #[test]
    fn never_absent_once_inserted_and_rarely_maybe_when_roomy() {
        let mut f = Filter::new(1 << 16);
        let n = 4000u64; // 16 bits per key
        let fresh_maybe = (0..n).filter(|&i| f.insert(mix(i))).count();
        for i in 0..n {
            assert!(f.insert(mix(i)), "{i} was inserted");
        }
        // Expected about 0.6% at 16 bits per key.
        assert!(
            fresh_maybe < 60,
            "{fresh_maybe} of {n} new keys looked seen"
        );
    }

    #[test]
    fn a_full_filter_says_maybe_but_stays_right_about_inserted_ones() {
        let mut f = Filter::new(0);
        for i in 0..1000 {
            f.insert(mix(i));
        }
        for i in 0..1000 {
            assert!(f.insert(mix(i)));
        }
        assert!(
            (1000..1100).all(|i| f.insert(mix(i))),
            "a full filter says maybe"
        );
    }
}
