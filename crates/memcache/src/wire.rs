//! The bytes of reply and listing lines: numbers and flags read straight from the bytes (no
//! text conversion, no allocation), numbers written, base64 (how binary keys travel).

/// Standard base64 (RFC 4648, with padding): how `b`-flagged keys travel.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(char::from(A[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// An unsigned decimal number: digits only, no sign, no overflow.
pub fn dec(b: &[u8]) -> Option<u64> {
    if b.is_empty() || b.len() > 20 {
        return None;
    }
    b.iter().try_fold(0u64, |n, &d| {
        if d.is_ascii_digit() {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        } else {
            None
        }
    })
}

/// A decimal number with an optional `-`.
pub fn signed(b: &[u8]) -> Option<i64> {
    match b.strip_prefix(b"-") {
        Some(d) => dec(d).and_then(|n| 0i64.checked_sub_unsigned(n)),
        None => dec(b).and_then(|n| i64::try_from(n).ok()),
    }
}

/// The text after flag letter `f` in the flags of a reply line (`HD c12 t-1`: `c` is `12`).
pub fn flag(flags: &[u8], f: u8) -> Option<&[u8]> {
    flags
        .split(|&b| b == b' ')
        .find(|t| t.first() == Some(&f))
        .map(|t| &t[1..])
}

/// Appends `n` in decimal.
pub fn push_num(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut m = n.unsigned_abs();
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0, 1, 2]), "AAEC");
        assert_eq!(base64(&[0xff, 0xfe]), "//4=");
    }

    #[test]
    fn numbers_and_flags() {
        assert_eq!(dec(b"0"), Some(0));
        assert_eq!(dec(b"18446744073709551615"), Some(u64::MAX));
        for bad in [
            &b""[..],
            b"18446744073709551616",
            b"+1",
            b"-1",
            b"1a",
            b" 1",
        ] {
            assert_eq!(dec(bad), None, "{bad:?}");
        }
        assert_eq!(signed(b"-1"), Some(-1));
        assert_eq!(signed(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(signed(b"9223372036854775808"), None);
        assert_eq!(signed(b"--1"), None);
        assert_eq!(flag(b"f7 t-1 c42", b't'), Some(&b"-1"[..]));
        assert_eq!(flag(b"f7 t-1 c42", b'c'), Some(&b"42"[..]));
        assert_eq!(flag(b"f7", b'c'), None);
        for n in [0, 7, -1, 10, i64::MAX, i64::MIN, 2_592_000] {
            let mut out = Vec::new();
            push_num(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}
