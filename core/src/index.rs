//! A prefix table over the sorted point values: the top bits of a hash give the slice of the
//! continuum to search, so a lookup touches a few cache lines instead of log2(N) of them.
//!
//! Two densities, chosen by the number of values: up to [`FINE_MAX`] values (every table of
//! the ring fits the core's own caches) about one bucket per value, searched in a window of
//! [`FINE`] values; above it about one bucket per 4 to 8 values, searched in a window of
//! [`COARSE`] values. The coarse table is an eighth of the fine one's size (under the
//! common cap of 2^20 buckets) and mostly cached, so a lookup waits for one line of the
//! values (and of the owners, fetched beside it) rather than for the table and then the
//! values.

use alloc::vec::Vec;

/// Values compared at once in a fine table's bucket.
pub const FINE: usize = 4;
/// Values compared at once in a coarse table's bucket (a 64-byte line of `u32`).
pub const COARSE: usize = 16;
/// The most values a fine table is built for.
pub const FINE_MAX: usize = 1 << 16;

/// Search index over a sorted `&[u32]`.
#[derive(Clone, Debug, Default)]
pub struct SearchIndex {
    shift: u32,
    /// About 4 to 8 values per bucket (else about one).
    coarse: bool,
    /// `starts[b]` = first position whose value's top bits are >= b; one extra sentinel.
    starts: Vec<u32>,
}

impl SearchIndex {
    /// Builds the index for `values` (sorted ascending) into `starts` (its contents are
    /// discarded; its memory is reused when large enough, so a rebuilt index touches no
    /// fresh pages).
    pub fn build_in(values: &[u32], starts: Vec<u32>) -> SearchIndex {
        SearchIndex::build_as(values, starts, coarse(values.len()))
    }

    /// [`SearchIndex::build_in`] at the density asked for.
    fn build_as(values: &[u32], mut starts: Vec<u32>, coarse: bool) -> SearchIndex {
        if values.is_empty() {
            return SearchIndex::default();
        }
        let bits = bits_for(values.len(), coarse);
        let shift = 32 - bits;
        let buckets = 1usize << bits;
        // Count the values per bucket (shifted by one), then prefix-sum: starts[b] = how many
        // values lie in buckets below b. One pass, no branches per bucket.
        if starts.capacity() < buckets + 1 {
            // Fresh zeroed memory (calloc: no explicit clearing).
            starts = alloc::vec![0u32; buckets + 1];
        } else {
            starts.clear();
            starts.resize(buckets + 1, 0);
        }
        for &v in values {
            starts[(v >> shift) as usize + 1] += 1;
        }
        let mut sum = 0u32;
        for s in starts.iter_mut() {
            sum += *s;
            *s = sum;
        }
        SearchIndex {
            shift,
            coarse,
            starts,
        }
    }

    /// The index of the values after a change, from this one (the index of the values
    /// before it): `gone` the values that left, `came` those that arrived (each ascending),
    /// `len` how many values there are after; into `starts` (as [`SearchIndex::build_in`]).
    /// Each bucket start moves by the net count of changes below it, so the new index is
    /// one copy of this one, in runs between changed buckets, without reading the values.
    /// `Err(starts)` when the bucket count changes with `len` (build afresh then).
    pub fn patched_in(
        &self,
        len: usize,
        gone: &[u32],
        came: &[u32],
        mut starts: Vec<u32>,
    ) -> Result<SearchIndex, Vec<u32>> {
        let coarse = coarse(len);
        if len == 0
            || self.starts.is_empty()
            || coarse != self.coarse
            || 32 - bits_for(len, coarse) != self.shift
        {
            return Err(starts);
        }
        let shift = self.shift;
        // A value in bucket k counts in starts[k + 1..]: the delta changes at k + 1. The two
        // ascending lists merged into one ascending walk.
        let bucket = |v: u32| (v >> shift) as usize + 1;
        let (mut g, mut c) = (gone.iter().peekable(), came.iter().peekable());
        let events = core::iter::from_fn(|| match (g.peek(), c.peek()) {
            (Some(&&x), Some(&&y)) if x <= y => g.next().map(|&v| (bucket(v), u32::MAX)),
            (_, Some(_)) => c.next().map(|&v| (bucket(v), 1)),
            (Some(_), None) => g.next().map(|&v| (bucket(v), u32::MAX)),
            (None, None) => None,
        });
        starts.clear();
        starts.reserve(self.starts.len());
        let (mut at, mut delta) = (0usize, 0u32);
        for (b, d) in events {
            let run = self.starts.get(at..b).unwrap_or(&[]);
            starts.extend(run.iter().map(|&x| x.wrapping_add(delta)));
            at = b;
            delta = delta.wrapping_add(d);
        }
        let run = self.starts.get(at..).unwrap_or(&[]);
        starts.extend(run.iter().map(|&x| x.wrapping_add(delta)));
        Ok(SearchIndex {
            shift,
            coarse,
            starts,
        })
    }

    /// The index's memory, for [`SearchIndex::build_in`] to reuse.
    pub fn into_buffer(self) -> Vec<u32> {
        self.starts
    }

    /// The range of positions whose values share `h`'s top bits; every position before it
    /// holds a smaller value, every position after it a larger one.
    #[inline]
    pub fn range(&self, h: u32) -> (usize, usize) {
        let b = (h >> self.shift) as usize;
        match (self.starts.get(b), self.starts.get(b + 1)) {
            (Some(&lo), Some(&hi)) => (lo as usize, hi as usize),
            _ => (0, 0),
        }
    }

    /// Whether buckets hold about 4 to 8 values (searched in windows of [`COARSE`]).
    #[inline]
    pub fn is_coarse(&self) -> bool {
        self.coarse
    }

    /// Starts fetching the table entry `h` reads (for batches: the search comes later).
    #[inline(always)]
    pub fn prefetch(&self, h: u32) {
        prefetch(
            self.starts
                .as_ptr()
                .wrapping_add((h >> self.shift) as usize),
        );
    }

    /// The first position of `values` (the sorted values this index was built over) whose
    /// value is `>= h` (`UPPER` false) or `> h` (`UPPER` true); may be `values.len()`.
    ///
    /// A bucket holds a few values, so the common case compares a fixed window of values
    /// from the bucket's start ([`FINE`] or [`COARSE`] of them) and counts the smaller ones,
    /// without a branch per value: values past the bucket's end have larger top bits than
    /// `h`, so they never count. Buckets with more values, or too near the end of `values`,
    /// take a binary search of the bucket.
    #[inline]
    pub fn search<const UPPER: bool>(&self, values: &[u32], h: u32) -> usize {
        let (lo, hi) = self.range(h);
        if self.coarse {
            if let Some(w) = window::<COARSE>(values, lo, hi) {
                return lo + below::<COARSE, UPPER>(w, h);
            }
        } else if let Some(w) = window::<FINE>(values, lo, hi) {
            return lo + below::<FINE, UPPER>(w, h);
        }
        let bucket = values.get(lo..hi).unwrap_or(&[]);
        lo + bucket.partition_point(|&v| if UPPER { v <= h } else { v < h })
    }
}

/// The `W` values from `lo` when the bucket `lo..hi` holds fewer than `W` values and the
/// window fits in `values` (so the answer lies inside the window).
#[inline(always)]
pub fn window<const W: usize>(values: &[u32], lo: usize, hi: usize) -> Option<&[u32; W]> {
    if hi.wrapping_sub(lo) < W {
        values.get(lo..lo + W)?.try_into().ok()
    } else {
        None
    }
}

/// How many of `w` are `< h` (`UPPER` false) or `<= h` (`UPPER` true): for a sorted window,
/// the position of the first value `>= h` (`> h`) in it.
#[inline(always)]
pub fn below<const W: usize, const UPPER: bool>(w: &[u32; W], h: u32) -> usize {
    w.iter()
        .map(|&v| usize::from(if UPPER { v <= h } else { v < h }))
        .sum()
}

/// Starts fetching the cache line holding `p` into every cache level; nothing on targets
/// without a prefetch instruction here.
#[inline(always)]
#[allow(unsafe_code)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::{_mm_prefetch, _MM_HINT_T0};
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint: it reads nothing the program sees and never faults,
        // whatever the address (SSE, part of every x86_64 target).
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>())
        };
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
    let _ = p;
}

/// Whether `len` values get a coarse table.
fn coarse(len: usize) -> bool {
    len > FINE_MAX
}

/// Bucket bits for `len` values: about one bucket per value, or per 4 to 8 values in a
/// coarse table; at most 2^20 buckets.
fn bits_for(len: usize, coarse: bool) -> u32 {
    let bits = usize::BITS - len.leading_zeros();
    let bits = if coarse { bits.saturating_sub(3) } else { bits };
    bits.clamp(1, 20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn ranges_bracket_every_hash(mut v in proptest::collection::vec(any::<u32>(), 1..300), h in any::<u32>()) {
            v.sort_unstable();
            for coarse in [false, true] {
                let idx = SearchIndex::build_as(&v, Vec::new(), coarse);
                let (lo, hi) = idx.range(h);
                let want = v.partition_point(|&x| x < h);
                let got = lo + v[lo..hi].partition_point(|&x| x < h);
                prop_assert_eq!(got, want);
                prop_assert_eq!(idx.search::<false>(&v, h), want);
                prop_assert_eq!(idx.search::<true>(&v, h), v.partition_point(|&x| x <= h));
            }
        }

        /// Dense runs of equal and neighbouring values: buckets larger than the window, and
        /// windows at the very end.
        #[test]
        fn search_in_crowded_buckets(mut v in proptest::collection::vec(0u32..64, 1..40), h in 0u32..70, top in any::<u32>()) {
            let base = top & 0xFFFF_0000;
            for x in v.iter_mut() {
                *x += base;
            }
            v.sort_unstable();
            let h = base.wrapping_add(h);
            for coarse in [false, true] {
                let idx = SearchIndex::build_as(&v, Vec::new(), coarse);
                prop_assert_eq!(idx.search::<false>(&v, h), v.partition_point(|&x| x < h));
                prop_assert_eq!(idx.search::<true>(&v, h), v.partition_point(|&x| x <= h));
            }
        }

        /// An index patched after a change equals the index built from the changed values.
        #[test]
        fn patched_equals_built(
            v in proptest::collection::vec(any::<u32>(), 1..400),
            gone in proptest::collection::vec(any::<prop::sample::Index>(), 0..40),
            mut came in proptest::collection::vec(any::<u32>(), 0..40),
        ) {
            let mut before = v.clone();
            before.sort_unstable();
            let mut after = before.clone();
            let mut out: Vec<usize> = gone.iter().map(|i| i.index(after.len())).collect();
            out.sort_unstable();
            out.dedup();
            let mut gone_values: Vec<u32> = out.iter().map(|&i| after[i]).collect();
            for &i in out.iter().rev() {
                after.remove(i);
            }
            after.extend_from_slice(&came);
            after.sort_unstable();
            gone_values.sort_unstable();
            came.sort_unstable();
            let old = SearchIndex::build_in(&before, Vec::new());
            let built = SearchIndex::build_in(&after, Vec::new());
            match old.patched_in(after.len(), &gone_values, &came, Vec::new()) {
                Ok(p) => {
                    prop_assert_eq!(p.shift, built.shift);
                    prop_assert_eq!(p.starts, built.starts);
                }
                Err(_) => prop_assert!(after.is_empty() || built.shift != old.shift),
            }
        }
    }
}
