//! Memory a change reuses: the point columns and prefix index of a retired snapshot.
//!
//! A change writes every point into new arrays (a snapshot is immutable while readers hold
//! it). Fresh memory costs more than the copy itself: the kernel faults in and zeroes every
//! page (about half of a change's time on 160,000 points was page faults and heap trimming).
//! [`super::SharedRing`] therefore keeps the arrays of the snapshot a change retires, when no
//! reader holds it any more, and passes them to the next change
//! ([`super::Ring::with_added_in`] and its siblings), which writes its points into them.
//! Without one (a plain [`super::Ring::add`], the first change) the arrays are allocated as
//! usual. Contents are never read: only capacity is reused.

use alloc::vec::Vec;

/// Buffers of a retired snapshot (point values, owners, the prefix index) that the next
/// change may write into. Empty by default; [`super::SharedRing`] fills it as it retires
/// snapshots.
#[derive(Debug, Default)]
pub struct Scratch {
    pub(super) values: Vec<u32>,
    pub(super) owners: Vec<u32>,
    pub(super) starts: Vec<u32>,
}

impl Scratch {
    /// Empty buffers (the same as [`Scratch::default`]).
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// Bytes of memory held for reuse.
    pub fn capacity_bytes(&self) -> usize {
        4 * (self.values.capacity() + self.owners.capacity() + self.starts.capacity())
    }
}
