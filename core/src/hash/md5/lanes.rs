//! Multi-buffer MD5: several short messages hashed at once, one per SIMD lane (4 with SSE2,
//! the x86_64 baseline; 8 with AVX2, and 16 in two AVX2 registers whose independent chains
//! of dependent steps the CPU overlaps, detected at run time with the `std` feature), the same
//! compression as the scalar path ([`super::block::compress`]) run over vectors. Elsewhere, and
//! for messages longer than [`SHORT`], each message is hashed on its own. Every engine gives
//! the same digests bit for bit (tested against the scalar path and the `md-5` crate).

use super::block::{bytes_of, compress, compress_a, pad, pad_into, INIT, SHORT};

/// An implementation of [`digest_many`]: how many messages one compression hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lanes {
    /// One message at a time (every target).
    Scalar,
    /// 4 lanes of SSE2 (x86_64 only; always available there).
    Sse2,
    /// 8 lanes of AVX2 (x86_64 CPUs that have it).
    Avx2,
    /// 16 lanes in two AVX2 registers (x86_64 CPUs that have AVX2): each MD5 step is a chain
    /// of dependent operations, and two independent chains keep the vector units busy
    /// where one leaves them waiting.
    Avx2x2,
}

impl Lanes {
    /// Every engine, narrowest first.
    pub const ALL: [Lanes; 4] = [Lanes::Scalar, Lanes::Sse2, Lanes::Avx2, Lanes::Avx2x2];

    /// Messages per compression.
    pub fn width(self) -> usize {
        match self {
            Lanes::Scalar => 1,
            Lanes::Sse2 => 4,
            Lanes::Avx2 => 8,
            Lanes::Avx2x2 => 16,
        }
    }

    /// Our name for the engine (`scalar`, `sse2`, `avx2`, `avx2x2`).
    pub fn name(self) -> &'static str {
        match self {
            Lanes::Scalar => "scalar",
            Lanes::Sse2 => "sse2",
            Lanes::Avx2 => "avx2",
            Lanes::Avx2x2 => "avx2x2",
        }
    }

    /// Whether this CPU and build can run the engine.
    pub fn is_supported(self) -> bool {
        match self {
            Lanes::Scalar => true,
            Lanes::Sse2 => cfg!(all(target_arch = "x86_64", target_feature = "sse2")),
            Lanes::Avx2 | Lanes::Avx2x2 => avx2_available(),
        }
    }

    /// `self` if supported, else the widest supported engine narrower than it.
    pub fn or_supported(self) -> Lanes {
        Lanes::ALL
            .into_iter()
            .rev()
            .find(|l| *l <= self && l.is_supported())
            .unwrap_or(Lanes::Scalar)
    }

    /// The widest engine this CPU supports. With the `std` feature the environment variable
    /// `KETAMA_MD5_LANES` (`scalar`, `sse2`, `avx2` or `avx2x2`) caps it, e.g. to run a test suite on the
    /// scalar path; read once per process.
    pub fn detect() -> Lanes {
        detected()
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn avx2_available() -> bool {
    cfg!(target_feature = "sse2") && std::is_x86_feature_detected!("avx2")
}

#[cfg(not(all(feature = "std", target_arch = "x86_64")))]
fn avx2_available() -> bool {
    cfg!(all(
        target_arch = "x86_64",
        target_feature = "sse2",
        target_feature = "avx2"
    ))
}

#[cfg(feature = "std")]
fn detected() -> Lanes {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not yet detected; else 1 + index in `Lanes::ALL`.
    static CACHE: AtomicU8 = AtomicU8::new(0);
    match CACHE.load(Ordering::Relaxed) {
        0 => {}
        n => return Lanes::ALL[usize::from(n - 1).min(Lanes::ALL.len() - 1)],
    }
    let cap = std::env::var("KETAMA_MD5_LANES")
        .ok()
        .and_then(|v| Lanes::ALL.into_iter().find(|l| l.name() == v.trim()))
        .unwrap_or(Lanes::Avx2x2);
    let best = cap.or_supported();
    let at = Lanes::ALL.iter().position(|l| *l == best).unwrap_or(0);
    CACHE.store(at as u8 + 1, Ordering::Relaxed);
    best
}

#[cfg(not(feature = "std"))]
fn detected() -> Lanes {
    Lanes::Avx2x2.or_supported()
}

/// The MD5 digest of each message: `out[i]` for `msgs[i]` (over the shorter of the two),
/// hashed with `lanes` (or the widest supported engine narrower than it).
pub fn digest_many(lanes: Lanes, msgs: &[&[u8]], out: &mut [[u8; 16]]) {
    each::<_, true>(lanes, msgs, out, |o, state, m| {
        *o = if m.len() <= SHORT {
            bytes_of(state)
        } else {
            super::digest(m)
        }
    });
}

/// The first four bytes of each message's MD5 digest as a little-endian word (what
/// [`super::first_word`] gives), `out[i]` for `msgs[i]`: [`digest_many`] without the steps
/// that only write the other three words.
pub fn first_words_many(lanes: Lanes, msgs: &[&[u8]], out: &mut [u32]) {
    each::<_, false>(lanes, msgs, out, |o, state, m| {
        *o = if m.len() <= SHORT {
            state[0]
        } else {
            super::first_word(m)
        }
    });
}

/// Runs `put(out[i], final state, msgs[i])` for each message, the state computed with
/// `lanes` (whole when `ALL`, else only its word A) for messages of at most [`SHORT`] bytes;
/// `put` hashes longer ones itself.
fn each<T, const ALL: bool>(
    lanes: Lanes,
    msgs: &[&[u8]],
    out: &mut [T],
    put: impl Fn(&mut T, [u32; 4], &[u8]) + Copy,
) {
    let lanes = lanes.or_supported();
    let w = lanes.width();
    for (m, o) in msgs.chunks(w).zip(out.chunks_mut(w)) {
        chunk::<T, ALL>(lanes, m, o, put);
    }
}

/// One chunk of at most `lanes.width()` messages; `lanes` must be supported.
#[allow(unsafe_code)]
fn chunk<T, const ALL: bool>(
    lanes: Lanes,
    msgs: &[&[u8]],
    out: &mut [T],
    put: impl Fn(&mut T, [u32; 4], &[u8]),
) {
    match lanes {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        Lanes::Sse2 => finish(x86::compress4::<ALL>(&blocks::<4>(msgs)), msgs, out, put),
        // SAFETY: `lanes` is supported (the caller's contract), so the CPU has AVX2.
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        Lanes::Avx2 => finish(
            unsafe { x86::compress8::<ALL>(&blocks::<8>(msgs)) },
            msgs,
            out,
            put,
        ),
        // SAFETY: as for `Lanes::Avx2`.
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        Lanes::Avx2x2 => finish(
            unsafe { x86::compress16::<ALL>(&blocks::<16>(msgs)) },
            msgs,
            out,
            put,
        ),
        _ => {
            for (m, o) in msgs.iter().zip(out.iter_mut()) {
                let block = pad(m);
                let state = if ALL {
                    compress(INIT, &block)
                } else {
                    [compress_a(INIT, &block), 0, 0, 0]
                };
                put(o, state, m);
            }
        }
    }
}

/// The padded blocks of up to `N` messages, word-major (`[word][lane]`), as the vector
/// loads want them; a lane without a short message gets the empty message. The block
/// starts zeroed and each lane writes only its non-zero words ([`pad_into`]: about a third
/// of them for a key of 20 bytes).
#[cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "sse2")),
    allow(dead_code)
)]
#[inline(always)]
fn blocks<const N: usize>(msgs: &[&[u8]]) -> [[u32; N]; 16] {
    let mut words = [[0u32; N]; 16];
    let short = |lane: usize| match msgs.get(lane) {
        Some(&m) if m.len() <= SHORT => m,
        _ => &[][..],
    };
    for (lane, m) in (0..N).map(|lane| (lane, short(lane))) {
        pad_into(m, |k, w| words[k & 15][lane] = w);
    }
    words
}

/// `put` for each message from a lane-major final state (`[a, b, c, d][lane]`).
#[cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "sse2")),
    allow(dead_code)
)]
#[inline(always)]
fn finish<T, const N: usize>(
    state: [[u32; N]; 4],
    msgs: &[&[u8]],
    out: &mut [T],
    put: impl Fn(&mut T, [u32; 4], &[u8]),
) {
    for (lane, (m, o)) in msgs.iter().zip(out.iter_mut()).enumerate() {
        let s = [
            state[0][lane],
            state[1][lane],
            state[2][lane],
            state[3][lane],
        ];
        put(o, s, m);
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod x86 {
    use core::arch::x86_64::*;

    use super::super::block::{compress, compress_a, Word, INIT};

    /// 4 lanes in an SSE2 register (SSE2 is part of every x86_64 CPU).
    #[derive(Clone, Copy)]
    struct V4(__m128i);

    // SAFETY (every block in this impl): the intrinsics need SSE2, which this module is only
    // compiled with (`target_feature = "sse2"`, part of every x86_64 target).
    impl Word for V4 {
        #[inline(always)]
        fn splat(x: u32) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_set1_epi32(x as i32) })
        }
        #[inline(always)]
        fn add(self, o: V4) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_add_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn and(self, o: V4) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_and_si128(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: V4) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_or_si128(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: V4) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_xor_si128(self.0, o.0) })
        }
        #[inline(always)]
        fn not(self) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_xor_si128(self.0, _mm_set1_epi32(-1)) })
        }
        #[inline(always)]
        fn andnot(self, o: V4) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_andnot_si128(self.0, o.0) })
        }
        #[inline(always)]
        fn rotl<const L: i32, const R: i32>(self) -> V4 {
            // SAFETY: see the impl.
            V4(unsafe { _mm_or_si128(_mm_slli_epi32::<L>(self.0), _mm_srli_epi32::<R>(self.0)) })
        }
    }

    /// 8 lanes in an AVX2 register. Values of this type are made only inside
    /// [`compress8`] and [`compress16`], which run only once AVX2 has been detected.
    #[derive(Clone, Copy)]
    struct V8(__m256i);

    // SAFETY (every block in this impl): the intrinsics need AVX2; a `V8` exists only inside
    // `compress8` and `compress16` (private to this module, `target_feature(enable = "avx2")`),
    // which are called only when `Lanes::Avx2` / `Lanes::Avx2x2` is supported (runtime
    // detection, or a build that enables AVX2), and these always-inline methods are inlined
    // into them.
    impl Word for V8 {
        #[inline(always)]
        fn splat(x: u32) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_set1_epi32(x as i32) })
        }
        #[inline(always)]
        fn add(self, o: V8) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_add_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn and(self, o: V8) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_and_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: V8) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_or_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: V8) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_xor_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn not(self) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi32(-1)) })
        }
        #[inline(always)]
        fn andnot(self, o: V8) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe { _mm256_andnot_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn rotl<const L: i32, const R: i32>(self) -> V8 {
            // SAFETY: see the impl.
            V8(unsafe {
                _mm256_or_si256(
                    _mm256_slli_epi32::<L>(self.0),
                    _mm256_srli_epi32::<R>(self.0),
                )
            })
        }
    }

    /// 16 lanes in two AVX2 registers, every operation applied to both. Values of this type
    /// are made only inside [`compress16`], which runs only once AVX2 has been detected.
    #[derive(Clone, Copy)]
    struct V16(V8, V8);

    // Every method applies `V8`'s to both halves (no `unsafe` of its own).
    impl Word for V16 {
        #[inline(always)]
        fn splat(x: u32) -> V16 {
            V16(V8::splat(x), V8::splat(x))
        }
        #[inline(always)]
        fn add(self, o: V16) -> V16 {
            V16(self.0.add(o.0), self.1.add(o.1))
        }
        #[inline(always)]
        fn and(self, o: V16) -> V16 {
            V16(self.0.and(o.0), self.1.and(o.1))
        }
        #[inline(always)]
        fn or(self, o: V16) -> V16 {
            V16(self.0.or(o.0), self.1.or(o.1))
        }
        #[inline(always)]
        fn xor(self, o: V16) -> V16 {
            V16(self.0.xor(o.0), self.1.xor(o.1))
        }
        #[inline(always)]
        fn not(self) -> V16 {
            V16(self.0.not(), self.1.not())
        }
        #[inline(always)]
        fn andnot(self, o: V16) -> V16 {
            V16(self.0.andnot(o.0), self.1.andnot(o.1))
        }
        #[inline(always)]
        fn rotl<const L: i32, const R: i32>(self) -> V16 {
            V16(self.0.rotl::<L, R>(), self.1.rotl::<L, R>())
        }
    }

    /// The 4-lane compression of one block per lane: the final state (only its word A, in
    /// row 0, unless `ALL`).
    pub(super) fn compress4<const ALL: bool>(words: &[[u32; 4]; 16]) -> [[u32; 4]; 4] {
        let m: [V4; 16] = core::array::from_fn(|k| {
            // SAFETY: `words[k]` is 16 readable bytes; `loadu` has no alignment requirement.
            V4(unsafe { _mm_loadu_si128(words[k].as_ptr().cast()) })
        });
        let init = INIT.map(V4::splat);
        let s = if ALL {
            compress(init, &m)
        } else {
            [compress_a(init, &m); 4]
        };
        let mut out = [[0u32; 4]; 4];
        for (o, v) in out.iter_mut().zip(s).take(if ALL { 4 } else { 1 }) {
            // SAFETY: `o` is 16 writable bytes; `storeu` has no alignment requirement.
            unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), v.0) };
        }
        out
    }

    /// The 8-lane compression of one block per lane (as [`compress4`]).
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn compress8<const ALL: bool>(words: &[[u32; 8]; 16]) -> [[u32; 8]; 4] {
        let m: [V8; 16] = core::array::from_fn(|k| {
            // SAFETY: `words[k]` is 32 readable bytes; `loadu` has no alignment requirement.
            V8(unsafe { _mm256_loadu_si256(words[k].as_ptr().cast()) })
        });
        let init = INIT.map(V8::splat);
        let s = if ALL {
            compress(init, &m)
        } else {
            [compress_a(init, &m); 4]
        };
        let mut out = [[0u32; 8]; 4];
        for (o, v) in out.iter_mut().zip(s).take(if ALL { 4 } else { 1 }) {
            // SAFETY: `o` is 32 writable bytes; `storeu` has no alignment requirement.
            unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), v.0) };
        }
        out
    }

    /// The 16-lane compression of one block per lane (as [`compress4`]; lanes 0..8 in the
    /// first register).
    ///
    /// # Safety
    /// The CPU supports AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn compress16<const ALL: bool>(words: &[[u32; 16]; 16]) -> [[u32; 16]; 4] {
        let m: [V16; 16] = core::array::from_fn(|k| {
            let p = words[k].as_ptr();
            // SAFETY: `words[k]` is 64 readable bytes, two loads of 32 from its start and
            // its middle; `loadu` has no alignment requirement.
            unsafe {
                V16(
                    V8(_mm256_loadu_si256(p.cast())),
                    V8(_mm256_loadu_si256(p.add(8).cast())),
                )
            }
        });
        let init = INIT.map(V16::splat);
        let s = if ALL {
            compress(init, &m)
        } else {
            [compress_a(init, &m); 4]
        };
        let mut out = [[0u32; 16]; 4];
        for (o, v) in out.iter_mut().zip(s).take(if ALL { 4 } else { 1 }) {
            let p = o.as_mut_ptr();
            // SAFETY: `o` is 64 writable bytes, two stores of 32; no alignment requirement.
            unsafe {
                _mm256_storeu_si256(p.cast(), v.0 .0);
                _mm256_storeu_si256(p.add(8).cast(), v.1 .0);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    fn check(msgs: &[&[u8]]) {
        let mut want = std::vec![[0u8; 16]; msgs.len()];
        digest_many(Lanes::Scalar, msgs, &mut want);
        for (m, w) in msgs.iter().zip(&want) {
            assert_eq!(*w, super::super::digest(m));
        }
        for lanes in Lanes::ALL.into_iter().filter(|l| l.is_supported()) {
            let mut got = std::vec![[0u8; 16]; msgs.len()];
            digest_many(lanes, msgs, &mut got);
            assert_eq!(got, want, "{lanes:?}");
        }
    }

    /// Every length 0..=200 in every lane position, batches of every size up to 19.
    #[test]
    fn every_engine_equals_scalar_at_every_length() {
        let data: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in 0..=200usize {
            let msgs: Vec<&[u8]> = (0..19).map(|i| &data[i * 7..i * 7 + len]).collect();
            for n in 0..msgs.len() {
                check(&msgs[..n]);
            }
        }
    }

    proptest! {
        #[test]
        fn random_batches_equal_scalar(
            msgs in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..80), 0..40)
        ) {
            let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
            check(&refs);
        }
    }

    #[test]
    fn sse2_is_always_there_on_x86_64() {
        assert_eq!(Lanes::Sse2.is_supported(), cfg!(target_arch = "x86_64"));
        assert!(Lanes::detect().is_supported());
    }
}
