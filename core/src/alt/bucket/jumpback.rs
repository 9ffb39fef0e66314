//! Ertl's JumpBackHash ("JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys
//! Uniformly to Buckets", Software: Practice and Experience 55.3, 2025) as hash4j ships it:
//! `ConsistentHashing.jumpBackHash(PseudoRandomGeneratorProvider.splitMix64_V1())`.
//!
//! The walk goes backwards: the low bits of one 64-bit random value pick, among the power-of-two
//! ranges `[2^k, 2^(k+1))` below the bucket count, the highest one whose bucket is "active";
//! only the top range, which may stick out past the bucket count, ever needs further draws.
//! Expected constant time, no floating point.

/// SplitMix64 as hash4j's `SplitMix64V1` steps it: add the golden gamma, then mix. The state
/// is the generator's seed (`reset(seed)`).
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// hash4j's `nextLong()`.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// hash4j's bucket for `input` in `0..buckets`; `buckets` must be in `1..=i32::MAX` (the
/// caller, [`super::bucket`], checks it).
pub fn jumpback(input: u64, buckets: u32) -> u32 {
    if buckets <= 1 {
        return 0;
    }
    walk(&mut SplitMix64(input), buckets)
}

/// The walk itself on a generator already seeded, leaving it where hash4j's leaves it (its
/// `ConsistentJumpBackBucketHasher.getBucket(int, PseudoRandomGenerator)`); `buckets >= 2`.
pub(crate) fn walk(rng: &mut SplitMix64, buckets: u32) -> u32 {
    let r0 = rng.next();
    // One bit per power-of-two range below `buckets`: bit k set = range [2^k, 2^(k+1)) is hit.
    let mut active = ((r0 ^ (r0 >> 32)) as u32) & (u32::MAX >> (buckets - 1).leading_zeros());
    while active != 0 {
        let range_min = 1u32 << (31 - active.leading_zeros());
        // hash4j shifts by `bitCount << 5` as a Java long shift (mod 64): 0 or 32 bits.
        let shift = (active.count_ones() << 5) & 63;
        let candidate = range_min + ((r0 >> shift) as u32 & (range_min - 1));
        if candidate < buckets {
            return candidate;
        }
        let range_max = (range_min << 1) - 1;
        'draws: loop {
            let r1 = rng.next();
            for half in [r1 as u32, (r1 >> 32) as u32] {
                let candidate = half & range_max;
                if candidate < range_min {
                    break 'draws;
                }
                if candidate < buckets {
                    return candidate;
                }
            }
        }
        active ^= range_min;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::jumpback;

    #[test]
    fn only_moves_to_the_new_bucket() {
        for key in 0..2_000u64 {
            let key = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut prev = 0;
            for n in 1..200u32 {
                let b = jumpback(key, n);
                assert!(b < n);
                assert!(b == prev || b == n - 1, "key {key} n {n}");
                prev = b;
            }
        }
    }
}
