//! The sorted points a ring searches, and every comparison on them ([`Bound`]), exactly once.

use alloc::vec::Vec;

use super::points::Point;
use super::scratch::Scratch;
use crate::error::Error;
use crate::index::{self, SearchIndex};
use crate::profile::{Bound, Ties};

/// Sorted 32-bit points and their owners (struct of arrays: the search reads only `values`),
/// with a prefix index over `values`.
#[derive(Clone, Debug, Default)]
pub(super) struct Continuum {
    /// Point positions, ascending.
    pub(super) values: Vec<u32>,
    /// `owners[i]` = entry index owning `values[i]`; among equal positions the tie rule's
    /// winner first.
    pub(super) owners: Vec<u32>,
    pub(super) index: SearchIndex,
}

impl Continuum {
    /// The continuum of sorted columns (the prefix index patched by the change, else built).
    pub(super) fn from_columns(cols: Columns) -> (Continuum, Vec<u128>) {
        let Columns {
            values,
            owners,
            wide,
            starts,
            index,
        } = cols;
        let index = index.unwrap_or_else(|| SearchIndex::build_in(&values, starts));
        (
            Continuum {
                values,
                owners,
                index,
            },
            wide,
        )
    }

    /// Gives the arrays back for reuse by a later change.
    pub(super) fn into_scratch(self) -> Scratch {
        Scratch {
            values: self.values,
            owners: self.owners,
            starts: self.index.into_buffer(),
        }
    }

    /// Number of points.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    /// First position with value >= h (may be `len`).
    #[inline]
    pub(super) fn lower_bound(&self, h: u32) -> usize {
        self.fetch_owners(h);
        self.index.search::<false>(&self.values, h)
    }

    /// First position with value > h (may be `len`).
    #[inline]
    pub(super) fn upper_bound(&self, h: u32) -> usize {
        self.fetch_owners(h);
        self.index.search::<true>(&self.values, h)
    }

    /// On a large continuum (coarse index), starts fetching the owners of `h`'s bucket, so
    /// that reading the owner of the position found does not wait for the search first.
    #[inline(always)]
    fn fetch_owners(&self, h: u32) {
        if self.index.is_coarse() {
            let (lo, hi) = self.index.range(h);
            let o = self.owners.as_ptr();
            index::prefetch(o.wrapping_add(lo));
            index::prefetch(o.wrapping_add(hi));
        }
    }

    /// The owner of the first point `>= h` (`UPPER`: `> h`), wrapping past the last point to
    /// the first, for a continuum whose tie winner is stored first. In the common case (a
    /// bucket smaller than the index's window) the owners of the window are fetched
    /// together with its values, so the owner's load does not wait for the comparisons.
    #[inline]
    pub(super) fn owner_after<const UPPER: bool>(&self, h: u32) -> Result<usize, Error> {
        let (lo, hi) = self.index.range(h);
        if self.index.is_coarse() {
            if let (Some(w), Some(o)) = (
                index::window::<{ index::COARSE }>(&self.values, lo, hi),
                self.owners.get(lo..lo + index::COARSE),
            ) {
                // The window's owners span up to two lines: both on their way now.
                index::prefetch(o.as_ptr());
                index::prefetch(o.as_ptr().wrapping_add(index::COARSE - 1));
                // Fewer than COARSE values of the window are below h (the bucket is smaller).
                let n = index::below::<{ index::COARSE }, UPPER>(w, h) & (index::COARSE - 1);
                return Ok(o[n] as usize);
            }
        } else if let (Some(w), Some(o)) = (
            index::window::<{ index::FINE }>(&self.values, lo, hi),
            self.owners.get(lo..lo + index::FINE),
        ) {
            let n = index::below::<{ index::FINE }, UPPER>(w, h) & (index::FINE - 1);
            return Ok(o[n] as usize);
        }
        let p = self.index.search::<UPPER>(&self.values, h);
        let p = if p == self.values.len() { 0 } else { p };
        self.owners
            .get(p)
            .map(|&o| o as usize)
            .ok_or(Error::NoServer)
    }

    /// Starts fetching what a search for `h` reads past the index: the lines of the values
    /// and owners of `h`'s bucket (the index's own line should be at hand: see
    /// [`SearchIndex::prefetch`]). For batches: the search itself comes later.
    #[inline(always)]
    pub(super) fn prefetch_bucket(&self, h: u32) {
        let (lo, hi) = self.index.range(h);
        let (v, o) = (self.values.as_ptr(), self.owners.as_ptr());
        index::prefetch(v.wrapping_add(lo));
        index::prefetch(v.wrapping_add(hi));
        index::prefetch(o.wrapping_add(lo));
        index::prefetch(o.wrapping_add(hi));
    }

    /// The first position of the run of equal values that holds position `p`.
    fn first_of_run(&self, mut p: usize) -> usize {
        while p > 0 && self.values[p - 1] == self.values[p] {
            p -= 1;
        }
        p
    }

    /// How many distinct positions the continuum holds.
    fn distinct_positions(&self) -> usize {
        self.values.windows(2).filter(|w| w[0] != w[1]).count()
            + usize::from(!self.values.is_empty())
    }

    /// The position a 32-bit key hash lands on by `bound` (the first of a run of equal
    /// values, where the tie winner is stored).
    pub(super) fn position(&self, bound: Bound, h: u32) -> Result<usize, Error> {
        let len = self.values.len();
        if len == 0 {
            return Err(Error::NoServer);
        }
        let wrap = |p: usize| if p == len { 0 } else { p };
        Ok(match bound {
            Bound::LowerBound => wrap(self.lower_bound(h)),
            Bound::LowerBoundSigned => wrap(self.lower_bound(h ^ bound.flip())),
            Bound::UpperBound => wrap(self.upper_bound(h)),
            Bound::LowerBoundZeroLast => match h {
                0 => self.first_of_run(len - 1),
                h => wrap(self.lower_bound(h)),
            },
            Bound::Floor => match self.upper_bound(h) {
                0 => {
                    // PHP reads $serverList[count - 1]: a server only if a point equals it.
                    let probe = u32::try_from(self.distinct_positions().saturating_sub(1))
                        .map_err(|_| Error::NoServer)?;
                    let p = self.lower_bound(probe);
                    if p < len && self.values[p] == probe {
                        p
                    } else {
                        return Err(Error::NoServer);
                    }
                }
                p => self.first_of_run(p - 1),
            },
            Bound::FloorWrap => match self.upper_bound(h) {
                0 => self.first_of_run(len - 1),
                p => self.first_of_run(p - 1),
            },
            Bound::UpperBoundClamp => match self.upper_bound(h) {
                p if p == len => self.first_of_run(len - 1),
                p => p,
            },
            Bound::LowerBoundBelowLast => match self.lower_bound(h) {
                0 if self.values[0] != h => self.first_of_run(len - 1),
                p => wrap(p),
            },
        })
    }

    /// Appends to `out` the owners met walking from position `start` (forwards, or
    /// `backwards` for the floor searches) until `out` holds `want` distinct owners or every
    /// point was seen; an owner already in `out` is skipped. With `ties` [`Ties::LaterWins`]
    /// (a client keeping its points in a map, where a later server's point replaces an
    /// earlier one's) every point of a run of equal positions is its winner's; otherwise (an
    /// array) each point is its own owner's.
    pub(super) fn walk(
        &self,
        start: usize,
        backwards: bool,
        ties: Ties,
        want: usize,
        out: &mut Vec<usize>,
    ) {
        let len = self.values.len();
        for step in 0..len {
            if out.len() >= want {
                break;
            }
            let p = if backwards {
                (start + len - step % len) % len
            } else {
                (start + step) % len
            };
            let p = if ties == Ties::LaterWins {
                self.first_of_run(p)
            } else {
                p
            };
            let owner = self.owners[p] as usize;
            if !out.contains(&owner) {
                out.push(owner);
            }
        }
    }

    /// The position a 128-bit key point lands on, wrapping: the first point > w (`UPPER`:
    /// uhashring) or >= w (a 64-bit ring's positions, in the top half); `wide` holds the full
    /// positions, parallel to `values` (their top 32 bits). Points whose top 32 bits differ
    /// from `w`'s are ordered by them alone, so the search is the 32-bit one for the first top
    /// `>= w`'s top, and the full positions are read only for points sharing the key's top 32
    /// bits (rare: a tie of 32 random bits).
    pub(super) fn position_wide<const UPPER: bool>(
        &self,
        wide: &[u128],
        w: u128,
    ) -> Result<usize, Error> {
        let len = self.values.len();
        if len == 0 {
            return Err(Error::NoServer);
        }
        let top = (w >> 96) as u32;
        let mut p = self.lower_bound(top);
        while p < len
            && self.values[p] == top
            && wide
                .get(p)
                .is_some_and(|&x| if UPPER { x <= w } else { x < w })
        {
            p += 1;
        }
        Ok(if p == len { 0 } else { p })
    }
}

/// Sorted points as parallel columns, what builds and changes produce (`wide` is empty
/// except on 128-bit rings), and memory for the prefix index.
#[derive(Debug, Default)]
pub(super) struct Columns {
    pub(super) values: Vec<u32>,
    pub(super) owners: Vec<u32>,
    pub(super) wide: Vec<u128>,
    /// Memory the prefix index may reuse (contents ignored).
    pub(super) starts: Vec<u32>,
    /// The prefix index, when the change patched the old one (else built from `values`).
    pub(super) index: Option<SearchIndex>,
}

impl Columns {
    /// Empty columns for `n` points, in `scratch`'s memory where it has some (taken from it).
    pub(super) fn with_capacity(n: usize, wide: bool, scratch: &mut Scratch) -> Columns {
        let mut values = core::mem::take(&mut scratch.values);
        let mut owners = core::mem::take(&mut scratch.owners);
        values.clear();
        values.reserve(n);
        owners.clear();
        owners.reserve(n);
        Columns {
            values,
            owners,
            starts: core::mem::take(&mut scratch.starts),
            index: None,
            wide: if wide {
                Vec::with_capacity(n)
            } else {
                Vec::new()
            },
        }
    }

    #[inline]
    pub(super) fn push(&mut self, p: &Point, wide: bool) {
        self.values.push(p.value);
        self.owners.push(p.owner);
        if wide {
            self.wide.push(p.wide);
        }
    }
}
