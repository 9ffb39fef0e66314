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
use crate::hash::{md5, whalin, Hash};
use crate::profile::{Bound, Join, Placement, PointHash, Profile, ScoreTies, Ties};

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
        match (profile.points, profile.placement) {
            (PointHash::Md5Wide, Placement::Ring(_)) => Some(WideKey::Md5),
            (PointHash::KeyHash64, Placement::Ring(b)) => Some(WideKey::Hash64(b)),
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
                if let Some(key) = Layout::wide_key(profile) {
                    Layout::Wide(c, wide, key)
                } else if profile.ties == Ties::SortedList {
                    let runs = TieRuns::new(&c, entries);
                    Layout::TieRuns(c, bound, runs)
                } else {
                    Layout::Sorted(c, bound)
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
            Placement::Furc { weighted } => {
                let max = entries.iter().map(|e| e.server.weight).max().unwrap_or(0);
                Layout::Furc(if weighted {
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
                } else {
                    Vec::new()
                })
            }
            Placement::Rendezvous => Layout::Rendezvous,
            Placement::HashRendezvous { join, ties } => Layout::Scored(join, ties),
            Placement::Maglev => {
                let nodes: Vec<u64> = entries.iter().map(|e| e.node_hash).collect();
                Layout::Maglev(maglev::table(&nodes))
            }
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
