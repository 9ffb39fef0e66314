//! pecl memcache's consistent strategy: a continuum searched lower-bound, read through a
//! table of 1,024 buckets (`bucket[b]` = owner of the first point >= `b * 4194303`); a key
//! goes to `bucket[h % 1024]`.

use alloc::vec::Vec;

use super::continuum::Continuum;

/// pecl memcache's bucket spacing: `0xFFFFFFFF / 1024`.
const STEP: u32 = 0xFFFF_FFFF / 1024;
/// pecl memcache's bucket count.
pub(super) const BUCKETS: u32 = 1024;

/// The continuum and its bucket table.
#[derive(Clone, Debug, Default)]
pub(super) struct PeclTable {
    pub(super) continuum: Continuum,
    /// `buckets[b]` = owner of the first point >= `b * STEP` (wrapping); empty when the
    /// continuum is.
    buckets: Vec<u32>,
}

impl PeclTable {
    /// The table of `c`.
    pub(super) fn new(c: Continuum) -> PeclTable {
        let buckets = if c.values.is_empty() {
            Vec::new()
        } else {
            (0..BUCKETS)
                .map(|b| c.owners[c.lower_bound(b.wrapping_mul(STEP)) % c.len()])
                .collect()
        };
        PeclTable {
            continuum: c,
            buckets,
        }
    }

    /// The owner of key hash `h`, if the table has any.
    #[inline]
    pub(super) fn owner(&self, h: u32) -> Option<usize> {
        self.buckets
            .get((h % BUCKETS) as usize)
            .map(|&o| o as usize)
    }

    /// The continuum position key hash `h`'s bucket reads (where a walk for the next
    /// servers starts).
    pub(super) fn start(&self, h: u32) -> usize {
        let c = &self.continuum;
        c.lower_bound((h % BUCKETS).wrapping_mul(STEP)) % c.len().max(1)
    }
}
