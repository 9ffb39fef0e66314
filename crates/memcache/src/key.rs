//! Which keys memcached can hold, and how a key travels: as it is in the text protocol, in
//! base64 in the meta protocol when it has bytes the text protocol cannot carry, `%`-encoded
//! in a metadump.

use crate::wire::base64;

/// Whether a key can be sent in the text protocol (and so whether memcached can hold it):
/// 1 to 250 bytes, no space or control byte.
pub fn key_ok(key: &[u8]) -> bool {
    !key.is_empty() && key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f)
}

/// Whether the meta protocol can name `key`: as it is, or in base64 (the server limits the
/// token, encoded or not, to 250 bytes: binary keys up to 186 bytes, whose base64 is 248;
/// 187 bytes take 252).
pub fn sendable(key: &[u8]) -> bool {
    key_ok(key) || (!key.is_empty() && key.len().div_ceil(3) * 4 <= 250)
}

/// Appends the key as a meta request token: itself when the text protocol carries it, else
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

/// memcached's `uriencode` reversed: `%XX` (two hex digits) is a byte, everything else is
/// itself.
pub fn uri_decode(s: &[u8]) -> Option<Vec<u8>> {
    fn hex(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' {
            let hi = hex(*s.get(i + 1)?)?;
            let lo = hex(*s.get(i + 2)?)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_the_protocol_carries() {
        assert!(key_ok(b"user:1"));
        assert!(key_ok("caf\u{e9}".as_bytes()));
        assert!(key_ok(&[b'k'; 250]));
        assert!(!key_ok(&[b'k'; 251]));
        assert!(!key_ok(b""));
        assert!(!key_ok(b"a b"));
        assert!(!key_ok(b"a\tb"));
        assert!(!key_ok(b"a\x7f"));
    }

    #[test]
    fn keys_the_text_protocol_cannot_carry_travel_in_base64() {
        let mut out = Vec::new();
        assert!(!key_token(b"user:1", &mut out));
        assert_eq!(out, b"user:1");
        out.clear();
        assert!(key_token(b"a b", &mut out));
        assert_eq!(out, b"YSBi");
        assert!(sendable(&[0; 186]));
        assert!(!sendable(&[0; 187]));
        assert!(!sendable(b""));
    }

    #[test]
    fn percent_escapes() {
        assert_eq!(uri_decode(b"a%25b%00").unwrap(), b"a%b\0");
        assert!(uri_decode(b"ab%2").is_none());
        assert!(uri_decode(b"ab%zz").is_none());
    }
}
