//! Fresh builds and changes. A change computes the next server list and order first, hashes
//! only the point strings that appear, drops the ones that disappear, and merges into the
//! sorted arrays with the *new* order's tie rule, so stepwise rings equal fresh builds.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use super::entry::{rank, Entry};
use super::layout::{Columns, Layout};
use super::points::{generate, targets, Point};
use super::search::{order, sort_key};
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
    // Duplicate endpoints (labels, with IPv6 literals in canonical form) are found with a
    // sorted index: linear-logarithmic, not quadratic.
    let mut seen: alloc::collections::BTreeSet<alloc::string::String> = Default::default();
    for (i, s) in servers.into_iter().enumerate() {
        check_weight(&ring, s.weight).map_err(blame(i))?;
        if !seen.insert(s.endpoint()) {
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
    let wide = Layout::is_wide(ring.profile);
    let mut cols = Columns::with_capacity(points.len(), wide);
    if wide {
        points.sort_unstable_by(|a, b| order(ties, &r, a, b));
        for p in &points {
            cols.push(p, true);
        }
    } else {
        // The canonical order as one integer per point (position, then the tie rule's rank):
        // a plain integer sort, the same order as `order`.
        let mut keyed: Vec<(u64, u32)> = points
            .iter()
            .map(|p| (sort_key(ties, &r, p), p.owner))
            .collect();
        drop(points);
        keyed.sort_unstable_by_key(|k| k.0);
        for (k, owner) in keyed {
            cols.values.push((k >> 32) as u32);
            cols.owners.push(owner);
        }
    }
    ring.layout = Layout::derive(ring.profile, &ring.entries, cols);
    Ok(ring)
}

/// `ring` plus `server` at the end of the server order.
pub(super) fn with_added(ring: &Ring, server: Server) -> Result<Ring, Error> {
    check_weight(ring, server.weight)?;
    if ring.entries.iter().any(|e| e.server.same_endpoint(&server)) {
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
    let wide = Layout::is_wide(profile);
    let (values, owners): (&[u32], &[u32]) = match old.layout.continuum() {
        Some(c) => (&c.values, &c.owners),
        None => (&[], &[]),
    };
    let old_wide = old.layout.wide();
    let stored = |i: usize| Point {
        value: values[i],
        wide: old_wide.get(i).copied().unwrap_or(0),
        owner: owners[i],
    };
    // flexihash unsets every position the removed server had, whoever owns it now.
    let mut cleared: Vec<(u32, u128)> = Vec::new();
    if let (Some(r), Removal::ClearsItsPositions) = (removed, profile.removal) {
        cleared = (0..values.len())
            .filter(|&i| owners[i] as usize == r)
            .map(|i| (values[i], stored(i).wide))
            .collect();
        cleared.sort_unstable();
    }
    del.sort_unstable_by(|a, b| order(ties, &old_ranks, a, b));
    add.sort_unstable_by(|a, b| order(ties, &new_ranks, a, b));
    // One pass over the stored columns: drop what goes, renumber owners after a removed
    // server, and merge the new points in (old points are already in the new order: a
    // change never reorders the servers that stay).
    let mut cols = Columns::with_capacity(values.len() + add.len(), wide);
    let (mut d, mut a) = (0, 0);
    for i in 0..values.len() {
        let mut p = stored(i);
        if d < del.len() {
            while d < del.len() && order(ties, &old_ranks, &del[d], &p) == Ordering::Less {
                d += 1;
            }
            if d < del.len() && del[d] == p {
                d += 1;
                continue;
            }
        }
        if !cleared.is_empty() && cleared.binary_search(&(p.value, p.wide)).is_ok() {
            continue;
        }
        if let Some(r) = removed {
            match (p.owner as usize).cmp(&r) {
                Ordering::Equal => continue,
                Ordering::Greater => p.owner -= 1,
                Ordering::Less => {}
            }
        }
        while a < add.len() && order(ties, &new_ranks, &add[a], &p) == Ordering::Less {
            cols.push(&add[a], wide);
            a += 1;
        }
        cols.push(&p, wide);
    }
    for p in &add[a..] {
        cols.push(p, wide);
    }
    let layout = Layout::derive(profile, &entries, cols);
    Ok(Ring {
        profile,
        hash: old.hash,
        entries,
        layout,
    })
}
