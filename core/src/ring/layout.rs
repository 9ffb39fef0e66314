//! The data shape a profile's lookups read: one [`Layout`] variant per shape, each holding
//! only what its search needs.

use alloc::vec::Vec;

use super::entry::Entry;
use super::points::Point;
use super::scratch;
use super::search;
use crate::alt::maglev;
use crate::index::SearchIndex;
use crate::profile::{PointHash, Profile, Search, Ties};

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
    fn new(
        values: Vec<u32>,
        owners: Vec<u32>,
        starts: Vec<u32>,
        index: Option<SearchIndex>,
    ) -> Continuum {
        Continuum {
            index: index.unwrap_or_else(|| SearchIndex::build_in(&values, starts)),
            owners,
            values,
        }
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
    /// Empty columns for `n` points, in a retired snapshot's memory when one is lent (see
    /// [`scratch`]).
    pub(super) fn with_capacity(n: usize, wide: bool) -> Columns {
        let s = scratch::take();
        let (mut values, mut owners) = (s.values, s.owners);
        values.clear();
        values.reserve(n);
        owners.clear();
        owners.reserve(n);
        Columns {
            values,
            owners,
            starts: s.starts,
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

/// What a ring's lookups read, by profile shape.
#[derive(Clone, Debug)]
pub(super) enum Layout {
    /// Sorted 32-bit points; the tie winner is stored first (most ketama clients).
    Sorted(Continuum),
    /// uhashring: 128-bit positions (`wide`, parallel to the continuum's top 32 bits).
    Wide(Continuum, Vec<u128>),
    /// xmemcached: runs of equal positions whose owner is chosen by node string,
    /// `(first index of the run, owner)`, ascending.
    TieRuns(Continuum, Vec<(u32, u32)>),
    /// pecl memcache: 1,024 buckets, each the owner of a continuum position.
    Buckets(Continuum, Vec<u32>),
    /// `hash % slots`: entry indexes in the client's order, and for weighted modulo the
    /// cumulative slot counts.
    Slots {
        /// Entry indexes in the client's server order.
        ordered: Vec<u32>,
        /// Cumulative weights along `ordered` (empty when unweighted).
        cumulative: Vec<u64>,
    },
    /// Jump consistent hash: nothing stored.
    Jump,
    /// Jump over the key's 64-bit XXH3: nothing stored.
    JumpXxh3,
    /// mcrouter CH3 / WeightedCh3 (`furc_hash` of the key itself): for WeightedCh3 each
    /// server's weight divided by the largest (empty for CH3).
    Furc(Vec<f64>),
    /// Rendezvous: nothing stored beyond each entry's seed.
    Rendezvous,
    /// Maglev lookup table (entry indexes).
    Maglev(Vec<u32>),
    /// Rendezvous over a hash of each node string joined with the key (pymemcache,
    /// emcache): nothing stored beyond the node strings.
    Scored,
}

impl Layout {
    /// The layout of an empty ring of `profile`.
    pub(super) fn empty(profile: &Profile) -> Layout {
        Layout::derive(profile, &[], Columns::default())
    }

    /// Whether `profile`'s layout keeps 128-bit positions.
    pub(super) fn is_wide(profile: &Profile) -> bool {
        profile.points == PointHash::Md5Wide
            && profile.is_ring()
            && profile.search != Search::Buckets1024
    }

    /// Builds the layout from the entries and the sorted points (in canonical order).
    pub(super) fn derive(profile: &Profile, entries: &[Entry], cols: Columns) -> Layout {
        match profile.search {
            Search::Modula { weighted, .. } | Search::JavaAbsModulo { weighted, .. } => {
                let mut ordered: Vec<u32> = (0..entries.len() as u32).collect();
                ordered.sort_by_key(|&i| entries[i as usize].rank);
                let mut sum = 0u64;
                let cumulative = if weighted {
                    ordered
                        .iter()
                        .map(|&i| {
                            sum += u64::from(entries[i as usize].server.weight);
                            sum
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                Layout::Slots {
                    ordered,
                    cumulative,
                }
            }
            Search::Jump => Layout::Jump,
            Search::JumpXxh3 => Layout::JumpXxh3,
            Search::Furc { weighted } => {
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
            Search::Rendezvous => Layout::Rendezvous,
            Search::HashRendezvous { .. } => Layout::Scored,
            Search::Maglev => {
                let seeds: Vec<u64> = entries.iter().map(|e| e.seed).collect();
                Layout::Maglev(maglev::table(&seeds))
            }
            Search::Buckets1024 => {
                let c = Continuum::new(cols.values, cols.owners, cols.starts, cols.index);
                let table = search::pecl_table(&c);
                Layout::Buckets(c, table)
            }
            _ if profile.points == PointHash::Md5Wide => Layout::Wide(
                Continuum::new(cols.values, cols.owners, cols.starts, cols.index),
                cols.wide,
            ),
            _ if profile.ties == Ties::SortedList => {
                let c = Continuum::new(cols.values, cols.owners, cols.starts, cols.index);
                let runs = search::tie_runs(&c, entries);
                Layout::TieRuns(c, runs)
            }
            _ => Layout::Sorted(Continuum::new(
                cols.values,
                cols.owners,
                cols.starts,
                cols.index,
            )),
        }
    }

    /// The continuum, for layouts that have one.
    pub(super) fn continuum(&self) -> Option<&Continuum> {
        match self {
            Layout::Sorted(c)
            | Layout::Wide(c, _)
            | Layout::TieRuns(c, _)
            | Layout::Buckets(c, _) => Some(c),
            Layout::Slots { .. }
            | Layout::Jump
            | Layout::Furc(_)
            | Layout::Rendezvous
            | Layout::Scored
            | Layout::JumpXxh3
            | Layout::Maglev(_) => None,
        }
    }

    /// The 128-bit positions (empty unless [`Layout::Wide`]).
    pub(super) fn wide(&self) -> &[u128] {
        match self {
            Layout::Wide(_, w) => w,
            _ => &[],
        }
    }
}
