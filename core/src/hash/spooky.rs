//! Bob Jenkins' SpookyHash V2 (the version folly ships as `folly::hash::SpookyHashV2`), as
//! mcrouter's `WeightedCh3HashFunc` uses it: `Hash32(key, len, 0xface2014)` is the probability
//! draw compared with a server's weight.
//!
//! Written from the published algorithm: messages under 192 bytes take the "short" path (a
//! 4-word state mixed 32 bytes at a time), longer ones the 12-word state over 96-byte blocks.
//! Words are read little-endian, as on every platform mcrouter runs on (x86-64, aarch64).
//! No allocation; `no_std`.

/// A constant that is neither too regular nor too random (SpookyHash's `sc_const`).
const SC_CONST: u64 = 0xdead_beef_dead_beef;
/// Number of 64-bit words in the long-message state.
const NUM_VARS: usize = 12;
/// Bytes per long-message block.
const BLOCK_SIZE: usize = NUM_VARS * 8;
/// Messages shorter than this take the short path.
const BUF_SIZE: usize = 2 * BLOCK_SIZE;

#[inline]
fn word(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[8 * i..8 * i + 8]);
    u64::from_le_bytes(w)
}

/// The short-path mixer over four words.
#[inline]
fn short_mix(h: &mut [u64; 4]) {
    const R: [(usize, usize, usize, u32); 12] = [
        (2, 3, 0, 50),
        (3, 0, 1, 52),
        (0, 1, 2, 30),
        (1, 2, 3, 41),
        (2, 3, 0, 54),
        (3, 0, 1, 48),
        (0, 1, 2, 38),
        (1, 2, 3, 37),
        (2, 3, 0, 62),
        (3, 0, 1, 34),
        (0, 1, 2, 5),
        (1, 2, 3, 36),
    ];
    // Each step: h[a] = rot(h[a], r); h[a] += h[b]; h[c] ^= h[a].
    for &(a, b, c, r) in &R {
        h[a] = h[a].rotate_left(r);
        h[a] = h[a].wrapping_add(h[b]);
        h[c] ^= h[a];
    }
}

/// The short-path finaliser over four words.
#[inline]
fn short_end(h: &mut [u64; 4]) {
    const R: [(usize, usize, u32); 11] = [
        (3, 2, 15),
        (0, 3, 52),
        (1, 0, 26),
        (2, 1, 51),
        (3, 2, 28),
        (0, 3, 9),
        (1, 0, 47),
        (2, 1, 54),
        (3, 2, 32),
        (0, 3, 25),
        (1, 0, 63),
    ];
    // Each step: h[a] ^= h[b]; h[b] = rot(h[b], r); h[a] += h[b].
    for &(a, b, r) in &R {
        h[a] ^= h[b];
        h[b] = h[b].rotate_left(r);
        h[a] = h[a].wrapping_add(h[b]);
    }
}

/// SpookyHash's short path (messages under 192 bytes).
fn short(message: &[u8], seed1: u64, seed2: u64) -> (u64, u64) {
    let len = message.len();
    let mut h = [seed1, seed2, SC_CONST, SC_CONST];
    let mut rest = message;
    if len > 15 {
        // Whole 32-byte groups: two words into h[2], h[3], mix, two more into h[0], h[1].
        while rest.len() >= 32 {
            h[2] = h[2].wrapping_add(word(rest, 0));
            h[3] = h[3].wrapping_add(word(rest, 1));
            short_mix(&mut h);
            h[0] = h[0].wrapping_add(word(rest, 2));
            h[1] = h[1].wrapping_add(word(rest, 3));
            rest = &rest[32..];
        }
        // One more 16-byte group if there is one.
        if rest.len() >= 16 {
            h[2] = h[2].wrapping_add(word(rest, 0));
            h[3] = h[3].wrapping_add(word(rest, 1));
            short_mix(&mut h);
            rest = &rest[16..];
        }
    }
    // The last 0..15 bytes, with the total length in the top byte of h[3].
    h[3] = h[3].wrapping_add((len as u64) << 56);
    let r = rest.len();
    if r >= 8 {
        // bytes 0..8 into h[2], bytes 8..r (little-endian) into h[3]
        let mut hi = [0u8; 8];
        hi[..r - 8].copy_from_slice(&rest[8..r]);
        h[3] = h[3].wrapping_add(u64::from_le_bytes(hi));
        h[2] = h[2].wrapping_add(word(rest, 0));
    } else if r > 0 {
        // bytes 0..r (little-endian) into h[2]
        let mut lo = [0u8; 8];
        lo[..r].copy_from_slice(rest);
        h[2] = h[2].wrapping_add(u64::from_le_bytes(lo));
    } else {
        h[2] = h[2].wrapping_add(SC_CONST);
        h[3] = h[3].wrapping_add(SC_CONST);
    }
    short_end(&mut h);
    (h[0], h[1])
}

/// The long-path block mixer: folds 12 data words into the 12-word state.
#[inline]
fn mix(data: &[u8], s: &mut [u64; NUM_VARS]) {
    const ROT: [u32; NUM_VARS] = [11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46];
    for (i, &rot) in ROT.iter().enumerate() {
        s[i] = s[i].wrapping_add(word(data, i));
        s[(i + 2) % NUM_VARS] ^= s[(i + 10) % NUM_VARS];
        s[(i + 11) % NUM_VARS] ^= s[i];
        s[i] = s[i].rotate_left(rot);
        s[(i + 11) % NUM_VARS] = s[(i + 11) % NUM_VARS].wrapping_add(s[(i + 1) % NUM_VARS]);
    }
}

/// One round of the long-path finaliser.
#[inline]
fn end_partial(h: &mut [u64; NUM_VARS]) {
    const ROT: [u32; NUM_VARS] = [44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54];
    for (i, &rot) in ROT.iter().enumerate() {
        // h[i+11] += h[i+1]; h[i+2] ^= h[i+11]; h[i+1] = rot(h[i+1], r_i)
        let a = (i + 11) % NUM_VARS;
        let b = (i + 1) % NUM_VARS;
        let c = (i + 2) % NUM_VARS;
        h[a] = h[a].wrapping_add(h[b]);
        h[c] ^= h[a];
        h[b] = h[b].rotate_left(rot);
    }
}

/// SpookyHash V2 128-bit hash of `message` with two 64-bit seeds: `(hash1, hash2)`.
pub fn hash128(message: &[u8], seed1: u64, seed2: u64) -> (u64, u64) {
    if message.len() < BUF_SIZE {
        return short(message, seed1, seed2);
    }
    let mut h: [u64; NUM_VARS] = core::array::from_fn(|i| match i % 3 {
        0 => seed1,
        1 => seed2,
        _ => SC_CONST,
    });
    let mut blocks = message.chunks_exact(BLOCK_SIZE);
    for b in &mut blocks {
        mix(b, &mut h);
    }
    // The tail: zero-padded to a block, its length in the last byte.
    let tail = blocks.remainder();
    let mut last = [0u8; BLOCK_SIZE];
    last[..tail.len()].copy_from_slice(tail);
    last[BLOCK_SIZE - 1] = tail.len() as u8;
    for (i, x) in h.iter_mut().enumerate() {
        *x = x.wrapping_add(word(&last, i));
    }
    end_partial(&mut h);
    end_partial(&mut h);
    end_partial(&mut h);
    (h[0], h[1])
}

/// SpookyHash V2 `Hash64(message, seed)`: the first word of `hash128` with both seeds = `seed`.
pub fn hash64(message: &[u8], seed: u64) -> u64 {
    hash128(message, seed, seed).0
}

/// SpookyHash V2 `Hash32(message, seed)`: the low 32 bits of `hash128` with both seeds = `seed`.
pub fn hash32(message: &[u8], seed: u32) -> u32 {
    hash128(message, u64::from(seed), u64::from(seed)).0 as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    // Values printed by folly's own SpookyHashV2 (tests/oracles/mcrouter, "raw" output).
    #[test]
    fn folly_answers() {
        assert_eq!(hash32(b"hello", 0), 3_548_571_338);
        assert_eq!(hash32(b"hello", 0xface_2014), 2_594_585_269);
        assert_eq!(hash64(b"hello", 0), 3_992_584_464_990_660_298);
        assert_eq!(hash32(b"", 0), 1_811_220_761);
        assert_eq!(hash32(b"", 0xface_2014), 1_865_093_797);
        assert_eq!(hash64(b"", 0), 2_533_000_996_631_939_353);
    }
}
