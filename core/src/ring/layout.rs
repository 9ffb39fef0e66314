//! The data shape a ring's lookups read: one [`Layout`] variant per shape, each holding only
//! what its search needs and the rule it is searched by, resolved once when the ring is
//! built (lookups never consult the profile's placement again).

use alloc::vec::Vec;

use super::continuum::{Columns, Continuum};
use super::entry::Entry;
use super::key::{wide64, KeyPoint};
use super::pecl::PeclTable;
use super::scaled::ScaledPoints;
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
    /// 64-bit positions (Jedis: the ring hash's 64 bits of each point string), searched first
    /// point >= the key's 64-bit hash in the bound's order (signed for Jedis).
    Wide64,
    /// Sorted 32-bit points searched by the bound, a run of equal positions owned by the
    /// server the `sorted_list` tie rule picks (xmemcached).
    TieRuns,
    /// pecl memcache: a continuum searched by the bound, read through 1,024 buckets.
    Buckets,
    /// The servers in order, picked from the key hash: `hash % slots` (modulo placements)
    /// or phpredis's proportional ranges.
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
    /// Rendezvous over mixed 64-bit hashes of the key and each node string (go-redis).
    Mixed,
    /// One scaled point per server (Cache::Memcached::Fast's compatible continuum).
    Scaled,
}

impl Shape {
    /// The shape of `profile`'s rings.
    pub fn of(profile: &Profile) -> Shape {
        match profile.placement {
            Placement::Ring(_) if profile.points == PointHash::Md5Wide => Shape::Wide,
            Placement::Ring(_) if profile.points == PointHash::KeyHash64 => Shape::Wide64,
            Placement::Ring(_) if profile.ties == Ties::SortedList => Shape::TieRuns,
            Placement::Ring(_) => Shape::Sorted,
            Placement::PeclBuckets => Shape::Buckets,
            Placement::Modula { .. }
            | Placement::JavaAbsModulo { .. }
            | Placement::Proportional => Shape::Slots,
            Placement::Jump => Shape::Jump,
            Placement::JumpXxh3 => Shape::JumpXxh3,
            Placement::Furc { .. } => Shape::Furc,
            Placement::Rendezvous => Shape::Rendezvous,
            Placement::HashRendezvous { .. } => Shape::Scored,
            Placement::Maglev => Shape::Maglev,
            Placement::MixRendezvous => Shape::Mixed,
            Placement::ScaledPoints => Shape::Scaled,
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
    /// 128-bit positions (`wide`, parallel to the continuum's top 32 bits), searched by the
    /// key's point as [`WideKey`] says.
    Wide(Continuum, Vec<u128>, WideKey),
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
    /// Rendezvous over mixed 64-bit hashes (go-redis): each entry's 64-bit node hash.
    Mixed(Vec<u64>),
    /// Cache::Memcached::Fast's compatible continuum: one scaled point per server.
    Scaled(ScaledPoints),
}

/// What a 128-bit continuum holds and how a key is searched on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WideKey {
    /// Whole MD5 digests (uhashring): the key's digest, first point > it.
    Md5,
    /// The ring hash's 64 bits in the top half (Jedis), flipped into the bound's order: the
    /// key's 64-bit hash, first point >= it.
    Hash64(Bound),
}

impl Layout {
    /// The layout of an empty ring of `profile`.
    pub(super) fn empty(profile: &Profile, hash: Hash) -> Layout {
        Layout::derive(profile, hash, &[], Columns::default())
    }

    /// Whether `profile`'s layout keeps 128-bit positions (and which).
    pub(super) fn wide_key(profile: &Profile) -> Option<WideKey> {
        match (Shape::of(profile), profile.placement) {
            (Shape::Wide, _) => Some(WideKey::Md5),
            (Shape::Wide64, Placement::Ring(b)) => Some(WideKey::Hash64(b)),
            _ => None,
        }
    }

    /// Whether `profile`'s layout keeps 128-bit positions.
    pub(super) fn is_wide(profile: &Profile) -> bool {
        Layout::wide_key(profile).is_some()
    }

    /// Builds the layout from the entries and the sorted points (in canonical order): the
    /// one place a profile's placement, point hash and tie rule pick the shape (`hash`: the
    /// ring's key hash, for layouts that hash node strings).
    pub(super) fn derive(
        profile: &Profile,
        hash: Hash,
        entries: &[Entry],
        cols: Columns,
    ) -> Layout {
        match profile.placement {
            Placement::Ring(bound) => {
                let (c, wide) = Continuum::from_columns(cols);
                match (Shape::of(profile), Layout::wide_key(profile)) {
                    (_, Some(key)) => Layout::Wide(c, wide, key),
                    (Shape::TieRuns, _) => {
                        let runs = TieRuns::new(&c, entries);
                        Layout::TieRuns(c, bound, runs)
                    }
                    _ => Layout::Sorted(c, bound),
                }
            }
            Placement::PeclBuckets => {
                Layout::Buckets(PeclTable::new(Continuum::from_columns(cols).0))
            }
            Placement::Proportional => {
                Layout::Slots(Slots::new(entries, false, Reduce::Proportional))
            }
            Placement::MixRendezvous => Layout::Mixed(
                entries
                    .iter()
                    .map(|e| hash.hash64(e.node.as_bytes()))
                    .collect(),
            ),
            Placement::ScaledPoints => Layout::Scaled(ScaledPoints::new(entries)),
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
            Layout::Wide(_, _, WideKey::Md5) => Shape::Wide,
            Layout::Wide(_, _, WideKey::Hash64(_)) => Shape::Wide64,
            Layout::TieRuns(..) => Shape::TieRuns,
            Layout::Buckets(_) => Shape::Buckets,
            Layout::Slots(_) => Shape::Slots,
            Layout::Jump => Shape::Jump,
            Layout::JumpXxh3 => Shape::JumpXxh3,
            Layout::Furc(_) => Shape::Furc,
            Layout::Rendezvous => Shape::Rendezvous,
            Layout::Maglev(_) => Shape::Maglev,
            Layout::Scored(..) => Shape::Scored,
            Layout::Mixed(_) => Shape::Mixed,
            Layout::Scaled(_) => Shape::Scaled,
        }
    }

    /// The continuum, for layouts that have one.
    #[inline]
    pub(super) fn continuum(&self) -> Option<&Continuum> {
        match self {
            Layout::Sorted(c, _) | Layout::Wide(c, ..) | Layout::TieRuns(c, _, _) => Some(c),
            Layout::Buckets(t) => Some(&t.continuum),
            Layout::Slots(_)
            | Layout::Jump
            | Layout::Furc(_)
            | Layout::Rendezvous
            | Layout::Scored(..)
            | Layout::JumpXxh3
            | Layout::Mixed(_)
            | Layout::Scaled(_)
            | Layout::Maglev(_) => None,
        }
    }

    /// The comparison the continuum is searched by (pecl's table is filled lower-bound).
    pub(super) fn bound(&self) -> Option<Bound> {
        match self {
            Layout::Sorted(_, b) | Layout::TieRuns(_, b, _) => Some(*b),
            Layout::Wide(_, _, WideKey::Md5) => Some(Bound::UpperBound),
            Layout::Wide(_, _, WideKey::Hash64(b)) => Some(*b),
            Layout::Buckets(_) => Some(Bound::LowerBound),
            _ => None,
        }
    }

    /// The 128-bit positions (empty unless [`Layout::Wide`]).
    pub(super) fn wide(&self) -> &[u128] {
        match self {
            Layout::Wide(_, w, _) => w,
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
    /// the key point are wide, else the layout's bound over the key's 32 bits (which cannot
    /// place a key among 64-bit positions).
    pub(super) fn position(&self, k: KeyPoint) -> Result<(&Continuum, usize), Error> {
        match (self, k) {
            (Layout::Wide(c, wide, WideKey::Md5), KeyPoint::Wide(w)) => {
                Ok((c, c.position_wide::<true>(wide, w)?))
            }
            (Layout::Wide(c, wide, WideKey::Hash64(_)), KeyPoint::Wide(w)) => {
                Ok((c, c.position_wide::<false>(wide, w)?))
            }
            (Layout::Wide(c, _, WideKey::Md5), k) => {
                Ok((c, c.position(Bound::UpperBound, k.narrow())?))
            }
            // A 32-bit hash alone cannot place a key among 64-bit positions.
            (Layout::Wide(_, _, WideKey::Hash64(_)), _) => Err(Error::NeedsKey),
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
            Layout::Wide(_, _, WideKey::Md5) => KeyPoint::Wide(md5::wide(key)),
            Layout::Wide(_, _, WideKey::Hash64(b)) => {
                KeyPoint::Wide(wide64(hash.hash64(key), b.flip64()))
            }
            Layout::Slots(s) if s.old_compat() => KeyPoint::Long(whalin::old_compat(key)),
            _ => KeyPoint::Narrow(hash.hash(key)),
        }
    }

    /// Gives the point arrays back for reuse by a later change (empty for layouts without a
    /// continuum).
    pub(super) fn into_scratch(self) -> Scratch {
        match self {
            Layout::Sorted(c, _) | Layout::Wide(c, ..) | Layout::TieRuns(c, _, _) => {
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
            let hash = p.default_hash;
            assert_eq!(Layout::empty(p, hash).shape(), Shape::of(p), "{}", p.name);
            assert_eq!(Shape::bound(p).is_some(), p.is_ring(), "{}", p.name);
        }
    }
}
