//! How a client widens the elements of a key before hashing them.
//!
//! C clients read keys through `const char *`: on x86 a byte >= 0x80 is sign-extended
//! ([`signed_bytes`]); ARM and PowerPC builds read it unsigned ([`unsigned_bytes`]). Java clients
//! hash the UTF-16 code units of a `String` ([`utf16_units`]).

/// Bytes widened as x86 `char` (signed): `0x80..=0xFF` become `0xFFFFFF80..=0xFFFFFFFF`.
#[inline]
pub fn signed_bytes(key: &[u8]) -> impl Iterator<Item = u32> + '_ {
    key.iter().map(|&b| b as i8 as i32 as u32)
}

/// Bytes widened as `unsigned char`.
#[inline]
pub fn unsigned_bytes(key: &[u8]) -> impl Iterator<Item = u32> + '_ {
    key.iter().map(|&b| u32::from(b))
}

/// The UTF-16 code units of the string whose UTF-8 encoding is `key`, as Java's
/// `new String(bytes, UTF_8)` would decode it: each malformed sequence becomes one U+FFFD.
/// Characters outside the BMP give two units (a surrogate pair). Allocates nothing.
#[inline]
pub fn utf16_units(key: &[u8]) -> impl Iterator<Item = u32> + Clone + '_ {
    key.utf8_chunks().flat_map(|chunk| {
        let bad = if chunk.invalid().is_empty() {
            None
        } else {
            Some(0xFFFD_u32)
        };
        chunk.valid().encode_utf16().map(u32::from).chain(bad)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension() {
        let v: [u32; 2] = [0x7f, 0x80].map(|b| signed_bytes(&[b]).next().unwrap_or(0));
        assert_eq!(v, [0x7f, 0xFFFF_FF80]);
    }

    #[test]
    fn surrogate_pairs_and_replacement() {
        let units: [u32; 4] = {
            let mut it = utf16_units("é😀".as_bytes());
            [it.next(), it.next(), it.next(), it.next()].map(|u| u.unwrap_or(0))
        };
        assert_eq!(units, [0xE9, 0xD83D, 0xDE00, 0]);
        let v: std::vec::Vec<u32> = utf16_units(&[b'a', 0xFF, b'b']).collect();
        assert_eq!(v, [0x61, 0xFFFD, 0x62]);
    }
}
