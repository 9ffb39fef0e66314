//! Fresh builds and changes. A change computes the next server list and order first, hashes
//! only the point strings that appear, drops the ones that disappear, and merges into the
//! sorted arrays with the *new* order's tie rule, so stepwise rings equal fresh builds.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use super::entry::{rank, Entry};
use super::layout::Layout;
use super::points::{generate, targets, Point};
use super::search::order;
use super::Ring;
use crate::error::Error;
use crate::profile::{Removal, ZeroWeight};
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

/// Checks a weight against the profile's zero-weight rule.
fn check_weight(ring: &Ring, weight: u32) -> Result<(), Error> {
    if weight == 0 && ring.profile.zero_weight == ZeroWeight::Reject {
        return Err(Error::BadWeight);
    }
    Ok(())
}

/// Each entry's rank, indexed by entry (for [`order`]).
fn ranks(entries: &[Entry]) -> Vec<u32> {
    entries.iter().map(|e| e.rank).collect()
}

/// Builds `base` (an empty ring) up from `servers` in one pass.
pub(super) fn fresh(
    mut ring: Ring,
    servers: impl IntoIterator<Item = Server>,
) -> Result<Ring, BuildError> {
    let blame = |i: usize| {
        move |error: Error| BuildError {
            error,
            server: Some(i),
        }
    };
    // Duplicate labels are found with a sorted index: linear-logarithmic, not quadratic.
    let mut seen: alloc::collections::BTreeSet<alloc::string::String> = Default::default();
    for (i, s) in servers.into_iter().enumerate() {
        check_weight(&ring, s.weight).map_err(blame(i))?;
        if !seen.insert(s.label.clone()) {
            return Err(blame(i)(Error::DuplicateServer));
        }
        ring.entries
            .push(Entry::new(ring.profile, s).map_err(blame(i))?);
    }
    rank(ring.profile.order, &mut ring.entries);
    let counts = targets(ring.profile, &ring.entries).map_err(|error| BuildError {
        error,
        server: None,
    })?;
    let mut points = Vec::new();
    for (i, (e, &t)) in ring.entries.iter_mut().zip(&counts).enumerate() {
        e.strings = t;
        generate(ring.profile, ring.hash, e, i as u32, 0..t, &mut points);
    }
    let r = ranks(&ring.entries);
    let ties = ring.profile.ties;
    points.sort_unstable_by(|a, b| order(ties, &r, a, b));
    ring.layout = Layout::derive(ring.profile, &ring.entries, &points);
    Ok(ring)
}

/// `ring` plus `server` at the end of the server order.
pub(super) fn with_added(ring: &Ring, server: Server) -> Result<Ring, Error> {
    check_weight(ring, server.weight)?;
    if ring.position(&server.label).is_some() {
        return Err(Error::DuplicateServer);
    }
    let mut entries = ring.entries.clone();
    entries.push(Entry::new(ring.profile, server)?);
    change(ring, entries, None)
}

/// `ring` without the server labelled `label`, and that server.
pub(super) fn with_removed(ring: &Ring, label: &str) -> Result<(Ring, Server), Error> {
    let at = ring.position(label).ok_or(Error::MissingServer)?;
    let mut entries = ring.entries.clone();
    let gone = entries.remove(at);
    Ok((change(ring, entries, Some(at))?, gone.server))
}

/// `ring` with the weight of the server labelled `label` changed in place.
pub(super) fn with_weight(ring: &Ring, label: &str, weight: u32) -> Result<Ring, Error> {
    let at = ring.position(label).ok_or(Error::MissingServer)?;
    check_weight(ring, weight)?;
    let mut entries = ring.entries.clone();
    entries[at].server.weight = weight;
    change(ring, entries, None)
}

/// The ring for `entries` (the old ones minus `removed`, or with one more at the end, or one
/// weight changed), from the old ring's points: the removed server's points are dropped by
/// owner, strings other servers lose are hashed again to find them, strings they gain are
/// hashed, and everything is merged in the new order.
fn change(old: &Ring, mut entries: Vec<Entry>, removed: Option<usize>) -> Result<Ring, Error> {
    let profile = old.profile;
    rank(profile.order, &mut entries);
    let counts = targets(profile, &entries)?;
    let old_ranks = ranks(&old.entries);
    let new_ranks = ranks(&entries);
    let ties = profile.ties;
    let mut add = Vec::new();
    let mut del = Vec::new();
    for (i, entry) in entries.iter_mut().enumerate() {
        let (have, want) = (entry.strings, counts[i]);
        // Points as stored now carry the owner's *old* index.
        let old_index = match removed {
            Some(r) if i >= r => i + 1,
            _ => i,
        } as u32;
        if want > have {
            generate(profile, old.hash, entry, i as u32, have..want, &mut add);
        } else if want < have {
            generate(profile, old.hash, entry, old_index, want..have, &mut del);
        }
        entry.strings = want;
    }
    let stored = old.layout.points();
    // flexihash unsets every position the removed server had, whoever owns it now.
    let mut cleared: Vec<(u32, u128)> = Vec::new();
    if let (Some(r), Removal::ClearsItsPositions) = (removed, profile.removal) {
        cleared = stored
            .iter()
            .filter(|p| p.owner as usize == r)
            .map(|p| (p.value, p.wide))
            .collect();
        cleared.sort_unstable();
    }
    del.sort_unstable_by(|a, b| order(ties, &old_ranks, a, b));
    let mut kept = Vec::with_capacity(stored.len() + add.len());
    let mut d = 0;
    for p in stored {
        while d < del.len() && order(ties, &old_ranks, &del[d], &p) == Ordering::Less {
            d += 1;
        }
        if d < del.len() && del[d] == p {
            d += 1;
            continue;
        }
        if !cleared.is_empty() && cleared.binary_search(&(p.value, p.wide)).is_ok() {
            continue;
        }
        match removed.map(|r| (p.owner as usize).cmp(&r)) {
            Some(Ordering::Equal) => {}
            Some(Ordering::Greater) => kept.push(Point {
                owner: p.owner - 1,
                ..p
            }),
            _ => kept.push(p),
        }
    }
    add.sort_unstable_by(|a, b| order(ties, &new_ranks, a, b));
    let merged = merge(kept, add, |a, b| order(ties, &new_ranks, a, b));
    let layout = Layout::derive(profile, &entries, &merged);
    Ok(Ring {
        profile,
        hash: old.hash,
        entries,
        layout,
    })
}

/// Merges two sorted vectors.
fn merge(a: Vec<Point>, b: Vec<Point>, cmp: impl Fn(&Point, &Point) -> Ordering) -> Vec<Point> {
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if cmp(&b[j], &a[i]) == Ordering::Less {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}
