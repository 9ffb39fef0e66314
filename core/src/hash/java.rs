//! Hashes only the Java clients have, over UTF-16 code units (see [`super::units::utf16_units`]).

/// `String.hashCode()` reinterpreted as u32 (spymemcached/xmemcached `NATIVE_HASH`).
#[inline]
pub fn native(units: impl Iterator<Item = u32>) -> u32 {
    units.fold(0u32, |h, u| h.wrapping_mul(31).wrapping_add(u))
}

/// xmemcached `MYSQL_HASH` (starts at 0, so not MySQL's own function).
#[inline]
pub fn mysql(units: impl Iterator<Item = u32>) -> u32 {
    let mut k = 4u32;
    units.fold(0u32, |h, u| {
        let next = h ^ ((h & 63).wrapping_add(k).wrapping_mul(u)).wrapping_add(h << 8);
        k = k.wrapping_add(3);
        next
    })
}

/// xmemcached `ELF_HASH` (values below 2^28).
#[inline]
pub fn elf(units: impl Iterator<Item = u32>) -> u32 {
    units.fold(0u32, |h, u| {
        let mut h = (h << 4).wrapping_add(u);
        let g = h & 0xF000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h & !g
    }) & 0x7FFF_FFFF
}

/// xmemcached `RS_HASH` (Robert Sedgewick's).
#[inline]
pub fn rs(units: impl Iterator<Item = u32>) -> u32 {
    let mut a = 63_689u32;
    units.fold(0u32, |h, u| {
        let next = h.wrapping_mul(a).wrapping_add(u);
        a = a.wrapping_mul(378_551);
        next
    }) & 0x7FFF_FFFF
}

/// xmemcached `LUA_HASH`: Lua's string hash in signed 64-bit arithmetic, reading every
/// `step`-th unit from the end. Only about 32 units are ever read, so they are kept on the
/// stack in a first pass and folded backwards in a second: no allocation for any length.
pub fn lua<I: Iterator<Item = u32> + Clone>(units: I) -> u32 {
    let n = units.clone().count() as u64;
    let step = (n >> 5) + 1;
    let mut picked = [0u32; 40];
    let mut count = 0usize;
    // The loop reads indexes i-1 for i = n, n-step, ... while i >= step.
    for (j, u) in units.enumerate() {
        let i = j as u64 + 1;
        if i >= step && (n - i) % step == 0 && count < picked.len() {
            picked[count] = u;
            count += 1;
        }
    }
    let mut h = n as i64;
    for &u in picked[..count].iter().rev() {
        h ^= (h << 5).wrapping_add(h >> 2).wrapping_add(i64::from(u));
    }
    h as u32
}

#[cfg(test)]
mod tests {
    use super::super::units::utf16_units;
    use super::*;

    #[test]
    fn known_answers() {
        let u = |s: &'static str| utf16_units(s.as_bytes());
        assert_eq!(native(u("hello world!")), 4_077_680_093);
        assert_eq!(mysql(u("hello world!")), 2_036_609_855);
        assert_eq!(elf(u("hello world!")), 21_676_401);
        assert_eq!(rs(u("hello world!")), 1_353_327_565);
        assert_eq!(lua(u("hello world!")), 843_468_207);
        assert_eq!(native(u("café")), 3_045_921);
        assert_eq!(lua(u("emoji😀x")), 2_942_944_915);
        assert_eq!(mysql(u("emoji😀x")), 2_638_304_199);
        assert_eq!(elf(u("emoji😀x")), 88_517_560);
        assert_eq!(rs(u("emoji😀x")), 1_110_486_855);
    }
}
