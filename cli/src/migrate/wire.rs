//! The bytes of the meta protocol and of `lru_crawler metadump` lines: key tokens (as they
//! are, or base64) and the fields of metadump and reply lines, read straight from the bytes
//! (no text conversion, no allocation but the key; keys `%`-decoded by the memcache client's
//! `uri_decode`).

use crate::memcache::{key_ok, uri_decode};

use super::meta::Listed;

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

/// Parses a metadump line `key=<uri> exp=<t> la=.. cas=<n> fetch=.. cls=.. size=<n>`.
pub fn parse_metadump(l: &[u8]) -> Option<Listed> {
    let mut it = l.split(|&b| b == b' ');
    let key = uri_decode(it.next()?.strip_prefix(b"key=")?)?;
    let mut item = Listed {
        key,
        exp: -1,
        cas: 0,
        size: 0,
    };
    for f in it {
        if let Some(v) = f.strip_prefix(b"exp=") {
            item.exp = signed(v)?;
        } else if let Some(v) = f.strip_prefix(b"cas=") {
            item.cas = dec(v)?;
        } else if let Some(v) = f.strip_prefix(b"size=") {
            item.size = dec(v)?;
        }
    }
    Some(item)
}

/// Whether the meta protocol can name `key`: as it is, or in base64 (the server limits the
/// token, encoded or not, to 250 bytes: binary keys up to 187 bytes).
pub fn sendable(key: &[u8]) -> bool {
    key_ok(key) || (!key.is_empty() && key.len().div_ceil(3) * 4 <= 250)
}

/// Appends the key as a request token: itself when the text protocol carries it, else
/// base64; `true` when the `b` flag must be added.
pub fn key_token(key: &[u8], out: &mut Vec<u8>) -> bool {
    if key_ok(key) {
        out.extend_from_slice(key);
        false
    } else {
        out.extend_from_slice(base64(key).as_bytes());
        true
    }
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
    fn metadump_lines_parse() {
        let l = b"key=a%25b%00 exp=1796154051 la=1796153951 cas=2 fetch=no cls=1 size=68";
        let it = parse_metadump(l).unwrap();
        assert_eq!(it.key, b"a%b\0");
        assert_eq!((it.exp, it.cas, it.size), (1796154051, 2, 68));
        let never = parse_metadump(b"key=k exp=-1 la=1 cas=9 fetch=no cls=1 size=66").unwrap();
        assert_eq!(never.exp, -1);
        assert!(parse_metadump(b"key=ab%2 exp=1").is_none());
        assert!(parse_metadump(b"key=ab%+1 exp=1").is_none());
        assert!(parse_metadump(b"exp=1").is_none());
        assert!(parse_metadump(b"key=k exp=x").is_none());
        assert!(parse_metadump(b"key=k cas=+1").is_none());
        assert!(parse_metadump(b"key=k size=99999999999999999999999").is_none());
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

    #[test]
    fn keys_the_text_protocol_cannot_carry_travel_in_base64() {
        let mut out = Vec::new();
        assert!(!key_token(b"user:1", &mut out));
        assert_eq!(out, b"user:1");
        out.clear();
        assert!(key_token(b"a b", &mut out));
        assert_eq!(out, b"YSBi");
    }
}
