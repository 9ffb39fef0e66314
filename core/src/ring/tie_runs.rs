//! xmemcached's ties: among points at one position, the owner is `list[position % len]` of
//! the colliding sessions sorted by node string (Java `compareTo`, UTF-16 order).

use alloc::vec::Vec;

use super::continuum::Continuum;
use super::entry::Entry;

/// For every run of equal positions on a continuum, its owner by xmemcached's rule:
/// `(first index of the run, owner)`, ascending.
#[derive(Clone, Debug, Default)]
pub(super) struct TieRuns(Vec<(u32, u32)>);

impl TieRuns {
    /// The runs of `c`, whose owners are indexes into `entries`.
    pub(super) fn new(c: &Continuum, entries: &[Entry]) -> TieRuns {
        let mut runs = Vec::new();
        let mut members: Vec<u32> = Vec::new();
        let v = &c.values;
        let mut i = 0;
        while i < v.len() {
            let mut j = i + 1;
            while j < v.len() && v[j] == v[i] {
                j += 1;
            }
            if j - i > 1 {
                members.clear();
                members.extend_from_slice(&c.owners[i..j]);
                members.sort_by(|&a, &b| {
                    let node = |x: u32| entries.get(x as usize).map_or("", |e| e.node.as_str());
                    node(a).encode_utf16().cmp(node(b).encode_utf16())
                });
                runs.push((i as u32, members[(v[i] as usize) % members.len()]));
            }
            i = j;
        }
        TieRuns(runs)
    }

    /// The owner of position `p` of `c` (a run's first position gives the run's owner).
    #[inline]
    pub(super) fn owner(&self, c: &Continuum, p: usize) -> usize {
        if c.values.get(p + 1) == Some(&c.values[p]) {
            if let Ok(r) = self
                .0
                .binary_search_by_key(&(p as u32), |&(first, _)| first)
            {
                return self.0[r].1 as usize;
            }
        }
        c.owners[p] as usize
    }
}
