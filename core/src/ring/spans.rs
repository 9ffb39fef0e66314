//! Each server's owned arcs of the key-hash space, derived from the search rules themselves
//! (so tools never re-implement a rule): every search is a step function of the key hash
//! whose steps sit at a point's position or just after it (or at 1, go-ketama's zero rule), so evaluating the real search at
//! those places gives the exact ownership map.

use alloc::vec::Vec;

use super::compiled::Ring;
use super::key::{wide64, KeyPoint};
use super::layout::{Layout, WideKey};
use super::pecl::BUCKETS as PECL_BUCKETS;
use crate::hash::Hash;
use crate::profile::Bound;

/// What the numbers of a [`Spans`] count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Key hash values.
    Hash,
    /// pecl memcache's 1,024 buckets (`hash % 1024`).
    Bucket,
}

/// A stretch `[start, end)` of the key space and the index of the server that owns it
/// (`None` where no server does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First value (inclusive).
    pub start: u64,
    /// End (exclusive).
    pub end: u64,
    /// Owning server's index, if any.
    pub owner: Option<usize>,
}

/// Who owns which part of the key space, as contiguous spans covering `[0, space)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spans {
    /// What the numbers count.
    pub unit: Unit,
    /// Size of the space (key hashes lie in `[0, space)`).
    pub space: u64,
    /// Contiguous spans, ascending, neighbours with the same owner merged.
    pub spans: Vec<Span>,
    /// True where the map is shown at 32-bit resolution of a finer ring (uhashring's 128-bit
    /// positions).
    pub approximate: bool,
}

/// Where a key hash's values fall.
fn key_space(h: Hash) -> u64 {
    match h {
        Hash::Crc => 1 << 15,
        Hash::PhpToHash => 1 << 31,
        _ => 1 << 32,
    }
}

fn push(out: &mut Vec<Span>, start: u64, end: u64, owner: Option<usize>) {
    if start >= end {
        return;
    }
    match out.last_mut() {
        Some(prev) if prev.owner == owner && prev.end == start => prev.end = end,
        _ => out.push(Span { start, end, owner }),
    }
}

impl Ring {
    /// The ownership map of a ring profile's key space; `None` for modulo, jump, rendezvous
    /// and maglev, whose placement is not a set of arcs.
    ///
    /// ```
    /// use ketama_core::{Profile, Ring, Server};
    /// let servers = ["10.0.0.1:11211", "10.0.0.2:11211"].map(|l| Server::parse(l, 1).unwrap());
    /// let ring = Ring::with_servers(Profile::by_name("libketama")?, None, servers)?;
    /// let map = ring.spans().unwrap();
    /// assert_eq!(map.spans.first().unwrap().start, 0);
    /// assert_eq!(map.spans.last().unwrap().end, 1 << 32);
    /// # Ok::<(), ketama_core::Error>(())
    /// ```
    pub fn spans(&self) -> Option<Spans> {
        let single = self.profile.single_shortcut && self.entries.len() == 1;
        match &self.layout {
            Layout::Buckets(..) => {
                let mut spans = Vec::new();
                for b in 0..u64::from(PECL_BUCKETS) {
                    let owner = if single {
                        Some(0)
                    } else {
                        self.locate_point_of(KeyPoint::Narrow(b as u32)).ok()
                    };
                    push(&mut spans, b, b + 1, owner);
                }
                Some(Spans {
                    unit: Unit::Bucket,
                    space: u64::from(PECL_BUCKETS),
                    spans,
                    approximate: false,
                })
            }
            Layout::Sorted(c, _) | Layout::Wide(c, ..) | Layout::TieRuns(c, _, _) => {
                let space = key_space(self.hash);
                let wide = match self.layout {
                    Layout::Wide(_, _, key) => Some(key),
                    _ => None,
                };
                let mut cuts: Vec<u64> = Vec::with_capacity(2 * c.values.len() + 1);
                // 0 and 1: go-ketama sends a key hash of exactly 0 to the last point.
                cuts.extend([0, 1]);
                // Signed rings store positions sign-flipped: their steps sit at the flipped
                // values, and the order wraps at 2^31.
                let flip = self.layout.bound().map_or(0, Bound::flip);
                if flip != 0 {
                    cuts.push(1 << 31);
                }
                for &v in &c.values {
                    cuts.push(u64::from(v ^ flip));
                    cuts.push(u64::from(v ^ flip) + 1);
                }
                cuts.retain(|&x| x < space);
                cuts.sort_unstable();
                cuts.dedup();
                let owner_of = |h: u64| {
                    if single {
                        return Some(0);
                    }
                    // Every key whose top 32 bits are `h`, at the 32-bit resolution.
                    let k = match wide {
                        Some(WideKey::Md5) => {
                            KeyPoint::Wide((u128::from(h) << 96) | ((1u128 << 96) - 1))
                        }
                        Some(WideKey::Hash64(b)) => {
                            KeyPoint::Wide(wide64((h << 32) | u64::from(u32::MAX), b.flip64()))
                        }
                        None => KeyPoint::Narrow(h as u32),
                    };
                    self.locate_point_of(k).ok()
                };
                let mut spans = Vec::new();
                for (i, &start) in cuts.iter().enumerate() {
                    let end = cuts.get(i + 1).copied().unwrap_or(space);
                    push(&mut spans, start, end, owner_of(start));
                }
                Some(Spans {
                    unit: Unit::Hash,
                    space,
                    spans,
                    approximate: wide.is_some(),
                })
            }
            Layout::Slots(_)
            | Layout::Jump
            | Layout::Furc(_)
            | Layout::Rendezvous
            | Layout::Scored(..)
            | Layout::JumpXxh3
            | Layout::Mixed(_)
            | Layout::Scaled(_)
            | Layout::Maglev(_) => None,
        }
    }
}
