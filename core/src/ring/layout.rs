//! The data shape a ring's lookups read: one [`Layout`] variant per shape, each holding only
//! what its search needs and the rule it is searched by, resolved once when the ring is
//! built (lookups never consult the profile's placement again).

use alloc::vec::Vec;

use super::continuum::{Columns, Continuum};
use super::entry::Entry;
use super::key::KeyPoint;
use super::pecl::PeclTable;
use super::scratch::Scratch;
use super::slots::{Reduce, Slots};
use super::tie_runs::TieRuns;
use crate::alt::maglev;
use crate::error::Error;
use crate::hash::{md5, whalin, Hash};
use crate::profile::{Bound, Join, Placement, PointHash, Profile, ScoreTies, Ties};

/// The shape of the data a profile's rings are laid out in (one per [`Layout`] variant),
/// resolved from the profile's placement, point hash and tie rule: the one place that
/// decision is made. Exported in the spec as each profile's `layout`, which the ports
/// dispatch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Sorted 32-bit points searched by the bound, the tie winner stored first.
    Sorted,
    /// 128-bit positions (uhashring: whole md5 digests), searched by the bound with the key's
    /// 128-bit md5.
    Wide,
    /// Sorted 32-bit points searched by the bound, a run of equal positions owned by the
    /// server the `sorted_list` tie rule picks (xmemcached).
    TieRuns,
    /// pecl memcache: a continuum searched by the bound, read through 1,024 buckets.
    Buckets,
    /// `hash % slots` (modulo placements).
    Slots,
    /// Jump consistent hash over the 32-bit key hash.
    Jump,
    /// Jump over the key's 64-bit XXH3.
    JumpXxh3,
    /// mcrouter's `furc_hash` of the key itself.
    Furc,
    /// Rendezvous over each node's seed.
    Rendezvous,
    /// Maglev's lookup table.
    Maglev,
    /// Rendezvous over a hash of each node string joined with the key.
    Scored,
}

impl Shape {
    /// The shape of `profile`'s rings.
    pub fn of(profile: &Profile) -> Shape {
        match profile.placement {
            Placement::Ring(_) if profile.points == PointHash::Md5Wide => Shape::Wide,
            Placement::Ring(_) if profile.ties == Ties::SortedList => Shape::TieRuns,
            Placement::Ring(_) => Shape::Sorted,
            Placement::PeclBuckets => Shape::Buckets,
            Placement::Modula { .. } | Placement::JavaAbsModulo { .. } => Shape::Slots,
            Placement::Jump => Shape::Jump,
            Placement::JumpXxh3 => Shape::JumpXxh3,
            Placement::Furc { .. } => Shape::Furc,
            Placement::Rendezvous => Shape::Rendezvous,
            Placement::HashRendezvous { .. } => Shape::Scored,
            Placement::Maglev => Shape::Maglev,
        }
    }

    /// The comparison a continuum of this profile is searched by (pecl's table is filled by
    /// a lower-bound search); `None` for shapes without a continuum.
    pub fn bound(profile: &Profile) -> Option<Bound> {
        profile.placement.bound()
    }
}

/// What a ring's lookups read, by profile shape.
#[derive(Clone, Debug)]
pub(super) enum Layout {
    /// Sorted 32-bit points searched by the bound; the tie winner is stored first (most
    /// ketama clients).
    Sorted(Continuum, Bound),
    /// uhashring: 128-bit positions (`wide`, parallel to the continuum's top 32 bits),
    /// searched for the first point > the key's 128-bit digest.
    Wide(Continuum, Vec<u128>),
    /// xmemcached: sorted points searched by the bound, where a run of equal positions is
    /// owned by the server its [`TieRuns`] rule picks.
    TieRuns(Continuum, Bound, TieRuns),
    /// pecl memcache: 1,024 buckets, each the owner of a continuum position.
    Buckets(PeclTable),
    /// `hash % slots` (modulo, the Java clients' `|h| % slots`).
    Slots(Slots),
    /// Jump consistent hash: nothing stored.
    Jump,
    /// Jump over the key's 64-bit XXH3: nothing stored.
    JumpXxh3,
    /// mcrouter CH3 / WeightedCh3 (`furc_hash` of the key itself): for WeightedCh3 each
    /// server's weight divided by the largest (empty for CH3).
    Furc(Vec<f64>),
    /// Rendezvous: nothing stored beyond each entry's node hash.
    Rendezvous,
    /// Maglev lookup table (entry indexes).
    Maglev(Vec<u32>),
    /// Rendezvous over a hash of each node string joined with the key (pymemcache,
    /// emcache), by the profile's join of node and key and its rule for equal scores.
    Scored(Join, ScoreTies),
}

impl Layout {
    /// The layout of an empty ring of `profile`.
    pub(super) fn empty(profile: &Profile) -> Layout {
        Layout::derive(profile, &[], Columns::default())
    }

    /// Whether `profile`'s layout keeps 128-bit positions.
    pub(super) fn is_wide(profile: &Profile) -> bool {
        Shape::of(profile) == Shape::Wide
    }

    /// Builds the layout from the entries and the sorted points (in canonical order): the
    /// one place a profile's placement, point hash and tie rule pick the shape.
    pub(super) fn derive(profile: &Profile, entries: &[Entry], cols: Columns) -> Layout {
        match profile.placement {
            Placement::Ring(bound) => {
                let (c, wide) = Continuum::from_columns(cols);
                match Shape::of(profile) {
                    Shape::Wide => Layout::Wide(c, wide),
                    Shape::TieRuns => {
                        let runs = TieRuns::new(&c, entries);
                        Layout::TieRuns(c, bound, runs)
                    }
                    _ => Layout::Sorted(c, bound),
                }
            }
            Placement::PeclBuckets => {
                Layout::Buckets(PeclTable::new(Continuum::from_columns(cols).0))
            }
            Placement::Modula { weighted, high15 } => {
                Layout::Slots(Slots::new(entries, weighted, Reduce::Unsigned { high15 }))
            }
            Placement::JavaAbsModulo {
                weighted,
                old_compat,
            } => Layout::Slots(Slots::new(
                entries,
                weighted,
                Reduce::JavaAbs { old_compat },
            )),
            Placement::Jump => Layout::Jump,
            Placement::JumpXxh3 => Layout::JumpXxh3,
            Placement::Furc { weighted } => Layout::Furc(furc_weights(weighted, entries)),
            Placement::Rendezvous => Layout::Rendezvous,
            Placement::HashRendezvous { join, ties } => Layout::Scored(join, ties),
            Placement::Maglev => {
                let nodes: Vec<u64> = entries.iter().map(|e| e.node_hash).collect();
                Layout::Maglev(maglev::table(&nodes))
            }
        }
    }

    /// The shape of this layout (equal to [`Shape::of`] its profile).
    #[cfg(test)]
    fn shape(&self) -> Shape {
        match self {
            Layout::Sorted(..) => Shape::Sorted,
            Layout::Wide(..) => Shape::Wide,
            Layout::TieRuns(..) => Shape::TieRuns,
            Layout::Buckets(_) => Shape::Buckets,
            Layout::Slots(_) => Shape::Slots,
            Layout::Jump => Shape::Jump,
            Layout::JumpXxh3 => Shape::JumpXxh3,
            Layout::Furc(_) => Shape::Furc,
            Layout::Rendezvous => Shape::Rendezvous,
            Layout::Maglev(_) => Shape::Maglev,
            Layout::Scored(..) => Shape::Scored,
        }
    }

    /// The continuum, for layouts that have one.
    #[inline]
    pub(super) fn continuum(&self) -> Option<&Continuum> {
        match self {
            Layout::Sorted(c, _) | Layout::Wide(c, _) | Layout::TieRuns(c, _, _) => Some(c),
            Layout::Buckets(t) => Some(&t.continuum),
            Layout::Slots(_)
            | Layout::Jump
            | Layout::Furc(_)
            | Layout::Rendezvous
            | Layout::Scored(..)
            | Layout::JumpXxh3
            | Layout::Maglev(_) => None,
        }
    }

    /// The comparison the continuum is searched by (pecl's table is filled lower-bound).
    pub(super) fn bound(&self) -> Option<Bound> {
        match self {
            Layout::Sorted(_, b) | Layout::TieRuns(_, b, _) => Some(*b),
            Layout::Wide(..) => Some(Bound::UpperBound),
            Layout::Buckets(_) => Some(Bound::LowerBound),
            _ => None,
        }
    }

    /// The 128-bit positions (empty unless [`Layout::Wide`]).
    pub(super) fn wide(&self) -> &[u128] {
        match self {
            Layout::Wide(_, w) => w,
            _ => &[],
        }
    }

    /// The owner of continuum position `p` (a tie run's owner where the layout has runs).
    #[inline]
    pub(super) fn owner_at(&self, c: &Continuum, p: usize) -> usize {
        match self {
            Layout::TieRuns(_, _, runs) => runs.owner(c, p),
            _ => c.owners[p] as usize,
        }
    }

    /// The continuum position a key point lands on, for layouts searched by a bound
    /// (sorted, 128-bit and tie-run continua): the 128-bit search where both the layout and
    /// the key point are wide, else the layout's bound over the key's 32 bits.
    pub(super) fn position(&self, k: KeyPoint) -> Result<(&Continuum, usize), Error> {
        match (self, k) {
            (Layout::Wide(c, wide), KeyPoint::Wide(w)) => Ok((c, c.position_wide(wide, w)?)),
            (Layout::Wide(c, _), k) => Ok((c, c.position(Bound::UpperBound, k.narrow())?)),
            (Layout::Sorted(c, bound) | Layout::TieRuns(c, bound, _), k) => {
                Ok((c, c.position(*bound, k.narrow())?))
            }
            _ => Err(Error::NotAContinuum),
        }
    }

    /// What the search compares for a (prepared) key hashed with `hash`.
    #[inline]
    pub(super) fn key_point(&self, hash: Hash, key: &[u8]) -> KeyPoint {
        match self {
            Layout::Wide(..) => KeyPoint::Wide(md5::wide(key)),
            Layout::Slots(s) if s.old_compat() => KeyPoint::Long(whalin::old_compat(key)),
            _ => KeyPoint::Narrow(hash.hash(key)),
        }
    }

    /// Gives the point arrays back for reuse by a later change (empty for layouts without a
    /// continuum).
    pub(super) fn into_scratch(self) -> Scratch {
        match self {
            Layout::Sorted(c, _) | Layout::Wide(c, _) | Layout::TieRuns(c, _, _) => {
                c.into_scratch()
            }
            Layout::Buckets(t) => t.continuum.into_scratch(),
            _ => Scratch::default(),
        }
    }
}

/// WeightedCh3's weights: each server's weight divided by the largest (empty for CH3).
fn furc_weights(weighted: bool, entries: &[Entry]) -> Vec<f64> {
    if !weighted {
        return Vec::new();
    }
    let max = entries.iter().map(|e| e.server.weight).max().unwrap_or(0);
    entries
        .iter()
        .map(|e| {
            if max == 0 {
                0.0
            } else {
                f64::from(e.server.weight) / f64::from(max)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_is_laid_out_in_its_shape() {
        for p in Profile::all() {
            assert_eq!(Layout::empty(p).shape(), Shape::of(p), "{}", p.name);
            assert_eq!(Shape::bound(p).is_some(), p.is_ring(), "{}", p.name);
        }
    }
}
