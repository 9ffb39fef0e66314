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
        let bits = (usize::BITS - values.len().leading_zeros()).clamp(1, 20);
        let shift = 32 - bits;
        let buckets = 1usize << bits;
        // Count the values per bucket (shifted by one), then prefix-sum: starts[b] = how many
        // values lie in buckets below b. One pass, no branches per bucket.
        starts.clear();
        starts.resize(buckets + 1, 0);
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
        }
    }
}
