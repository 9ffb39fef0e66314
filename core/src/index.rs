//! A prefix table over the sorted point values: the top bits of a hash give the slice of the
//! continuum to binary-search, so a lookup touches a few cache lines instead of log2(N) of them.

use alloc::vec::Vec;

/// Search index over a sorted `&[u32]`.
#[derive(Clone, Debug, Default)]
pub struct SearchIndex {
    shift: u32,
    /// `starts[b]` = first position whose value's top bits are >= b; one extra sentinel.
    starts: Vec<u32>,
}

impl SearchIndex {
    /// Builds the index for `values` (sorted ascending): about one bucket per point.
    #[allow(dead_code)]
    pub fn build(values: &[u32]) -> SearchIndex {
        SearchIndex::build_in(values, Vec::new())
    }

    /// [`SearchIndex::build`] into `buffer` (its contents are discarded; its memory is
    /// reused when large enough, so a rebuilt index touches no fresh pages).
    pub fn build_in(values: &[u32], mut starts: Vec<u32>) -> SearchIndex {
        if values.is_empty() {
            return SearchIndex::default();
        }
        let bits = bits_for(values.len());
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
        SearchIndex { shift, starts }
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
        if len == 0 || self.starts.is_empty() || 32 - bits_for(len) != self.shift {
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
        Ok(SearchIndex { shift, starts })
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

    /// The first position of `values` (the sorted values this index was built over) whose
    /// value is `>= h` (`UPPER` false) or `> h` (`UPPER` true); may be `values.len()`.
    ///
    /// A bucket holds about one value, so the common case compares a fixed window of
    /// [`WINDOW`] values from the bucket's start and counts the smaller ones, without a
    /// branch per value: values past the bucket's end have larger top bits than `h`, so
    /// they never count. Buckets with more values, or too near the end of `values`, take a
    /// binary search of the bucket.
    #[inline]
    pub fn search<const UPPER: bool>(&self, values: &[u32], h: u32) -> usize {
        let (lo, hi) = self.range(h);
        if let Some(w) = window(values, lo, hi) {
            return lo + below::<UPPER>(w, h);
        }
        let bucket = values.get(lo..hi).unwrap_or(&[]);
        lo + bucket.partition_point(|&v| if UPPER { v <= h } else { v < h })
    }
}

/// Values compared at once by [`SearchIndex::search`]; buckets of fewer values (almost all:
/// about one value per bucket) are searched without branches.
pub const WINDOW: usize = 4;

/// The [`WINDOW`] values from `lo` when the bucket `lo..hi` holds fewer than [`WINDOW`]
/// values and the window fits in `values` (so the answer lies inside the window).
#[inline(always)]
pub fn window(values: &[u32], lo: usize, hi: usize) -> Option<&[u32; WINDOW]> {
    if hi.wrapping_sub(lo) < WINDOW {
        values.get(lo..lo + WINDOW)?.try_into().ok()
    } else {
        None
    }
}

/// How many of `w` are `< h` (`UPPER` false) or `<= h` (`UPPER` true): for a sorted window,
/// the position of the first value `>= h` (`> h`) in it.
#[inline(always)]
pub fn below<const UPPER: bool>(w: &[u32; WINDOW], h: u32) -> usize {
    w.iter()
        .map(|&v| usize::from(if UPPER { v <= h } else { v < h }))
        .sum()
}

/// Bucket bits for `len` values: about one bucket per value, at most 2^20 buckets.
fn bits_for(len: usize) -> u32 {
    (usize::BITS - len.leading_zeros()).clamp(1, 20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn ranges_bracket_every_hash(mut v in proptest::collection::vec(any::<u32>(), 1..300), h in any::<u32>()) {
            v.sort_unstable();
            let idx = SearchIndex::build(&v);
            let (lo, hi) = idx.range(h);
            let want = v.partition_point(|&x| x < h);
            let got = lo + v[lo..hi].partition_point(|&x| x < h);
            prop_assert_eq!(got, want);
            prop_assert_eq!(idx.search::<false>(&v, h), want);
            prop_assert_eq!(idx.search::<true>(&v, h), v.partition_point(|&x| x <= h));
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
            let idx = SearchIndex::build(&v);
            prop_assert_eq!(idx.search::<false>(&v, h), v.partition_point(|&x| x < h));
            prop_assert_eq!(idx.search::<true>(&v, h), v.partition_point(|&x| x <= h));
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
            let old = SearchIndex::build(&before);
            let built = SearchIndex::build(&after);
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
