//! Integers in decimal, as `{}` writes them, without the formatter: the try numbers and point
//! indexes that clients put into the strings they hash.

use alloc::vec::Vec;

/// The decimal digits of a `u64` (at most 20), held on the stack.
pub(crate) struct Decimal {
    digits: [u8; 20],
    start: usize,
}

impl Decimal {
    /// The digits of `n`.
    pub(crate) fn new(mut n: u64) -> Decimal {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Decimal { digits, start }
    }

    /// The digits, most significant first.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.digits[self.start..]
    }
}

/// Appends `n` in decimal.
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(Decimal::new(n).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_as_the_formatter_writes_them() {
        for n in [0, 7, 10, 99, 160, 4_294_967_295, u64::MAX] {
            assert_eq!(Decimal::new(n).as_bytes(), alloc::format!("{n}").as_bytes());
        }
        let mut out = b"k-".to_vec();
        push_decimal(&mut out, 42);
        assert_eq!(out, b"k-42");
    }
}
