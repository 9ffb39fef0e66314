//! LSD radix sort of `u64` sort keys (a fresh build's canonical order, see
//! [`super::order::sort_key`]): six passes of 11 bits, a pass skipped when every key has the
//! same digit there (the tie half of the key uses few bits). Linear time.

use alloc::vec;
use alloc::vec::Vec;

const BITS: usize = 11;
const BUCKETS: usize = 1 << BITS;
const PASSES: usize = 64usize.div_ceil(BITS);

/// Below this many keys a comparison sort is faster than clearing the histograms.
const SMALL: usize = 512;

/// Sorts `keys` ascending.
pub(super) fn sort(keys: &mut Vec<u64>) {
    if keys.len() < SMALL {
        keys.sort_unstable();
        return;
    }
    let digit = |k: u64, p: usize| ((k >> (p * BITS)) as usize) & (BUCKETS - 1);
    // All histograms in one read pass.
    let mut counts = vec![[0u32; BUCKETS]; PASSES];
    for &k in keys.iter() {
        for (p, c) in counts.iter_mut().enumerate() {
            c[digit(k, p)] += 1;
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
            super::sort(&mut v);
            prop_assert_eq!(v, want);
        }
    }

    #[test]
    fn large_and_duplicated() {
        let mut v: Vec<u64> = (0..100_000u64)
            .map(|i| (((i * 2_654_435_761) % 5_000) << 32) | (i % 7))
            .collect();
        let mut want = v.clone();
        want.sort_unstable();
        super::sort(&mut v);
        assert_eq!(v, want);
    }
}
