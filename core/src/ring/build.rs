//! Fresh builds: every server's points generated, sorted in the canonical order, and the
//! layout derived from them.

use alloc::vec::Vec;
use core::fmt;

use super::compiled::Ring;
use super::continuum::Columns;
use super::entry::{rank, Entry};
use super::layout::Layout;
use super::order::{order, rank_of_tie, sort_key};
use super::points::{generate, point_total, targets, Point, Sink};
use super::radix;
use super::scratch::Scratch;
use crate::error::Error;
use crate::hash::md5::lanes::Lanes;
use crate::hash::Hash;
use crate::profile::{Profile, Ties, ZeroWeight};
use crate::server::Server;

/// A failed build: the error, and which server (by its place in the input) caused it when
/// one server is to blame (a bad weight, a duplicate, a host the profile cannot place);
/// `None` when the servers together are refused (too many points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// What went wrong.
    pub error: Error,
    /// The offending server's index in the input, if one server is to blame.
    pub server: Option<usize>,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.server {
            Some(i) => write!(f, "server {}: {}", i + 1, self.error),
            None => fmt::Display::fmt(&self.error, f),
        }
    }
}

impl core::error::Error for BuildError {}

impl From<BuildError> for Error {
    fn from(e: BuildError) -> Error {
        e.error
    }
}

impl Ring {
    /// A ring built from `servers` in one pass (the same ring as adding them one by one).
    pub fn with_servers(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
    ) -> Result<Ring, Error> {
        Ring::build(profile, hash, servers).map_err(|e| e.error)
    }

    /// As [`Ring::with_servers`], but a failure says which server (by its place in
    /// `servers`) was refused, when one server is to blame.
    pub fn build(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
    ) -> Result<Ring, BuildError> {
        fresh(Ring::new(profile, hash), servers, &mut Scratch::default())
    }

    /// As [`Ring::build`], writing the points into `scratch`'s memory where it has some.
    pub fn build_in(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
        scratch: &mut Scratch,
    ) -> Result<Ring, BuildError> {
        fresh(Ring::new(profile, hash), servers, scratch)
    }
}

/// Checks a weight against the profile's zero-weight rule.
pub(super) fn check_weight(ring: &Ring, weight: u32) -> Result<(), Error> {
    if weight == 0 && ring.profile.zero_weight == ZeroWeight::Reject {
        return Err(Error::BadWeight);
    }
    Ok(())
}

/// Each entry's rank, indexed by entry (for [`order`]).
pub(super) fn ranks(entries: &[Entry]) -> Vec<u32> {
    entries.iter().map(|e| e.rank).collect()
}

/// A [`Sink`] keeping each point's [`sort_key`] only.
pub(super) struct Keys<'a> {
    keys: Vec<u64>,
    ties: Ties,
    ranks: &'a [u32],
}

impl<'a> Keys<'a> {
    /// An empty sink for `n` points ordered by `ties` over `ranks`.
    pub(super) fn new(n: usize, ties: Ties, ranks: &'a [u32]) -> Keys<'a> {
        Keys {
            keys: Vec::with_capacity(n),
            ties,
            ranks,
        }
    }

    /// The sort keys pushed.
    pub(super) fn into_keys(self) -> Vec<u64> {
        self.keys
    }
}

impl Sink for Keys<'_> {
    #[inline]
    fn push(&mut self, p: Point) {
        self.keys.push(sort_key(self.ties, self.ranks, &p));
    }
}

/// Builds `ring` (an empty ring) up from `servers` in one pass.
pub(super) fn fresh(
    mut ring: Ring,
    servers: impl IntoIterator<Item = Server>,
    scratch: &mut Scratch,
) -> Result<Ring, BuildError> {
    let blame = |i: usize| {
        move |error: Error| BuildError {
            error,
            server: Some(i),
        }
    };
    // Duplicate endpoints (labels, with IPv6 literals in canonical form) are found with a
    // sorted index: linear-logarithmic, not quadratic.
    let mut seen: alloc::collections::BTreeSet<alloc::string::String> = Default::default();
    for (i, s) in servers.into_iter().enumerate() {
        check_weight(&ring, s.weight).map_err(blame(i))?;
        if !seen.insert(s.endpoint()) {
            return Err(blame(i)(Error::DuplicateServer));
        }
        ring.entries
            .push(Entry::new(ring.profile, s, i).map_err(blame(i))?);
    }
    rank(ring.profile.order, &mut ring.entries);
    let counts = targets(ring.profile, &ring.entries).map_err(|error| BuildError {
        error,
        server: None,
    })?;
    let lanes = Lanes::detect();
    let total = point_total(ring.profile, &counts);
    let r = ranks(&ring.entries);
    let ties = ring.profile.ties;
    let wide = Layout::is_wide(ring.profile);
    let mut cols = Columns::with_capacity(total, wide, scratch);
    if wide {
        let mut points = Vec::with_capacity(total);
        for (i, (e, &t)) in ring.entries.iter_mut().zip(&counts).enumerate() {
            e.strings = t;
            generate(
                ring.profile,
                ring.hash,
                e.node.as_bytes(),
                i as u32,
                0..t,
                lanes,
                &mut points,
            );
        }
        points.sort_unstable_by(|a, b| order(ties, &r, a, b));
        for p in &points {
            cols.push(p, true);
        }
    } else {
        // The canonical order as one integer per point (position, then the tie rule's rank),
        // made as the points are generated: the same order as `order`, sorted by radix. The
        // owner is read back from the rank.
        for (e, &t) in ring.entries.iter_mut().zip(&counts) {
            e.strings = t;
        }
        let keys = sort_keys(&ring, &r, total, lanes);
        sorted_columns(ties, &r, keys, &mut cols);
    }
    ring.layout = Layout::derive(ring.profile, ring.hash, &ring.entries, cols);
    Ok(ring)
}

/// The [`sort_key`] of every point of `ring`'s entries (each with its `strings` set), in
/// entry order.
fn sort_keys(ring: &Ring, ranks: &[u32], total: usize, lanes: Lanes) -> Vec<u64> {
    let mut keys = Keys {
        keys: Vec::with_capacity(total),
        ties: ring.profile.ties,
        ranks,
    };
    for (owner, e) in ring.entries.iter().enumerate() {
        generate(
            ring.profile,
            ring.hash,
            e.node.as_bytes(),
            owner as u32,
            0..e.strings,
            lanes,
            &mut keys,
        );
    }
    keys.keys
}

/// Sorts point keys ([`sort_key`] over `ranks`) by radix and appends them to `cols` as
/// positions and owners (each owner read back from its rank).
pub(super) fn sorted_columns(ties: Ties, ranks: &[u32], mut keys: Vec<u64>, cols: &mut Columns) {
    radix::sort(&mut keys);
    let mut by_rank = alloc::vec![0u32; ranks.len()];
    for (owner, &rank) in ranks.iter().enumerate() {
        if let Some(slot) = by_rank.get_mut(rank as usize) {
            *slot = owner as u32;
        }
    }
    cols.values.extend(keys.iter().map(|&k| (k >> 32) as u32));
    cols.owners.extend(keys.iter().map(|&k| {
        let rank = rank_of_tie(ties, k as u32);
        by_rank.get(rank as usize).copied().unwrap_or(0)
    }));
}
