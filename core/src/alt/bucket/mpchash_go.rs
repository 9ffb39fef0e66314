//! dgryski/go-mpchash: Appleton & O'Reilly's multi-probe consistent hashing ("Multi-probe
//! consistent hashing", 2015) as
//! `mpchash.New(["shard-1".."shard-N"], siphash64seed, [2]uint64{1, 2}, 21).Hash(key)` with
//! `siphash64seed(b, s) = siphash.Hash(s, 0, b)` (go-mpchash's own compatibility test setup) and
//! the key = the input's decimal text.
//!
//! Each shard sits on a 64-bit circle at SipHash(0, 0, name). A key makes 21 probes
//! `h1 + i * h2` (SipHash with seeds 1 and 2, wrapping); each probe's successor is the first
//! shard strictly above it (wrapping to the lowest), and the key goes to the successor at the
//! smallest clockwise distance, the first probe winning ties. go-mpchash bins shards by hash
//! prefix to speed the search up; a sorted list with binary search gives the same successor.
//! Two shards with the same hash: the later name wins, as in go-mpchash's map.

use alloc::vec::Vec;

use super::siphash::siphash24;
use super::DecimalText;

/// Probes per key.
pub const PROBES: u64 = 21;

/// The shards' points, sorted, each with its (0-based) bucket index.
#[derive(Clone, Debug)]
pub struct Circle {
    points: Vec<(u64, u32)>,
}

impl Circle {
    /// The circle for `buckets` shards named `shard-1` .. `shard-<buckets>`.
    pub fn new(buckets: u32) -> Self {
        let mut points: Vec<(u64, u32)> = (0..buckets)
            .map(|i| {
                let mut name = DecimalText::with_prefix(b"shard-");
                name.push_u64(u64::from(i) + 1);
                (siphash24(0, 0, name.as_bytes()), i)
            })
            .collect();
        // Sort by hash, and for equal hashes keep only the last name (highest index).
        points.sort_unstable();
        points.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                *earlier = *later;
                true
            } else {
                false
            }
        });
        Circle { points }
    }

    /// The first shard point strictly above `hash`, wrapping to the lowest.
    fn successor(&self, hash: u64) -> Option<u64> {
        let i = self.points.partition_point(|&(p, _)| p <= hash);
        self.points
            .get(i)
            .or_else(|| self.points.first())
            .map(|&(p, _)| p)
    }

    /// The bucket of `input`; `None` only in go-mpchash's degenerate case where no probe is
    /// closer than 2^64 - 1 and no shard hashes to 0 (Go returns the empty string there).
    pub fn lookup(&self, input: u64) -> Option<u32> {
        let mut key = DecimalText::with_prefix(b"");
        key.push_u64(input);
        let h1 = siphash24(1, 0, key.as_bytes());
        let h2 = siphash24(2, 0, key.as_bytes());
        let mut best_distance = u64::MAX;
        let mut best = 0u64;
        for i in 0..PROBES {
            let probe = h1.wrapping_add(i.wrapping_mul(h2));
            let node = self.successor(probe)?;
            let distance = node.wrapping_sub(probe);
            if distance < best_distance {
                best_distance = distance;
                best = node;
            }
        }
        let i = self.points.binary_search_by_key(&best, |&(p, _)| p).ok()?;
        self.points.get(i).map(|&(_, b)| b)
    }
}
