//! Lamping & Veach, "A Fast, Minimal Memory, Consistent Hash Algorithm" (2014).

/// The bucket in `0..buckets` for `key`; 0 when `buckets` is 0.
pub fn jump(mut key: u64, buckets: u32) -> u32 {
    let mut b: i64 = -1;
    let mut j: i64 = 0;
    while j < i64::from(buckets) {
        b = j;
        key = key.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
        let r = ((key >> 33) + 1) as f64;
        j = ((b + 1) as f64 * ((1u64 << 31) as f64 / r)) as i64;
    }
    b.max(0) as u32
}

#[cfg(test)]
mod tests {
    use super::jump;

    #[test]
    fn moves_about_one_nth() {
        let moved = (0..10_000u64)
            .filter(|&k| {
                jump(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 10)
                    != jump(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 11)
            })
            .count();
        assert!((600..1300).contains(&moved), "{moved}");
        // Keys only ever move to the new bucket.
        assert!((0..10_000u64).all(|k| {
            let (a, b) = (jump(k, 10), jump(k, 11));
            a == b || b == 10
        }));
    }
}
