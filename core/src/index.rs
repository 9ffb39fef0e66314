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
    pub fn build(values: &[u32]) -> SearchIndex {
        if values.is_empty() {
            return SearchIndex::default();
        }
        let bits = (usize::BITS - values.len().leading_zeros()).clamp(1, 20);
        let shift = 32 - bits;
        let buckets = 1usize << bits;
        // Count the values per bucket (shifted by one), then prefix-sum: starts[b] = how many
        // values lie in buckets below b. One pass, no branches per bucket.
        let mut starts = alloc::vec![0u32; buckets + 1];
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
    }
}
