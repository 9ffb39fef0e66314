//! SHA-1 as Ruby Dalli's ring uses it (`Digest::SHA1.hexdigest("host:port:i")[0..7]` read as hex):
//! the big-endian u32 of digest bytes 0..4. The digest itself comes from RustCrypto's `sha1`.

use sha1::{Digest, Sha1};

/// The full 20-byte SHA-1 digest of `data`.
pub fn digest(data: &[u8]) -> [u8; 20] {
    Sha1::digest(data).into()
}

/// Big-endian u32 of the first 4 bytes of SHA-1(`data`): Dalli's point value.
///
/// ```
/// use ketama_core::Hash;
/// // the first 8 hex digits of SHA-1("abc") = a9993e36...
/// assert_eq!(Hash::Sha1.hash(b"abc"), 0xa999_3e36);
/// ```
#[inline]
pub fn first_word_be(data: &[u8]) -> u32 {
    let d = digest(data);
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_answers() {
        // FIPS 180 test vectors
        assert_eq!(super::first_word_be(b"abc"), 0xa999_3e36);
        assert_eq!(super::first_word_be(b""), 0xda39_a3ee);
    }
}
