//! Splitting a joined key buffer at a separator byte (`ketama_ring_lookup_joined`), 8 bytes
//! at a time: the byte-by-byte split was a fifth of that call's time on short keys.

/// Where each piece of `buf` ends: the offset of every `sep` byte, in order, then
/// `buf.len()` (so `n` separators give `n + 1` pieces; piece `i` is `ends[i - 1] + 1 ..
/// ends[i]`, the first starting at 0).
pub(crate) fn piece_ends(buf: &[u8], sep: u8) -> Vec<usize> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let pattern = u64::from_le_bytes([sep; 8]);
    let mut ends = Vec::with_capacity(buf.len() / 8 + 1);
    let mut chunks = buf.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        // A byte equal to `sep` is 0 in `w`; `zero` has the high bit of exactly those bytes
        // (the 7-bit add cannot carry into the next byte, so no byte flags its neighbour).
        let w = u64::from_le_bytes(word) ^ pattern;
        let mut zero = !(((w & LOW7) + LOW7) | w | LOW7);
        while zero != 0 {
            ends.push(at + zero.trailing_zeros() as usize / 8);
            zero &= zero - 1;
        }
        at += 8;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if b == sep {
            ends.push(at + i);
        }
    }
    ends.push(buf.len());
    ends
}

#[cfg(test)]
mod tests {
    use super::piece_ends;

    /// The byte-by-byte answer.
    fn slow(buf: &[u8], sep: u8) -> Vec<usize> {
        let mut ends: Vec<usize> = buf
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == sep)
            .map(|(i, _)| i)
            .collect();
        ends.push(buf.len());
        ends
    }

    #[test]
    fn agrees_with_the_byte_by_byte_split() {
        // every separator position and neighbour value (sep ^ 1, 0x80, 0xff: the bytes a
        // carrying zero-byte test flags by mistake) across a word boundary, and every length
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for sep in [0u8, 1, b'\n', 0x7f, 0x80, 0xff] {
            for len in 0..40 {
                for _ in 0..200 {
                    let buf: Vec<u8> = (0..len)
                        .map(|_| {
                            seed ^= seed << 13;
                            seed ^= seed >> 7;
                            seed ^= seed << 17;
                            match seed % 5 {
                                0 => sep,
                                1 => sep ^ 1,
                                2 => 0x80,
                                3 => 0xff,
                                _ => (seed >> 8) as u8,
                            }
                        })
                        .collect();
                    assert_eq!(piece_ends(&buf, sep), slow(&buf, sep), "{buf:?} sep {sep}");
                }
            }
        }
    }
}
