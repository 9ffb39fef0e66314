//! pymemcache's pure-Python `murmur3_32(data, seed=0)`: MurmurHash3_x86_32 over the *characters*
//! of a Python `str`, each read as `ord(c) & 0xFF` (so `é` U+00E9 hashes as the byte 0xE9 and
//! `日` U+65E5 as 0xE5), with the character count as the length.

/// The characters of the string whose UTF-8 encoding is `key`, each as `ord(c) & 0xFF`. A byte
/// that is not part of a valid UTF-8 sequence stands for itself (as Python's
/// `surrogateescape` decoding gives U+DC80..U+DCFF, whose low byte is the byte).
pub fn code_point_bytes(key: &[u8]) -> impl Iterator<Item = u8> + Clone + '_ {
    key.utf8_chunks().flat_map(|chunk| {
        chunk
            .valid()
            .chars()
            .map(|c| (u32::from(c) & 0xFF) as u8)
            .chain(chunk.invalid().iter().copied())
    })
}

/// MurmurHash3_x86_32 over a stream of bytes (the length is the number of bytes streamed).
pub fn murmur3_x86_32_stream(bytes: impl Iterator<Item = u8>, seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let scramble = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    let mut h = seed;
    let mut len = 0u32;
    let mut word = [0u8; 4];
    let mut fill = 0usize;
    for b in bytes {
        word[fill] = b;
        fill += 1;
        len = len.wrapping_add(1);
        if fill == 4 {
            h ^= scramble(u32::from_le_bytes(word));
            h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
            fill = 0;
        }
    }
    if fill > 0 {
        let t = word[..fill]
            .iter()
            .rev()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
        h ^= scramble(t);
    }
    h ^= len;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// pymemcache `murmur3_32(s)` for the `str` whose UTF-8 encoding is `key` (seed 0).
pub fn pymemcache(key: &[u8]) -> u32 {
    murmur3_x86_32_stream(code_point_bytes(key), 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::murmur::murmur3_x86_32;

    #[test]
    fn ascii_is_plain_murmur3() {
        for k in [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "10.0.0.1:11211-foo",
            "hello world!",
        ] {
            assert_eq!(
                pymemcache(k.as_bytes()),
                murmur3_x86_32(k.as_bytes(), 0),
                "{k}"
            );
        }
    }

    #[test]
    fn characters_are_truncated_to_their_low_byte() {
        // "é" is one character 0xE9, "日" one character 0xE5, "😀" (U+1F600) one 0x00.
        assert_eq!(pymemcache("é".as_bytes()), murmur3_x86_32(&[0xE9], 0));
        assert_eq!(
            pymemcache("x日😀".as_bytes()),
            murmur3_x86_32(&[b'x', 0xE5, 0x00], 0)
        );
        assert_eq!(pymemcache(&[b'a', 0xFF]), murmur3_x86_32(&[b'a', 0xFF], 0));
    }
}
