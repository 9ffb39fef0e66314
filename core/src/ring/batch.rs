//! Batch lookups: many keys against one snapshot, a chunk of keys at a time. Each chunk is
//! hashed together (MD5 keys in SIMD lanes, [`Lanes`]; other hashes one key after the
//! other), then, on a large continuum (a coarse index), the lines every search of the chunk
//! will read are fetched at once in two waves (the index entries, then the values and
//! owners of each bucket), so their cache misses overlap instead of following each other;
//! then each key is searched. On a small continuum (whose lines are cached) with a hash
//! that is not MD5 there is nothing to overlap, and the keys go one by one. Either way each
//! key gets exactly the answer [`Ring::locate_index`] gives it.

use alloc::vec::Vec;

use super::compiled::Ring;
use super::continuum::Continuum;
use super::key::{KeyBuf, KeyPoint};
use super::layout::Layout;
use crate::error::Error;
use crate::hash::md5::{self, lanes, lanes::Lanes};
use crate::hash::Hash;
use crate::profile::Bound;

/// Keys hashed and searched together: two compressions of the widest MD5 engine, and as
/// many searches in flight as a core has cache misses outstanding.
const CHUNK: usize = 16;

/// How a batch gets each key's point.
#[derive(Clone, Copy)]
enum Points {
    /// Placed from the key itself, or by a shortcut: [`Ring::locate_index`] per key.
    PerKey,
    /// The ring's key hash, one key at a time.
    Hashed,
    /// The MD5 digest of the prepared key, turned into the key point by the function.
    Digest(fn(&[u8; 16]) -> KeyPoint),
}

impl Ring {
    /// How this ring's batch lookups compute key points.
    fn batch_points(&self) -> Points {
        if self.entries.is_empty() || (self.profile.single_shortcut && self.entries.len() == 1) {
            return Points::PerKey;
        }
        match &self.layout {
            Layout::Furc(_) | Layout::Scored(..) | Layout::JumpXxh3 => return Points::PerKey,
            Layout::Wide(..) => return Points::Digest(|d| KeyPoint::Wide(u128::from_be_bytes(*d))),
            Layout::Slots(s) if s.old_compat() => return Points::Hashed,
            _ => {}
        }
        match self.hash {
            Hash::Md5 | Hash::Election => Points::Digest(|d| KeyPoint::Narrow(md5::word_le(d, 0))),
            Hash::Md5Be => Points::Digest(|d| KeyPoint::Narrow(md5::big_endian_of(d))),
            Hash::PhpToHash => Points::Digest(|d| KeyPoint::Narrow(md5::php_tohash_of(d))),
            _ => Points::Hashed,
        }
    }

    /// The continuum whose lines a batch fetches ahead (a large one: coarse index) and the
    /// comparison it is searched by (128-bit positions are searched by their top 32 bits).
    fn fetched_ahead(&self) -> Option<(&Continuum, Bound)> {
        let (c, bound) = match &self.layout {
            Layout::Sorted(c, b) | Layout::TieRuns(c, b, _) => (c, *b),
            Layout::Wide(c, _) => (c, Bound::UpperBound),
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
        let how = match self.batch_points() {
            // Nothing to overlap: a chunk would only add copying to the key-by-key path.
            Points::Hashed if ahead.is_none() => Points::PerKey,
            how => how,
        };
        if let Points::PerKey = how {
            for (i, k) in keys.into_iter().enumerate() {
                found(i, self.locate_index(k));
            }
            return;
        }
        let lanes = lanes.or_supported();
        let mut bufs: [KeyBuf; CHUNK] = core::array::from_fn(|_| KeyBuf::new());
        let mut keys = keys.into_iter();
        let mut base = 0usize;
        loop {
            let mut raw: [&[u8]; CHUNK] = [&[]; CHUNK];
            let mut n = 0;
            for (slot, k) in raw.iter_mut().zip(keys.by_ref()) {
                *slot = k;
                n += 1;
            }
            if n == 0 {
                return;
            }
            let mut points = [Err(Error::NoServer); CHUNK];
            self.chunk_points(how, lanes, &raw[..n], &mut bufs, &mut points[..n]);
            if let Some((c, bound)) = ahead {
                let searched = |p: &Result<KeyPoint, Error>| {
                    p.as_ref().ok().map(|k| k.narrow() ^ bound.flip())
                };
                for h in points[..n].iter().filter_map(searched) {
                    c.index.prefetch(h);
                }
                for h in points[..n].iter().filter_map(searched) {
                    c.prefetch_bucket(h);
                }
            }
            for (j, p) in points[..n].iter().enumerate() {
                found(base + j, p.and_then(|k| self.locate_point_of(k)));
            }
            base += n;
        }
    }

    /// The key points of one chunk of keys (or why a key has none), hashed as `how` says.
    fn chunk_points(
        &self,
        how: Points,
        lanes: Lanes,
        raw: &[&[u8]],
        bufs: &mut [KeyBuf; CHUNK],
        points: &mut [Result<KeyPoint, Error>],
    ) {
        match how {
            Points::Digest(point_of) => {
                let mut msgs: [&[u8]; CHUNK] = [&[]; CHUNK];
                let mut zero = [false; CHUNK];
                for (j, (buf, k)) in bufs.iter_mut().zip(raw).enumerate() {
                    match self.prepare(k, buf) {
                        Ok(p) => {
                            msgs[j] = p.bytes;
                            zero[j] = p.zero;
                            points[j] = Ok(KeyPoint::Narrow(0));
                        }
                        Err(e) => points[j] = Err(e),
                    }
                }
                let mut digests = [[0u8; 16]; CHUNK];
                lanes::digest_many(lanes, &msgs[..raw.len()], &mut digests[..raw.len()]);
                for (j, p) in points.iter_mut().enumerate() {
                    // a key that is not hashed keeps hash 0, as `point_of` says
                    if p.is_ok() && !zero[j] {
                        *p = Ok(point_of(&digests[j]));
                    }
                }
            }
            Points::Hashed | Points::PerKey => {
                for ((p, buf), k) in points.iter_mut().zip(bufs.iter_mut()).zip(raw) {
                    *p = self.prepare(k, buf).map(|key| self.point_of(key));
                }
            }
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
