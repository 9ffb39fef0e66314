//! Memory a change reuses: the point columns and prefix index of a retired snapshot.
//!
//! A change writes every point into new arrays (a snapshot is immutable while readers hold
//! it). Fresh memory costs more than the copy itself: the kernel faults in and zeroes every
//! page (about half of a change's time on 160,000 points was page faults and heap trimming).
//! [`super::SharedRing`] therefore keeps the arrays of the snapshot a change retires, when no
//! reader holds it any more, and lends them to the next change on the writer's thread
//! ([`lend`]); [`super::layout::Columns::with_capacity`] takes them ([`take`]). Without a
//! lent scratch (no `std`, a plain [`super::Ring`], the first change) the arrays are
//! allocated as usual. Contents are never read: only capacity is reused.

use alloc::vec::Vec;

use super::layout::Layout;
use super::Ring;

/// Buffers of a retired snapshot: point values, owners, and the prefix index.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    pub(super) values: Vec<u32>,
    pub(super) owners: Vec<u32>,
    pub(super) starts: Vec<u32>,
}

impl Scratch {
    /// The buffers of `ring` (the rest of it is dropped).
    pub(super) fn from_ring(ring: Ring) -> Scratch {
        match ring.layout {
            Layout::Sorted(c)
            | Layout::Wide(c, _)
            | Layout::TieRuns(c, _)
            | Layout::Buckets(c, _) => Scratch {
                values: c.values,
                owners: c.owners,
                starts: c.index.into_buffer(),
            },
            _ => Scratch::default(),
        }
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    static LENT: core::cell::Cell<Option<Scratch>> = const { core::cell::Cell::new(None) };
}

/// Runs `f` with `scratch` lent to the changes it makes on this thread; returns what `f`
/// returned and the scratch if nothing took it.
#[cfg(feature = "std")]
pub(super) fn lend<T>(scratch: Scratch, f: impl FnOnce() -> T) -> (T, Option<Scratch>) {
    /// Takes the scratch back even when `f` panics, so the thread keeps no memory lent.
    struct Back;
    impl Drop for Back {
        fn drop(&mut self) {
            LENT.with(|l| drop(l.take()));
        }
    }
    LENT.with(|l| l.set(Some(scratch)));
    let back = Back;
    let out = f();
    let left = LENT.with(|l| l.take());
    drop(back);
    (out, left)
}

/// The lent scratch, if any (taken once), else empty buffers.
pub(super) fn take() -> Scratch {
    #[cfg(feature = "std")]
    {
        LENT.with(|l| l.take()).unwrap_or_default()
    }
    #[cfg(not(feature = "std"))]
    {
        Scratch::default()
    }
}
