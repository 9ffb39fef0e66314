//! The canonical order of points on a continuum: position first, then the tie rule over the
//! owners' ranks, winner first. Fresh builds, changes and explicit rings all sort by it, so a
//! merge of sorted parts equals a sort of the whole.

use core::cmp::Ordering;

use super::points::Point;
use crate::profile::Ties;

/// The canonical order of points: position (128-bit where the ring has it), then the tie
/// rule over the owners' ranks (`ranks[owner]`), winner first. A total order on distinct
/// (position, owner) pairs, so a merge of sorted parts equals a sort of the whole.
pub(super) fn order(ties: Ties, ranks: &[u32], a: &Point, b: &Point) -> Ordering {
    let rank = |p: &Point| ranks.get(p.owner as usize).copied().unwrap_or(u32::MAX);
    a.value
        .cmp(&b.value)
        .then(a.wide.cmp(&b.wide))
        .then(match ties {
            Ties::LaterWins => rank(b).cmp(&rank(a)),
            Ties::EarlierWins | Ties::SortedList => rank(a).cmp(&rank(b)),
        })
}

/// [`order`] as one integer, for layouts without 128-bit positions: the position in the high
/// half, the tie rule's rank (winner smallest) in the low half.
#[inline]
pub(super) fn sort_key(ties: Ties, ranks: &[u32], p: &Point) -> u64 {
    let rank = ranks.get(p.owner as usize).copied().unwrap_or(u32::MAX);
    let tie = match ties {
        Ties::LaterWins => u32::MAX - rank,
        Ties::EarlierWins | Ties::SortedList => rank,
    };
    (u64::from(p.value) << 32) | u64::from(tie)
}

/// The rank a [`sort_key`]'s low half encodes.
#[inline]
pub(super) fn rank_of_tie(ties: Ties, tie: u32) -> u32 {
    match ties {
        Ties::LaterWins => u32::MAX - tie,
        Ties::EarlierWins | Ties::SortedList => tie,
    }
}
