//! One MD5 compression (RFC 1321, section 3.4), written once over any "word": a plain `u32`
//! for one message, or a SIMD register holding the same word of several messages (the lanes
//! in [`super::lanes`]). Messages of at most [`SHORT`] bytes fit one padded block, so their
//! digest is a single compression with no buffering and no length branches.

/// Longest message that fits one block: 64 bytes minus the `0x80` pad byte and the 8-byte
/// bit length.
pub const SHORT: usize = 55;

/// The RFC's initial state (A, B, C, D).
pub(super) const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// `T[i] = floor(2^32 * |sin(i + 1)|)`, i = 0..64 (RFC 1321, 3.4; checked in the tests).
pub(super) const T: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// What a compression needs of a word: 32-bit lanes with wrapping add, bitwise logic and
/// rotation. `rotl::<L, R>` rotates left by `L` (`R` = 32 - `L`, spelled out because shift
/// intrinsics take immediates).
pub(super) trait Word: Copy {
    fn splat(x: u32) -> Self;
    fn add(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    fn not(self) -> Self;
    /// `!self & o` (one instruction on x86: `andn`, `pandn`).
    fn andnot(self, o: Self) -> Self;
    fn rotl<const L: i32, const R: i32>(self) -> Self;
}

impl Word for u32 {
    #[inline(always)]
    fn splat(x: u32) -> u32 {
        x
    }
    #[inline(always)]
    fn add(self, o: u32) -> u32 {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn and(self, o: u32) -> u32 {
        self & o
    }
    #[inline(always)]
    fn or(self, o: u32) -> u32 {
        self | o
    }
    #[inline(always)]
    fn xor(self, o: u32) -> u32 {
        self ^ o
    }
    #[inline(always)]
    fn not(self) -> u32 {
        !self
    }
    #[inline(always)]
    fn andnot(self, o: u32) -> u32 {
        !self & o
    }
    #[inline(always)]
    fn rotl<const L: i32, const R: i32>(self) -> u32 {
        self.rotate_left(L as u32)
    }
}

/// The four auxiliary functions of RFC 1321 3.4, each split in two: the part that does not
/// read `x` (the word the previous step just produced: the critical path) is added to the
/// step's sum first, off the path, then the part that reads `x`. Equal bit for bit to the RFC:
/// - F = (x & y) | (!x & z) = z ^ (x & (y ^ z)): no split (2 operations after `x`);
/// - G = (x & z) | (y & !z) = (y & !z) + (x & z) (the two terms share no bit): 1 after `x`,
///   where the RFC's form needs 3;
/// - H = x ^ y ^ z = x ^ (y ^ z): 1 after `x`;
/// - I = y ^ (x | !z): no split (2 after `x`).
///
/// Each returns `(part without x, part with x)`; `step!` adds them in that order.
#[inline(always)]
fn f<W: Word>(x: W, y: W, z: W) -> (W, W) {
    (W::splat(0), z.xor(x.and(y.xor(z))))
}
#[inline(always)]
fn g<W: Word>(x: W, y: W, z: W) -> (W, W) {
    (z.andnot(y), x.and(z))
}
#[inline(always)]
fn h<W: Word>(x: W, y: W, z: W) -> (W, W) {
    (W::splat(0), x.xor(y.xor(z)))
}
#[inline(always)]
fn i<W: Word>(x: W, y: W, z: W) -> (W, W) {
    (W::splat(0), y.xor(x.or(z.not())))
}

/// One step: `a = b + ((a + fun(b, c, d) + x + T[t]) <<< s)`, summed as
/// `((a + x + T[t]) + fun's part without b) + fun's part with b`, so that only the last add,
/// the rotation and the add of `b` wait for the previous step.
macro_rules! step {
    ($fun:ident, $a:ident, $b:ident, $c:ident, $d:ident, $x:expr, $t:expr, $l:literal) => {
        let (early, late) = $fun($b, $c, $d);
        $a = $b.add(
            $a.add($x)
                .add(W::splat(T[$t]))
                .add(early)
                .add(late)
                .rotl::<$l, { 32 - $l }>(),
        );
    };
}

/// Four steps of a round with the message words `k0..k3`, rotations `s0..s3`, starting at
/// table entry `t`: the RFC's rows of `[abcd k s i]`.
macro_rules! row {
    ($fun:ident, $m:ident, $a:ident, $b:ident, $c:ident, $d:ident,
     [$k0:literal, $k1:literal, $k2:literal, $k3:literal], $t:literal,
     [$s0:literal, $s1:literal, $s2:literal, $s3:literal]) => {
        step!($fun, $a, $b, $c, $d, $m[$k0], $t, $s0);
        step!($fun, $d, $a, $b, $c, $m[$k1], $t + 1, $s1);
        step!($fun, $c, $d, $a, $b, $m[$k2], $t + 2, $s2);
        step!($fun, $b, $c, $d, $a, $m[$k3], $t + 3, $s3);
    };
}

/// Steps 0..60 of the compression of block `m` from `state`: the three rounds and the first
/// three rows of the fourth, then the first step of its last row, the last step that writes
/// A. Returns the working (A, B, C, D) before the feed-forward.
#[inline(always)]
fn steps_to_a<W: Word>(state: [W; 4], m: &[W; 16]) -> [W; 4] {
    let [mut a, mut b, mut c, mut d] = state;
    // Round 1: F, words in order.
    row!(f, m, a, b, c, d, [0, 1, 2, 3], 0, [7, 12, 17, 22]);
    row!(f, m, a, b, c, d, [4, 5, 6, 7], 4, [7, 12, 17, 22]);
    row!(f, m, a, b, c, d, [8, 9, 10, 11], 8, [7, 12, 17, 22]);
    row!(f, m, a, b, c, d, [12, 13, 14, 15], 12, [7, 12, 17, 22]);
    // Round 2: G, word (1 + 5i) mod 16.
    row!(g, m, a, b, c, d, [1, 6, 11, 0], 16, [5, 9, 14, 20]);
    row!(g, m, a, b, c, d, [5, 10, 15, 4], 20, [5, 9, 14, 20]);
    row!(g, m, a, b, c, d, [9, 14, 3, 8], 24, [5, 9, 14, 20]);
    row!(g, m, a, b, c, d, [13, 2, 7, 12], 28, [5, 9, 14, 20]);
    // Round 3: H, word (5 + 3i) mod 16.
    row!(h, m, a, b, c, d, [5, 8, 11, 14], 32, [4, 11, 16, 23]);
    row!(h, m, a, b, c, d, [1, 4, 7, 10], 36, [4, 11, 16, 23]);
    row!(h, m, a, b, c, d, [13, 0, 3, 6], 40, [4, 11, 16, 23]);
    row!(h, m, a, b, c, d, [9, 12, 15, 2], 44, [4, 11, 16, 23]);
    // Round 4: I, word 7i mod 16.
    row!(i, m, a, b, c, d, [0, 7, 14, 5], 48, [6, 10, 15, 21]);
    row!(i, m, a, b, c, d, [12, 3, 10, 1], 52, [6, 10, 15, 21]);
    row!(i, m, a, b, c, d, [8, 15, 6, 13], 56, [6, 10, 15, 21]);
    step!(i, a, b, c, d, m[4], 60, 6);
    [a, b, c, d]
}

/// Compresses one 16-word block `m` (little-endian words) into `state`.
#[inline(always)]
pub(super) fn compress<W: Word>(state: [W; 4], m: &[W; 16]) -> [W; 4] {
    let [a, mut b, mut c, mut d] = steps_to_a(state, m);
    // The last three steps of round 4 (words 11, 2, 9): they write D, C and B.
    step!(i, d, a, b, c, m[11], 61, 10);
    step!(i, c, d, a, b, m[2], 62, 15);
    step!(i, b, c, d, a, m[9], 63, 21);
    [
        state[0].add(a),
        state[1].add(b),
        state[2].add(c),
        state[3].add(d),
    ]
}

/// Word A of [`compress`]'s result alone (the digest's first four bytes, little-endian):
/// the last three steps write only B, C and D, so they are left out.
#[inline(always)]
pub(super) fn compress_a<W: Word>(state: [W; 4], m: &[W; 16]) -> W {
    state[0].add(steps_to_a(state, m)[0])
}

/// The padded block of a message of at most [`SHORT`] bytes as 16 little-endian words:
/// the bytes, `0x80`, zeros, and the length in bits in words 14 and 15 (see [`pad_into`]).
#[inline(always)]
pub(super) fn pad(msg: &[u8]) -> [u32; 16] {
    let mut m = [0u32; 16];
    pad_into(msg, |k, w| m[k & 15] = w);
    m
}

/// Writes the words of `msg`'s padded block (at most [`SHORT`] bytes of it are read) that
/// are not zero, as `put(word index, word)`: the whole words of the message, the word with
/// its last bytes and the `0x80` byte, and word 14 (the length in bits: word 15, the high
/// half, is zero for a short message). The caller's block starts zeroed. Built in registers
/// (whole words read straight from the message, the last partial word assembled in a
/// register or read as the word that ends the message), never as bytes read back as words,
/// which would stall on store forwarding.
#[inline(always)]
pub(super) fn pad_into(msg: &[u8], mut put: impl FnMut(usize, u32)) {
    let msg = &msg[..msg.len().min(SHORT)];
    let words = msg.chunks_exact(4);
    let tail = words.remainder().len();
    let full = msg.len() / 4;
    for (k, c) in words.enumerate() {
        put(k, u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    }
    let mut last = 0x80u32 << (8 * tail);
    if let Some(end) = msg.len().checked_sub(4).and_then(|at| msg.get(at..)) {
        // The message's last four bytes, of which the top `tail` are its tail.
        let w = u32::from_le_bytes([end[0], end[1], end[2], end[3]]);
        last |= (u64::from(w) >> (32 - 8 * tail)) as u32;
    } else {
        for (i, &b) in msg.iter().enumerate() {
            last |= u32::from(b) << (8 * i);
        }
    }
    // full <= 13: a message of at most 55 bytes leaves words 14 and 15 for its length.
    put(full, last);
    put(14, (msg.len() as u32) * 8);
}

/// The digest's 16 bytes from the final state.
#[inline(always)]
pub(super) fn bytes_of(state: [u32; 4]) -> [u8; 16] {
    let mut d = [0u8; 16];
    for (o, w) in d.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    d
}

/// MD5 of a message of at most [`SHORT`] bytes (longer ones are cut: callers check).
#[inline]
pub fn digest_short(msg: &[u8]) -> [u8; 16] {
    bytes_of(compress(INIT, &pad(msg)))
}

/// The first four bytes of the MD5 of a message of at most [`SHORT`] bytes, as a
/// little-endian word (longer ones are cut: callers check).
#[inline]
pub fn first_word_short(msg: &[u8]) -> u32 {
    compress_a(INIT, &pad(msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_the_sine_table() {
        for (k, &t) in T.iter().enumerate() {
            let want = ((k as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u64 as u32;
            assert_eq!(t, want, "T[{k}]");
        }
    }

    #[test]
    fn rfc_test_suite() {
        // RFC 1321, A.5.
        let cases: [(&[u8], &str); 5] = [
            (b"", "d41d8cd98f00b204e9800998ecf8427e"),
            (b"a", "0cc175b9c0f1b6a831c399e269772661"),
            (b"abc", "900150983cd24fb0d6963f7d28e17f72"),
            (b"message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            (
                b"abcdefghijklmnopqrstuvwxyz",
                "c3fcd3d76192e4007dfb496cca67e13b",
            ),
        ];
        for (msg, hex) in cases {
            let d = digest_short(msg);
            let got: std::string::String = d.iter().map(|b| std::format!("{b:02x}")).collect();
            assert_eq!(got, hex);
        }
    }
}
