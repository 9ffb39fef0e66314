//! The bucket hashes of Java `com.whalin:Memcached-Java-Client` (3.0.2 `SchoonerSockIOPool`)
//! that do not fit a u32: they are signed Java `long`s, reduced with Java's `%` and then negated
//! when negative (`getBucket`). memjs (npm) reduces `Math.abs(hashCode)` the same way.
//!
//! Both read the UTF-16 code units of the key (see [`super::units::utf16_units`]).

use super::units::utf16_units;

/// Java `String.hashCode()` of the key (UTF-16 units), as the signed 32-bit value
/// (`NATIVE_HASH`, memjs `hashCode`).
pub fn java_hash_code(key: &[u8]) -> i32 {
    super::java::native(utf16_units(key)) as i32
}

/// whalin `OLD_COMPAT_HASH` (`origCompatHashingAlg`): `h = 33 * h + unit` over the UTF-16 units
/// in a wrapping signed 64-bit `long`, starting at 0.
pub fn old_compat(key: &[u8]) -> i64 {
    utf16_units(key).fold(0i64, |h, u| h.wrapping_mul(33).wrapping_add(i64::from(u)))
}

/// whalin's reduction of a bucket hash: Java `h % n`, negated when negative (`getBucket`), so
/// `|h| mod n` computed without overflow (also for `i64::MIN`). `None` when `n == 0`.
pub fn bucket(h: i64, n: u64) -> Option<u64> {
    if n == 0 {
        return None;
    }
    Some(h.unsigned_abs() % n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_values() {
        // "polygenelubricants".hashCode() == Integer.MIN_VALUE (well known)
        assert_eq!(java_hash_code(b"polygenelubricants"), i32::MIN);
        assert_eq!(java_hash_code(b"hello"), 99_162_322);
        // 33 * 'a' + 'b' = 33 * 97 + 98
        assert_eq!(old_compat(b"ab"), 3_299);
        // abs(-2^31) % 7 = 2^31 % 7 = 2
        assert_eq!(bucket(i64::from(i32::MIN), 7), Some(2));
        assert_eq!(bucket(i64::MIN, 10), Some(8));
        assert_eq!(bucket(-3, 0), None);
    }
}
