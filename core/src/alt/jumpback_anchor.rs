//! JumpBackAnchorHash (Ertl 2025, in hash4j): AnchorHash's removed-bucket bookkeeping on top of
//! JumpBackHash, as hash4j ships it:
//! `ConsistentHashing.jumpBackAnchorHash(PseudoRandomGeneratorProvider.splitMix64_V1())`.
//!
//! Buckets are numbers. [`JumpBackAnchor::add_bucket`] takes back the most recently removed
//! bucket, or grows the range `0..a` by one; [`JumpBackAnchor::remove_bucket`] removes any
//! bucket. A key (a 64-bit hash) seeds SplitMix64, takes JumpBackHash's bucket in `0..a`, and
//! while that bucket is removed, draws a position uniformly (Lemire's method on 32-bit draws)
//! among the working buckets as they were right after its removal, following the buckets that
//! replaced removed ones (AnchorHash's `K`, stored as an offset). Removing a bucket moves only
//! its keys; adding one moves only keys to it. The answers depend only on the sequence of adds
//! and removes, so processes that apply the same sequence agree, with hash4j too (vectors
//! recorded from hash4j in `tests/vectors/jumpback-anchor/`).

use alloc::vec::Vec;

use crate::alt::bucket::jumpback::{walk, SplitMix64};
use crate::error::Error;

/// A state [`JumpBackAnchor::from_state`] cannot read (hash4j throws
/// `IllegalArgumentException("Illegal state!")` for the same ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadState;

impl core::fmt::Display for BadState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("malformed JumpBackAnchorHash state")
    }
}

impl core::error::Error for BadState {}

/// What is remembered about a removed bucket (all zero for a working one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// The bucket that took this one's place, as an offset from it (AnchorHash's `K[b] - b`).
    offset: i32,
    /// The number of working buckets right after this one was removed (AnchorHash's `A[b]`).
    working: u32,
}

/// A JumpBackAnchorHash bucket set.
#[derive(Clone, Debug, Default)]
pub struct JumpBackAnchor {
    /// Buckets ever in use at once: the range `0..a` (the paper's `a`).
    a: u32,
    /// Removed buckets, most recent last.
    removed: Vec<u32>,
    /// Per bucket below its length: what is remembered if it is removed.
    slots: Vec<Slot>,
}

impl JumpBackAnchor {
    /// An empty set (add buckets with [`JumpBackAnchor::add_bucket`]).
    pub fn new() -> Self {
        JumpBackAnchor::default()
    }

    /// A set of buckets `0..n`.
    pub fn with_buckets(n: u32) -> Result<Self, Error> {
        if n > i32::MAX as u32 {
            return Err(Error::TooManyBuckets);
        }
        Ok(JumpBackAnchor {
            a: n,
            ..JumpBackAnchor::default()
        })
    }

    /// The number of working buckets.
    pub fn len(&self) -> u32 {
        self.a - self.removed.len() as u32
    }

    /// Whether no bucket works.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether bucket `b` is working.
    pub fn contains(&self, b: u32) -> bool {
        b < self.a && !self.is_removed(b)
    }

    /// The working buckets, ascending.
    pub fn buckets(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.a).filter(|&b| !self.is_removed(b))
    }

    fn is_removed(&self, b: u32) -> bool {
        self.slots
            .get(b as usize)
            .is_some_and(|s| *s != Slot::default())
    }

    /// Adds a bucket: the most recently removed one, else `a` (the range grows); returns it.
    /// `Error::TooManyBuckets` past 2^31 - 1 buckets.
    pub fn add_bucket(&mut self) -> Result<u32, Error> {
        if let Some(b) = self.removed.pop() {
            self.slots[b as usize] = Slot::default();
            return Ok(b);
        }
        if self.a >= i32::MAX as u32 {
            return Err(Error::TooManyBuckets);
        }
        self.a += 1;
        Ok(self.a - 1)
    }

    /// Removes bucket `b`; false when it is not a working bucket. Removing the last working
    /// bucket empties the set; removing the highest bucket when nothing else is removed shrinks
    /// the range (as hash4j does).
    pub fn remove_bucket(&mut self, b: u32) -> bool {
        if !self.contains(b) {
            return false;
        }
        if self.len() == 1 {
            *self = JumpBackAnchor::default();
        } else if b == self.a - 1 && self.removed.is_empty() {
            self.a -= 1;
        } else {
            self.removed.push(b);
            let n = self.len();
            let h = self.at_view(n, n + 1);
            if self.slots.len() <= b as usize {
                self.slots.resize(b as usize + 1, Slot::default());
            }
            self.slots[b as usize] = Slot {
                offset: h as i32 - b as i32,
                working: n,
            };
        }
        true
    }

    /// The state as hash4j's `getState()` writes it: `a`, then each removed bucket in removal
    /// order, all as little-endian 32-bit integers. [`JumpBackAnchor::from_state`] reads it.
    pub fn state(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 4 * self.removed.len());
        out.extend_from_slice(&self.a.to_le_bytes());
        for b in &self.removed {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// A set from [`JumpBackAnchor::state`] (or hash4j's `getState()`), as hash4j's
    /// `setState` rebuilds it. [`BadState`] for a malformed state (length not 4 + 4k, a
    /// negative `a`, a removed bucket out of range or repeated).
    pub fn from_state(state: &[u8]) -> Result<Self, BadState> {
        if state.len() < 4 || state.len() % 4 != 0 {
            return Err(BadState);
        }
        let word =
            |i: usize| u32::from_le_bytes([state[i], state[i + 1], state[i + 2], state[i + 3]]);
        let a = word(0);
        if a > i32::MAX as u32 {
            return Err(BadState);
        }
        let removed: Vec<u32> = (4..state.len()).step_by(4).map(word).collect();
        if removed.len() > a as usize {
            return Err(BadState);
        }
        let top = removed.iter().copied().max().map_or(0, |m| m as usize + 1);
        let mut set = JumpBackAnchor {
            a,
            removed: Vec::with_capacity(removed.len()),
            slots: alloc::vec![Slot::default(); top],
        };
        for (r, &b) in removed.iter().enumerate() {
            if b >= a || set.slots[b as usize] != Slot::default() {
                return Err(BadState);
            }
            let n = a - 1 - r as u32;
            let h = set.at_view(n, n + 1);
            set.slots[b as usize] = Slot {
                offset: h as i32 - b as i32,
                working: n,
            };
            set.removed.push(b);
        }
        Ok(set)
    }

    /// Position `b` as seen by a view of `v` working buckets: follow the replacements of
    /// buckets that were removed while at least `v` buckets worked.
    fn at_view(&self, mut b: u32, v: u32) -> u32 {
        while let Some(s) = self.slots.get(b as usize) {
            if s.working < v {
                break;
            }
            b = (b as i32 + s.offset) as u32;
        }
        b
    }

    /// The bucket of `hash`: hash4j's `getBucket(hash)`. `Error::EmptyRing` when no bucket
    /// works.
    pub fn bucket(&self, hash: u64) -> Result<u32, Error> {
        if self.is_empty() {
            return Err(Error::EmptyRing);
        }
        if self.a <= 1 {
            return Ok(0);
        }
        let mut rng = SplitMix64(hash);
        let mut b = walk(&mut rng, self.a);
        while let Some(s) = self.slots.get(b as usize) {
            if s.working == 0 {
                break;
            }
            b = self.at_view(uniform(&mut rng, s.working), s.working);
        }
        Ok(b)
    }
}

/// hash4j's `uniformInt(bound)`: Lemire's multiply-shift on the low 32 bits of each draw,
/// rejecting the biased low products; `bound` in `1..2^31`.
fn uniform(rng: &mut SplitMix64, bound: u32) -> u32 {
    let s = u64::from(bound);
    let mut m = u64::from(rng.next() as u32) * s;
    if (m & 0xffff_ffff) < s {
        let t = (1u64 << 32) % s;
        while (m & 0xffff_ffff) < t {
            m = u64::from(rng.next() as u32) * s;
        }
    }
    (m >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alt::bucket::jumpback::jumpback;

    #[test]
    fn without_removals_it_is_jumpback() {
        let set = JumpBackAnchor::with_buckets(37).unwrap();
        for k in 0..2000u64 {
            let k = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            assert_eq!(set.bucket(k).unwrap(), jumpback(k, 37));
        }
    }

    #[test]
    fn removing_moves_only_its_keys_and_re_adding_restores() {
        let mut set = JumpBackAnchor::with_buckets(20).unwrap();
        let keys: Vec<u64> = (0..3000u64)
            .map(|k| k.wrapping_mul(0xBF58_476D_1CE4_E5B9))
            .collect();
        let before: Vec<u32> = keys.iter().map(|&k| set.bucket(k).unwrap()).collect();
        assert!(set.remove_bucket(7));
        assert!(!set.remove_bucket(7));
        assert!(set.remove_bucket(3));
        for (&k, &b) in keys.iter().zip(&before) {
            let now = set.bucket(k).unwrap();
            assert!(set.contains(now));
            if b != 7 && b != 3 {
                assert_eq!(now, b);
            }
        }
        assert_eq!(set.add_bucket().unwrap(), 3);
        assert_eq!(set.add_bucket().unwrap(), 7);
        for (&k, &b) in keys.iter().zip(&before) {
            assert_eq!(set.bucket(k).unwrap(), b);
        }
    }

    #[test]
    fn empties_and_shrinks() {
        let mut set = JumpBackAnchor::new();
        assert_eq!(set.bucket(1), Err(Error::EmptyRing));
        assert_eq!(set.add_bucket().unwrap(), 0);
        assert_eq!(set.add_bucket().unwrap(), 1);
        assert!(set.remove_bucket(1));
        assert_eq!(set.buckets().collect::<Vec<_>>(), [0]);
        assert!(set.remove_bucket(0));
        assert!(set.is_empty());
        assert_eq!(set.bucket(1), Err(Error::EmptyRing));
    }
}
