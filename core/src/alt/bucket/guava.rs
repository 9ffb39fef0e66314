//! Guava's `Hashing.consistentHash(long input, int buckets)` (com.google.common.hash).
//!
//! The same jump as Lamping & Veach, but written the Java way, which changes a few answers:
//! - the random step is a `double` in (0, 1] built from `(int) (state >>> 33) + 1` in `int`
//!   arithmetic, so when the top 31 bits are all ones the sum wraps to -2^31 and the step is
//!   -1.0, which ends the walk at once;
//! - the next bucket is `(int) ((candidate + 1) / step)`: one division by the step instead of
//!   the paper's multiplication by `2^31 / (r + 1)`, so the rounding differs (input
//!   2687259751451158933 with 807 buckets: the paper gives 576, Guava 195);
//! - Java's `(int)` cast truncates and saturates (NaN -> 0), which Rust's `as i32` also does.

/// LCG multiplier shared with the paper.
const MULTIPLIER: u64 = 2_862_933_555_777_941_757;

/// Guava's bucket for `input` in `0..buckets`; `buckets` must be in `1..=i32::MAX` (the caller,
/// [`super::bucket`], checks it).
pub fn guava(input: u64, buckets: u32) -> u32 {
    let buckets = buckets as i32;
    let mut state = input;
    let mut candidate: i32 = 0;
    loop {
        state = state.wrapping_mul(MULTIPLIER).wrapping_add(1);
        // `state >>> 33` is below 2^31, so the cast keeps it; the `+ 1` is Java's wrapping add.
        let top = ((state >> 33) as i32).wrapping_add(1);
        let step = f64::from(top) / 2_147_483_648.0;
        let next = (f64::from(candidate + 1) / step) as i32;
        if next >= 0 && next < buckets {
            candidate = next;
        } else {
            return candidate as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::guava;

    /// Guava's own HashingTest golden values
    /// (`testConsistentHash_linearCongruentialGeneratorCompatibility`).
    #[test]
    fn guava_golden_values() {
        let golden100 = [
            0, 55, 62, 8, 45, 59, 86, 97, 82, 59, 73, 37, 17, 56, 86, 21, 90, 37, 38, 83,
        ];
        for (i, &want) in golden100.iter().enumerate() {
            assert_eq!(guava(i as u64, 100), want, "input {i}");
        }
        assert_eq!(guava(10_863_919_174_838_991, 11), 6);
        assert_eq!(guava(2_016_238_256_797_177_309, 11), 3);
        assert_eq!(guava(1_673_758_223_894_951_030, 11), 5);
        assert_eq!(guava(2, 100_001), 80_343);
        assert_eq!(guava(2201, 100_001), 22_152);
        assert_eq!(guava(2202, 100_001), 15_018);
    }

    #[test]
    fn differs_from_the_paper_where_the_issue_says() {
        assert_eq!(guava(2_687_259_751_451_158_933, 807), 195);
        assert_eq!(crate::alt::jump::jump(2_687_259_751_451_158_933, 807), 576);
    }
}
