//! Batch lookups: many keys against one snapshot, a chunk of keys at a time. Each chunk is
//! hashed together (MD5 keys in SIMD lanes, [`Lanes`]; other hashes one key after the
//! other), then, on a large continuum (a coarse index), the lines every search of the chunk
//! will read are fetched at once in two waves (the index entries, then the values and
//! owners of each bucket), so their cache misses overlap instead of following each other;
//! then each key is searched. Either way each key gets exactly the answer
//! [`Ring::locate_index`] gives it.

use alloc::vec::Vec;

use super::compiled::Ring;
use super::continuum::Continuum;
use super::key::{KeyBuf, KeyPoint};
use super::layout::{Layout, WideKey};
use crate::error::Error;
use crate::hash::md5::{self, lanes, lanes::Lanes};
use crate::hash::Hash;
use crate::profile::Bound;

/// Keys hashed and searched together: one compression of the widest MD5 engine (two of
/// the 8-lane one), and about as many searches in flight as a core has cache misses
/// outstanding.
const CHUNK: usize = 16;

/// How a batch gets each key's point.
#[derive(Clone, Copy)]
enum Points {
    /// Placed from the key itself, or by a shortcut: [`Ring::locate_index`] per key.
    PerKey,
    /// The ring's 32-bit key hash, one key after the other.
    Hashed,
    /// The first word of the MD5 digest of the prepared key ([`md5::first_word`]), turned
    /// into the 32-bit key hash by the function.
    Md5Word(fn(u32) -> u32),
    /// The whole MD5 digest of the prepared key as a 128-bit position (uhashring).
    Md5Wide,
}

impl Ring {
    /// How this ring's batch lookups compute key points.
    fn batch_points(&self) -> Points {
        if self.entries.is_empty() || (self.profile.single_shortcut && self.entries.len() == 1) {
            return Points::PerKey;
        }
        match &self.layout {
            Layout::Furc(_) | Layout::Scored(..) | Layout::JumpXxh3 | Layout::Mixed(_) => {
                return Points::PerKey
            }
            Layout::Wide(_, _, WideKey::Md5) => return Points::Md5Wide,
            // a 64-bit key point: the batch passes 32-bit hashes
            Layout::Wide(_, _, WideKey::Hash64(_)) => return Points::PerKey,
            Layout::Slots(s) if s.old_compat() => return Points::PerKey,
            _ => {}
        }
        match self.hash {
            Hash::Md5 | Hash::Election => Points::Md5Word(|w| w),
            Hash::Md5Be => Points::Md5Word(md5::big_endian_of_first),
            Hash::PhpToHash => Points::Md5Word(md5::php_tohash_of_first),
            _ => Points::Hashed,
        }
    }

    /// The continuum whose lines a batch fetches ahead (a large one: coarse index) and the
    /// comparison it is searched by (128-bit positions are searched by their top 32 bits).
    fn fetched_ahead(&self) -> Option<(&Continuum, Bound)> {
        let (c, bound) = match &self.layout {
            Layout::Sorted(c, b) | Layout::TieRuns(c, b, _) => (c, *b),
            Layout::Wide(c, _, WideKey::Md5) => (c, Bound::UpperBound),
            _ => return None,
        };
        c.index.is_coarse().then_some((c, bound))
    }

    /// Looks up every key of `keys` in order, calling `found(i, result)` for key `i` with what
    /// [`Ring::locate_index`] returns for it. MD5-keyed profiles hash the keys in SIMD lanes
    /// ([`Lanes::detect`]). Allocates nothing.
    ///
    /// ```
    /// use ketama_core::{Profile, Ring, Server};
    /// let servers = ["10.0.0.1:11211", "10.0.0.2:11211"].map(|l| Server::parse(l, 1).unwrap());
    /// let ring = Ring::with_servers(Profile::by_name("libketama")?, None, servers)?;
    /// let keys: [&[u8]; 3] = [b"a", b"b", b"c"];
    /// let mut got = vec![0; 3];
    /// ring.locate_batch(keys, |i, r| got[i] = r.unwrap());
    /// assert_eq!(got, keys.map(|k| ring.locate_index(k).unwrap()));
    /// # Ok::<(), ketama_core::Error>(())
    /// ```
    pub fn locate_batch<'k>(
        &self,
        keys: impl IntoIterator<Item = &'k [u8]>,
        found: impl FnMut(usize, Result<usize, Error>),
    ) {
        self.locate_batch_with(Lanes::detect(), keys, found);
    }

    /// [`Ring::locate_batch`] with a chosen MD5 engine (an unsupported one falls back to the
    /// widest supported engine narrower than it; [`Lanes::Scalar`] forces the scalar path).
    pub fn locate_batch_with<'k>(
        &self,
        lanes: Lanes,
        keys: impl IntoIterator<Item = &'k [u8]>,
        mut found: impl FnMut(usize, Result<usize, Error>),
    ) {
        let ahead = self.fetched_ahead();
        match (self.batch_points(), ahead) {
            (Points::Md5Word(of_word), _) => self.batch_md5(
                ahead,
                keys,
                found,
                |msgs, out: &mut [u32]| lanes::first_words_many(lanes, msgs, out),
                |w| KeyPoint::Narrow(of_word(w)),
            ),
            (Points::Md5Wide, _) => self.batch_md5(
                ahead,
                keys,
                found,
                |msgs, out: &mut [[u8; 16]]| lanes::digest_many(lanes, msgs, out),
                |d| KeyPoint::Wide(u128::from_be_bytes(d)),
            ),
            (Points::Hashed, _) => self.batch_hashed(ahead, keys, found),
            (Points::PerKey, _) => {
                for (i, k) in keys.into_iter().enumerate() {
                    found(i, self.locate_index(k));
                }
            }
        }
    }

    /// Batches whose key point comes from the MD5 digest of the prepared key: a chunk of
    /// keys hashed in lanes (`hash`: their first words or whole digests, `D`), their lines
    /// fetched ahead on a large continuum, then searched (`point` makes each key point).
    /// Only plain arrays cross from one pass to the next (hashes, refusals), so no pass
    /// reads back a value the one before stored in pieces.
    fn batch_md5<'k, D: Copy + Default>(
        &self,
        ahead: Option<(&Continuum, Bound)>,
        keys: impl IntoIterator<Item = &'k [u8]>,
        mut found: impl FnMut(usize, Result<usize, Error>),
        hash: impl Fn(&[&[u8]], &mut [D]),
        point: impl Fn(D) -> KeyPoint,
    ) {
        let mut bufs: [KeyBuf; CHUNK] = core::array::from_fn(|_| KeyBuf::new());
        let mut keys = keys.into_iter();
        let mut base = 0usize;
        loop {
            let mut raw: [&[u8]; CHUNK] = [&[]; CHUNK];
            let n = raw
                .iter_mut()
                .zip(keys.by_ref())
                .map(|(s, k)| *s = k)
                .count();
            if n == 0 {
                return;
            }
            let mut msgs: [&[u8]; CHUNK] = [&[]; CHUNK];
            let mut refused: [Option<Error>; CHUNK] = [None; CHUNK];
            let mut zero = [false; CHUNK];
            for (j, (buf, k)) in bufs.iter_mut().zip(&raw[..n]).enumerate() {
                match self.prepare(k, buf) {
                    Ok(p) => {
                        msgs[j] = p.bytes;
                        zero[j] = p.zero;
                    }
                    Err(e) => refused[j] = Some(e),
                }
            }
            let mut hashed = [D::default(); CHUNK];
            hash(&msgs[..n], &mut hashed[..n]);
            // a key that is not hashed keeps hash 0, as `point_of` says
            let point = |j: usize| {
                if zero[j] {
                    KeyPoint::Narrow(0)
                } else {
                    point(hashed[j])
                }
            };
            if let Some((c, bound)) = ahead {
                fetch_ahead(c, (0..n).map(|j| point(j).narrow() ^ bound.flip()));
            }
            for (j, refused) in refused[..n].iter().enumerate() {
                let r = match refused {
                    Some(e) => Err(*e),
                    None => self.locate_point_of(point(j)),
                };
                found(base + j, r);
            }
            base += n;
        }
    }

    /// Batches keyed by a 32-bit hash other than MD5: a chunk of keys hashed one after the
    /// other (their dependency chains overlap when nothing else runs between them), their
    /// lines fetched ahead on a large continuum, then searched.
    fn batch_hashed<'k>(
        &self,
        ahead: Option<(&Continuum, Bound)>,
        keys: impl IntoIterator<Item = &'k [u8]>,
        mut found: impl FnMut(usize, Result<usize, Error>),
    ) {
        let mut buf = KeyBuf::new();
        let mut keys = keys.into_iter();
        let mut base = 0usize;
        loop {
            let mut hashes = [0u32; CHUNK];
            let mut refused: [Option<Error>; CHUNK] = [None; CHUNK];
            let mut n = 0;
            for k in keys.by_ref().take(CHUNK) {
                match self.prepare(k, &mut buf) {
                    Ok(p) => hashes[n] = self.point_of(p).narrow(),
                    Err(e) => refused[n] = Some(e),
                }
                n += 1;
            }
            if n == 0 {
                return;
            }
            if let Some((c, bound)) = ahead {
                fetch_ahead(c, hashes[..n].iter().map(|&h| h ^ bound.flip()));
            }
            for (j, refused) in refused[..n].iter().enumerate() {
                let r = match refused {
                    Some(e) => Err(*e),
                    None => self.locate_point_of(KeyPoint::Narrow(hashes[j])),
                };
                found(base + j, r);
            }
            base += n;
        }
    }

    /// Each key's server index (or error) in order: [`Ring::locate_batch`] into a vector.
    pub fn locate_many<'k>(
        &self,
        keys: impl IntoIterator<Item = &'k [u8]>,
    ) -> Vec<Result<usize, Error>> {
        let mut out = Vec::new();
        self.locate_batch(keys, |_, r| out.push(r));
        out
    }
}

/// Starts fetching, for each searched value of a chunk, the continuum's index entry, then
/// the values and owners of its bucket: two waves, so that every miss of a wave is in
/// flight at once.
#[inline(always)]
fn fetch_ahead(c: &Continuum, searched: impl Iterator<Item = u32> + Clone) {
    for h in searched.clone() {
        c.index.prefetch(h);
    }
    for h in searched {
        c.prefetch_bucket(h);
    }
}
