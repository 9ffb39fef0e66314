//! DataDog's FlipHash (Masson & Lee, "FlipHash: A Constant-Time Consistent Range-Hashing
//! Algorithm", 2024) as the `fliphash` crate's `fliphash_64(key, ..=range_end)` with seed 0.
//!
//! A key first lands in the power-of-two range that covers the bucket count; inside it, a
//! per-level hash "flips" the key to the upper half of its level or leaves it in the lower one.
//! When it lands past the last bucket, up to 64 fresh draws in the top level are tried, and
//! failing those the key falls back to the level below. Constant time, integer only.

/// The crate's keyed mixer: seed 0, then multipliers keyed by the level (`bit_len`) and the
/// draw number.
fn mix(key: u64, bit_len: u32, draw: u32) -> u64 {
    let mut k = key.wrapping_mul(u64::from(bit_len) * 2 + 1);
    k = (k ^ (k >> 27)).wrapping_mul(0x3C79_AC49_2BA7_B653);
    k = k.wrapping_mul(u64::from(draw) * 2 + 1);
    k = (k ^ (k >> 33)).wrapping_mul(0x1C69_B3F7_4AC4_AE35);
    k ^ (k >> 27)
}

/// The answer for a power-of-two range `0..=mask`, given the key's level-0 hash.
fn within_pow2(key: u64, hash: u64, mask: u64) -> u64 {
    let masked = hash & mask;
    if masked == 0 {
        return 0;
    }
    let level = masked.ilog2();
    // Keep the level's top bit, flip the bits below it.
    let flipper = mix(key, level, 0) & ((1u64 << level) - 1);
    masked ^ flipper
}

/// Draws tried in the top level before falling back to the level below.
const MAX_DRAWS: u32 = 64;

/// FlipHash's bucket for `input` in `0..buckets`; `buckets` must be at least 1 (the caller,
/// [`super::bucket`], checks it).
pub fn fliphash(input: u64, buckets: u32) -> u32 {
    let end = u64::from(buckets.saturating_sub(1));
    if end == 0 {
        return 0;
    }
    let mask = u64::MAX >> end.leading_zeros();
    let hash = mix(input, 0, 0);
    let first = within_pow2(input, hash, mask);
    if first <= end {
        return first as u32;
    }
    let level = end.ilog2();
    for draw in 1..=MAX_DRAWS {
        let candidate = mix(input, level, draw) & mask;
        if candidate <= mask >> 1 {
            break;
        }
        if candidate <= end {
            return candidate as u32;
        }
    }
    within_pow2(input, hash, mask >> 1) as u32
}

#[cfg(test)]
mod tests {
    use super::fliphash;

    #[test]
    fn monotone() {
        let key = 10_427_592_028_180_905_159;
        let mut prev = 0;
        for n in 1..1000u32 {
            let b = fliphash(key, n);
            assert!(b == prev || b == n - 1);
            prev = b;
        }
    }
}
