//! LSD radix sort of `u64` sort keys (a fresh build's canonical order, see
//! [`super::search::sort_key`]): a key is a 32-bit position over a 32-bit tie half that
//! spans few values (a server rank). The keys are first packed: the tie half, less its
//! smallest value, is narrowed to the bits it needs (10 for 1,000 servers, 14 for 10,000)
//! under the position, and sorted in as few passes of at most 12 bits as cover that (4
//! for both, instead of 6 passes of 11 bits over the whole key); a pass is also skipped
//! when every key has the same digit there. Linear time. The sorted keys stay
//! packed: [`Packed`] reads the two halves back.

use alloc::vec;
use alloc::vec::Vec;

/// The widest digit: 4,096 counters per pass (16 KiB, within L1/L2).
const MAX_BITS: usize = 12;

/// Below this many keys a comparison sort is faster than clearing the histograms.
const SMALL: usize = 512;

/// How sorted keys were packed: `position << shift | (tie - base)`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Packed {
    shift: u32,
    base: u32,
}

impl Packed {
    /// The key's high half (the position).
    #[inline]
    pub(super) fn high(self, k: u64) -> u32 {
        (k >> self.shift) as u32
    }

    /// The key's low half (the tie half, as [`super::search::sort_key`] made it).
    #[inline]
    pub(super) fn low(self, k: u64) -> u32 {
        let mask = (1u64 << self.shift) - 1;
        ((k & mask) as u32).wrapping_add(self.base)
    }
}

/// Sorts `keys` ascending by (high half, low half), leaving them packed (read them with the
/// returned [`Packed`]).
pub(super) fn sort(keys: &mut Vec<u64>) -> Packed {
    let (mut min, mut max) = (u32::MAX, 0u32);
    for &k in keys.iter() {
        min = min.min(k as u32);
        max = max.max(k as u32);
    }
    if keys.is_empty() {
        min = 0;
    }
    let shift = 32 - (max.wrapping_sub(min)).leading_zeros();
    let packed = Packed { shift, base: min };
    // Packs in place (order-preserving: the tie half only loses its constant offset).
    let pack = |k: u64| ((k >> 32) << shift) | u64::from((k as u32).wrapping_sub(min));
    if keys.len() < SMALL {
        for k in keys.iter_mut() {
            *k = pack(*k);
        }
        keys.sort_unstable();
        return packed;
    }
    // As few passes as digits of at most MAX_BITS cover the packed key, equally wide.
    let width = 32 + shift as usize;
    let passes = width.div_ceil(MAX_BITS);
    let bits = width.div_ceil(passes);
    let mask = (1usize << bits) - 1;
    let digit = |k: u64, p: usize| ((k >> (p * bits)) as usize) & mask;
    // Packing and all histograms in one pass.
    let mut counts = vec![vec![0u32; mask + 1]; passes];
    for k in keys.iter_mut() {
        *k = pack(*k);
        for (p, c) in counts.iter_mut().enumerate() {
            c[digit(*k, p)] += 1;
        }
    }
    let n = keys.len();
    let mut src = core::mem::take(keys);
    let mut dst = vec![0u64; n];
    for (p, c) in counts.iter_mut().enumerate() {
        if c.iter().any(|&x| x as usize == n) {
            continue;
        }
        let mut sum = 0u32;
        for x in c.iter_mut() {
            let here = *x;
            *x = sum;
            sum += here;
        }
        for &k in &src {
            let d = digit(k, p);
            dst[c[d] as usize] = k;
            c[d] += 1;
        }
        core::mem::swap(&mut src, &mut dst);
    }
    *keys = src;
    packed
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use std::vec::Vec;

    proptest! {
        #[test]
        fn sorts_like_sort_unstable(mut v in proptest::collection::vec(any::<u64>(), 0..3000), small in any::<bool>()) {
            // Keys shaped like sort keys (few tie bits) as well as arbitrary ones.
            if small {
                for k in v.iter_mut() {
                    *k = (*k & 0xFFFF_FFFF_0000_0000) | (*k & 0x3FF);
                }
            }
            let mut want = v.clone();
            want.sort_unstable();
            let packed = super::sort(&mut v);
            let got: Vec<u64> = v.iter().map(|&k| (u64::from(packed.high(k)) << 32) | u64::from(packed.low(k))).collect();
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn large_and_duplicated() {
        let mut v: Vec<u64> = (0..100_000u64)
            .map(|i| (((i * 2_654_435_761) % 5_000) << 32) | (i % 7))
            .collect();
        let mut want = v.clone();
        want.sort_unstable();
        let packed = super::sort(&mut v);
        let got: Vec<u64> = v
            .iter()
            .map(|&k| (u64::from(packed.high(k)) << 32) | u64::from(packed.low(k)))
            .collect();
        assert_eq!(got, want);
    }
}
