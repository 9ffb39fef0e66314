//! mcrouter's consistent hashes: `furc_hash` (CH3, a binary decision tree walked with bits drawn
//! from MurmurHash64A) and `WeightedCh3HashFunc` (CH3 plus a SpookyHashV2 draw against the
//! chosen server's weight, with salted retries).
//!
//! Written from the algorithm's description in mcrouter's `lib/fbi/hash.c` and
//! `lib/WeightedCh3HashFunc.cpp`; checked against values printed by those very sources
//! (`tests/oracles/mcrouter`). No allocation in [`furc_hash`]; `no_std`.

/// MurmurHash64A seed furc uses (`SEED` in `hash.c`).
pub const FURC_SEED: u32 = 4_193_360_111;
/// Bits between the tree levels of one try; limits pools to `2^FURC_SHIFT` servers.
pub const FURC_SHIFT: u32 = 23;
/// Tries of the tree walk before furc gives up and answers 0.
pub const FURC_MAX_TRIES: u32 = 32;
/// The largest pool mcrouter's `Ch3HashFunc` accepts (`furc_maximum_pool_size()`): 2^23.
pub const FURC_MAX_POOL: u32 = 1 << FURC_SHIFT;
/// Cached bitstream words: enough for 32 tries of a 32-level walk (at most 23,584 bits).
const CACHE_WORDS: usize = 384;

const M: u64 = 0xc6a4_a793_5bd1_e995;
const R: u32 = 47;

/// Austin Appleby's MurmurHash64A of `key` with a 32-bit `seed` (widened, as `hash.c` does),
/// little-endian word reads (x86-64, aarch64).
pub fn murmur64a(key: &[u8], seed: u32) -> u64 {
    let mut h = u64::from(seed) ^ (key.len() as u64).wrapping_mul(M);
    let mut words = key.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        let mut k = u64::from_le_bytes(b).wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h ^= k;
        h = h.wrapping_mul(M);
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut b = [0u8; 8];
        b[..tail.len()].copy_from_slice(tail);
        h ^= u64::from_le_bytes(b);
        h = h.wrapping_mul(M);
    }
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^ (h >> R)
}

/// The pseudo-random bit stream of one key: word 0 is `murmur64a(key, FURC_SEED)`, word n the
/// MurmurHash64A (same seed) of word n-1's 8 little-endian bytes; bit i is bit `i % 64` of word
/// `i / 64`. Words are computed once, on first use.
struct Bits<'a> {
    key: &'a [u8],
    words: [u64; CACHE_WORDS],
    filled: usize,
}

impl Bits<'_> {
    fn bit(&mut self, idx: u32) -> bool {
        let ord = (idx >> 6) as usize;
        // A walk never reaches past CACHE_WORDS (see its size); stay in bounds regardless.
        let ord = ord.min(CACHE_WORDS - 1);
        while self.filled <= ord {
            self.words[self.filled] = if self.filled == 0 {
                murmur64a(self.key, FURC_SEED)
            } else {
                murmur64a(&self.words[self.filled - 1].to_le_bytes(), FURC_SEED)
            };
            self.filled += 1;
        }
        (self.words[ord] >> (idx & 63)) & 1 == 1
    }
}

/// mcrouter's `furc_hash(key, len, m)`: a server index in `0..m` (0 when `m <= 1`).
///
/// `d` = bit length of `m - 1`. Each try reads a start bit at index `d` (while it is 0, `d`
/// drops by one and the start moves to the new `d`; `d` reaching 0 answers 0), then `d - 1`
/// bits `FURC_SHIFT` apart after it, building `num` = 1 followed by those bits; the first `num
/// < m` is the answer. After [`FURC_MAX_TRIES`] tries it answers 0. Any `m` is accepted, as in
/// `hash.c` (mcrouter's `Ch3HashFunc` itself refuses `m > 2^23`).
///
/// ```
/// use ketama_core::hash::furc::furc_hash;
/// assert_eq!(furc_hash(b"hello", 3), 0);
/// assert_eq!(furc_hash(b"", 1000), 72);
/// ```
pub fn furc_hash(key: &[u8], m: u32) -> u32 {
    if m <= 1 {
        return 0;
    }
    let mut bits = Bits {
        key,
        words: [0; CACHE_WORDS],
        filled: 0,
    };
    let mut d = 32 - (m - 1).leading_zeros();
    let mut a = d;
    for _ in 0..FURC_MAX_TRIES {
        while !bits.bit(a) {
            d -= 1;
            if d == 0 {
                return 0;
            }
            a = d;
        }
        a += FURC_SHIFT;
        let mut num: u32 = 1;
        for _ in 0..d - 1 {
            num = (num << 1) | u32::from(bits.bit(a));
            a += FURC_SHIFT;
        }
        if num < m {
            return num;
        }
    }
    0
}

/// Seed of the SpookyHashV2 `Hash32` draw in `WeightedCh3HashFunc` (`kHashSeed`).
pub const WCH3_SEED: u32 = 0xface_2014;
/// Tries of `WeightedCh3HashFunc` (`kNumTries`).
pub const WCH3_TRIES: u32 = 32;

/// mcrouter's `WeightedCh3HashFunc::hash(key, weights)`: the index of the chosen server, or
/// `None` when `weights` is empty or longer than 2^23 (mcrouter throws) or holds a weight
/// outside `0.0..=1.0` (mcrouter asserts).
///
/// Try t (0-based): `i = furc_hash(k, n)`; accept when `SpookyHashV2::Hash32(k, 0xface2014)`
/// (as u64) `< (weights[i] * 4294967295.0) as u64` (truncated). Otherwise
/// `k = key + digits(t)`, the decimal digits of t **least significant first** (t = 10 appends
/// "01"), replacing the previous salt. After 32 tries the last `i` stands.
#[cfg(feature = "alloc")]
pub fn weighted_ch3(key: &[u8], weights: &[f64]) -> Option<usize> {
    let n = weights.len();
    if n == 0 || n > FURC_MAX_POOL as usize || weights.iter().any(|w| !(0.0..=1.0).contains(w)) {
        return None;
    }
    let mut buf = alloc::vec::Vec::with_capacity(key.len() + 20);
    buf.extend_from_slice(key);
    let mut index = 0usize;
    for salt in 0..u64::from(WCH3_TRIES) {
        index = furc_hash(&buf, n as u32) as usize;
        let p = u64::from(super::spooky::hash32(&buf, WCH3_SEED));
        let w = (weights[index] * f64::from(u32::MAX)) as u64;
        if p < w {
            return Some(index);
        }
        buf.truncate(key.len());
        let mut s = salt;
        loop {
            buf.push(b'0' + (s % 10) as u8);
            s /= 10;
            if s == 0 {
                break;
            }
        }
    }
    Some(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::spooky;

    const NS: [u32; 20] = [
        0,
        1,
        2,
        3,
        4,
        5,
        7,
        8,
        9,
        10,
        100,
        1000,
        65535,
        65536,
        8_388_607,
        8_388_608,
        8_388_609,
        16_777_216,
        2_147_483_648,
        4_294_967_295,
    ];

    /// (key, murmur64a(seed FURC_SEED), Hash32 seed 0, Hash32 seed 0xface2014, Hash64 seed 0,
    /// furc_hash for each of NS): printed by mcrouter's hash.c and folly's SpookyHashV2.cpp
    /// (tests/oracles/mcrouter/driver.cpp "raw").
    type Known = (&'static [u8], u64, u32, u32, u64, [u32; 20]);

    #[rustfmt::skip]
    fn known() -> [Known; 24] {
        [
        (b"", 5566605159182504090, 1811220761, 1865093797, 2533000996631939353, [0, 0, 1, 1, 1, 1, 6, 6, 8, 8, 72, 72, 3031, 3031, 6173600, 6173600, 6173600, 16592282, 380486936, 380486936]),
        (b"a", 4425175614476078203, 2696661437, 2822136958, 1878143507080399293, [0, 0, 1, 1, 1, 4, 4, 4, 4, 4, 34, 900, 55594, 55594, 7695180, 7695180, 7695180, 11809035, 2134617590, 2134617590]),
        (b"abc", 14384297536941547480, 1966590311, 2017459788, 9992104350819273063, [0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 69, 985, 44962, 44962, 6730815, 6730815, 6730815, 6730815, 128819687, 128819687]),
        (b"abcd", 11742487528433729824, 1917919668, 91647725, 6660178300034425268, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 27, 186, 37830, 37830, 4402568, 4402568, 4402568, 16091368, 843781526, 3397975516]),
        (b"abcdefg", 8587108595135994943, 3326846334, 2083346463, 16227871758974952830, [0, 0, 1, 2, 2, 4, 6, 7, 7, 9, 28, 653, 30286, 30286, 5319080, 5319080, 5319080, 5319080, 830006023, 2912072081]),
        (b"abcdefgh", 16958741362351311540, 2772036462, 1014876052, 1160951446954961774, [0, 0, 0, 2, 2, 2, 2, 2, 8, 8, 28, 257, 30053, 30053, 6241930, 6241930, 6241930, 6241930, 1838695824, 1838695824]),
        (b"abcdefghijk", 17641170454585030023, 3136734895, 1348188830, 3398093688674895535, [0, 0, 1, 1, 3, 3, 3, 3, 3, 3, 65, 788, 4351, 4351, 5643168, 5643168, 5643168, 9236700, 1993692959, 3733294032]),
        (b"abcdefghijkl", 4863244233798669289, 331460547, 1715426010, 7140620976630378435, [0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 93, 385, 64491, 64491, 5324490, 5324490, 5324490, 15383958, 484166599, 2171654263]),
        (b"abcdefghijklmno", 9311075682835786268, 3493747515, 3496172374, 1194182021962685243, [0, 0, 0, 2, 2, 2, 5, 5, 5, 5, 15, 313, 9157, 9157, 2043024, 2043024, 2043024, 2043024, 850318469, 850318469]),
        (b"0123456789abcdef", 16473060883563133018, 2521530541, 3628471322, 16343677700106059949, [0, 0, 1, 1, 1, 4, 4, 4, 4, 4, 60, 60, 63507, 63507, 2093260, 2093260, 2093260, 2093260, 547611254, 547611254]),
        (b"0123456789abcdefXYZ", 2298072199331037288, 468507205, 1709040603, 13871436372913216069, [0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 37, 37, 34554, 34554, 3983507, 3983507, 3983507, 10007364, 834114954, 4245457641]),
        (&[107; 31], 17091980687583108318, 1170083192, 3920068864, 15063855252174146936, [0, 0, 1, 1, 3, 3, 5, 7, 7, 7, 45, 730, 13014, 13014, 1127368, 1127368, 1127368, 15410835, 1312368217, 1312368217]),
        (&[107; 32], 12669564746777240737, 2021000420, 3157822759, 825484036183295204, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 98, 777, 5385, 5385, 3104963, 3104963, 3104963, 3104963, 1701581974, 1701581974]),
        (&[107; 47], 11118809935684962736, 3616698920, 528745010, 344178182839235112, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 30, 240, 1516, 1516, 7053113, 7053113, 7053113, 13135689, 1887715304, 2348189971]),
        (&[107; 48], 9685983189641563074, 1180015175, 1371574125, 8250089142605945415, [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 88, 278, 36477, 36477, 4692640, 4692640, 4692640, 4692640, 1001419330, 1001419330]),
        (&[107; 100], 9483919227150185941, 4246250770, 4211976047, 4726056934432089362, [0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 67, 526, 28347, 28347, 6203181, 6203181, 6203181, 6203181, 45953457, 45953457]),
        (&[107; 191], 10679738171744728767, 2222060115, 3069184733, 14307340731615933011, [0, 0, 1, 2, 2, 4, 6, 7, 7, 7, 89, 556, 4438, 4438, 170585, 170585, 170585, 8721582, 1539916194, 1539916194]),
        (&[107; 192], 10635754914880788292, 1739110002, 197555055, 10536444386813195890, [0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 46, 951, 50749, 50749, 6990480, 6990480, 6990480, 13986320, 1114410462, 1114410462]),
        (&[120; 200], 15403071186475803386, 2412047933, 3499804764, 8028898117640580669, [0, 0, 1, 1, 1, 1, 5, 7, 7, 9, 77, 383, 59252, 59252, 5259028, 5259028, 5259028, 14358117, 2083861692, 2083861692]),
        (&RANGE2, 16837775544107946028, 4243562489, 2140351681, 3811996531296280569, [0, 0, 0, 2, 3, 3, 5, 5, 5, 5, 20, 20, 12536, 12536, 2422247, 2422247, 2422247, 2422247, 1450284224, 4041389401]),
        (concat!("é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本", "é😀日本").as_bytes(), 12260350961243681769, 2637099317, 2056243187, 3801252643229069621, [0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 83, 446, 14274, 14274, 4938239, 4938239, 4938239, 4938239, 1305714973, 3189091519]),
        (&[113; 287], 16430057478186126256, 3039356359, 1473894426, 1030382912415524295, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 443, 24328, 24328, 7994397, 7994397, 7994397, 7994397, 1584492060, 3150188294]),
        (&[113; 288], 5127059949191715372, 3992610013, 1401216615, 9286136871844996317, [0, 0, 0, 2, 2, 4, 5, 7, 7, 7, 17, 303, 9341, 9341, 6510059, 6510059, 6510059, 14237766, 62270864, 62270864]),
        (b"polygenelubricants", 11657834344302389263, 389433791, 4106472821, 7037494641498147263, [0, 0, 1, 1, 3, 3, 6, 6, 6, 6, 6, 6, 6896, 6896, 3592215, 3592215, 3592215, 3592215, 2032448064, 4020439486]),
        ]
    }

    const RANGE2: [u8; 512] = {
        let mut a = [0u8; 512];
        let mut i = 0;
        while i < 512 {
            a[i] = (i % 256) as u8;
            i += 1;
        }
        a
    };

    #[test]
    fn mcrouter_and_folly_answers() {
        for (key, mm, s32, s32f, s64, furc) in known() {
            assert_eq!(murmur64a(key, FURC_SEED), mm, "murmur64a {}", key.len());
            assert_eq!(spooky::hash32(key, 0), s32, "spooky32 {}", key.len());
            assert_eq!(
                spooky::hash32(key, WCH3_SEED),
                s32f,
                "spooky32 face {}",
                key.len()
            );
            assert_eq!(spooky::hash64(key, 0), s64, "spooky64 {}", key.len());
            for (n, want) in NS.iter().zip(furc) {
                assert_eq!(furc_hash(key, *n), want, "furc {} n={n}", key.len());
            }
        }
    }

    #[test]
    fn small_pools() {
        assert_eq!(furc_hash(b"anything", 0), 0);
        assert_eq!(furc_hash(b"anything", 1), 0);
        for k in 0..200u32 {
            let key = k.to_le_bytes();
            for n in [2u32, 3, 7, 1000] {
                assert!(furc_hash(&key, n) < n);
            }
        }
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn weighted_edge_cases() {
        use alloc::string::ToString;
        assert_eq!(weighted_ch3(b"k", &[]), None);
        assert_eq!(weighted_ch3(b"k", &[1.5]), None);
        assert_eq!(weighted_ch3(b"k", &[f64::NAN, 1.0]), None);
        // all weights 1.0: exactly CH3 (the draw is always below u32::MAX... unless it equals it)
        for i in 0..500u32 {
            let key = i.to_string();
            let w = [1.0; 7];
            assert_eq!(
                weighted_ch3(key.as_bytes(), &w),
                Some(furc_hash(key.as_bytes(), 7) as usize)
            );
        }
        // a single server: always 0 whatever its weight
        assert_eq!(weighted_ch3(b"x", &[0.0]), Some(0));
    }
}
