//! The version of a key's value: the first 64 bits of the SHA-1 of its `DUMP` payload. The
//! scripts compute it on the server (`redis.sha1hex`), this machine from a payload it read:
//! both the same number. Never 0 (which means "unknown" to callers): a digest whose first 64
//! bits are all zero counts as 1 (the scripts then see a different digest and leave the key
//! alone: the safe side, with a chance of 2^-64).

use sha1::{Digest, Sha1};

/// The version of `payload`.
pub fn of_payload(payload: &[u8]) -> u64 {
    let d = Sha1::digest(payload);
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    nonzero(u64::from_be_bytes(first))
}

/// The version of a `redis.sha1hex` digest (40 lowercase hex digits); `None` when it is
/// not one.
pub fn of_hex(hex: &[u8]) -> Option<u64> {
    if hex.len() != 40 || !hex.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let s = std::str::from_utf8(&hex[..16]).ok()?;
    u64::from_str_radix(s, 16).ok().map(nonzero)
}

/// The 16 hex digits the scripts compare with the start of `redis.sha1hex`.
pub fn hex(version: u64) -> String {
    format!("{version:016x}")
}

fn nonzero(v: u64) -> u64 {
    if v == 0 {
        1
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_and_hex_agree() {
        // SHA-1("abc") = a9993e364706816aba3e25717850c26c9cd0d89d
        assert_eq!(of_payload(b"abc"), 0xa9993e364706816a);
        assert_eq!(
            of_hex(b"a9993e364706816aba3e25717850c26c9cd0d89d"),
            Some(0xa9993e364706816a)
        );
        assert_eq!(hex(0xa9993e364706816a), "a9993e364706816a");
        assert_eq!(hex(1), "0000000000000001");
        assert_eq!(of_hex(b"0000000000000000aba3e25717850c26c9cd0d89"), Some(1));
        assert_eq!(of_hex(b"xyz"), None);
    }
}
