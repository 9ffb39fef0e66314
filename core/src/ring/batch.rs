//! Batch lookups: many keys against one snapshot. On profiles whose key point is an MD5
//! digest of the (rewritten) key, the keys are hashed several at a time in SIMD lanes
//! ([`Lanes`]); every other profile looks each key up on its own. Either way each key gets
//! exactly the answer [`Ring::locate_index`] gives it.

use alloc::vec::Vec;

use super::compiled::Ring;
use super::key::{KeyBuf, KeyPoint};
use super::layout::{Layout, WideKey};
use crate::error::Error;
use crate::hash::md5::{self, lanes, lanes::Lanes};
use crate::hash::Hash;

/// Keys prepared and hashed together (the widest engine's lane count).
const CHUNK: usize = 8;

impl Ring {
    /// How a key's digest becomes its key point, when this ring's lookup is "MD5 the
    /// prepared key, then search" (and no shortcut applies); `None` otherwise.
    fn digest_point(&self) -> Option<fn(&[u8; 16]) -> KeyPoint> {
        if self.entries.is_empty() || (self.profile.single_shortcut && self.entries.len() == 1) {
            return None;
        }
        match &self.layout {
            Layout::Furc(_) | Layout::Scored(..) | Layout::JumpXxh3 => return None,
            Layout::Wide(_, _, WideKey::Md5) => {
                return Some(|d| KeyPoint::Wide(u128::from_be_bytes(*d)))
            }
            Layout::Wide(_, _, WideKey::Hash64(_)) => return None,
            Layout::Slots(s) if s.old_compat() => return None,
            _ => {}
        }
        match self.hash {
            Hash::Md5 | Hash::Election => Some(|d| KeyPoint::Narrow(md5::word_le(d, 0))),
            Hash::Md5Be => Some(|d| KeyPoint::Narrow(md5::big_endian_of(d))),
            Hash::PhpToHash => Some(|d| KeyPoint::Narrow(md5::php_tohash_of(d))),
            _ => None,
        }
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
        let Some(point_of) = self.digest_point() else {
            for (i, k) in keys.into_iter().enumerate() {
                found(i, self.locate_index(k));
            }
            return;
        };
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
            let mut digests = [[0u8; 16]; CHUNK];
            lanes::digest_many(lanes, &msgs[..n], &mut digests[..n]);
            for j in 0..n {
                let r = match refused[j] {
                    Some(e) => Err(e),
                    // the key is not hashed: hash 0, as `point_of` says
                    None if zero[j] => self.locate_point_of(KeyPoint::Narrow(0)),
                    None => self.locate_point_of(point_of(&digests[j])),
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
