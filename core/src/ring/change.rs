//! Changes: a change computes the next server list and order first, hashes only the point
//! strings that appear, drops the ones that disappear, and merges into the sorted arrays with
//! the *new* order's tie rule, so stepwise rings equal fresh builds.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::build::{check_weight, fresh, ranks};
use super::compiled::Ring;
use super::continuum::{Columns, Continuum};
use super::entry::{rank, Entry};
use super::layout::Layout;
use super::order::{order, rank_of_tie, sort_key};
use super::points::{generate, generate_jobs, targets, Job, Point};
use super::radix;
use super::scratch::Scratch;
use crate::error::Error;
use crate::hash::md5::lanes::Lanes;
use crate::profile::{Removal, Ties};
use crate::server::Server;

impl Ring {
    /// The next snapshot: this ring plus `server` at the end of the server order (this ring
    /// is left as it is). See [`Ring::add`].
    pub fn with_added(&self, server: Server) -> Result<Ring, Error> {
        with_added(self, server, &mut Scratch::default())
    }

    /// [`Ring::with_added`], writing the points into `scratch`'s memory where it has some.
    pub fn with_added_in(&self, server: Server, scratch: &mut Scratch) -> Result<Ring, Error> {
        with_added(self, server, scratch)
    }

    /// The next snapshot: this ring without the server labelled `label`, and that server.
    /// See [`Ring::remove`].
    pub fn with_removed(&self, label: &str) -> Result<(Ring, Server), Error> {
        with_removed(self, label, &mut Scratch::default())
    }

    /// [`Ring::with_removed`], writing the points into `scratch`'s memory where it has some.
    pub fn with_removed_in(
        &self,
        label: &str,
        scratch: &mut Scratch,
    ) -> Result<(Ring, Server), Error> {
        with_removed(self, label, scratch)
    }

    /// The next snapshot: this ring with one server's weight changed. See
    /// [`Ring::set_weight`].
    pub fn with_weight(&self, label: &str, weight: u32) -> Result<Ring, Error> {
        with_weight(self, label, weight, &mut Scratch::default())
    }

    /// [`Ring::with_weight`], writing the points into `scratch`'s memory where it has some.
    pub fn with_weight_in(
        &self,
        label: &str,
        weight: u32,
        scratch: &mut Scratch,
    ) -> Result<Ring, Error> {
        with_weight(self, label, weight, scratch)
    }

    /// Adds a server at the end of the server order (a ring from [`Ring::from_points`]
    /// refuses every change with [`Error::FixedPoints`]). Only this server's points are hashed,
    /// plus the few strings other servers gain or lose when relative weights shift; they are
    /// merged into the sorted continuum. On error the ring is unchanged.
    pub fn add(&mut self, server: Server) -> Result<(), Error> {
        *self = self.with_added(server)?;
        Ok(())
    }

    /// Removes the server with this label and returns it. Its points are dropped without
    /// being hashed again. On error the ring is unchanged.
    pub fn remove(&mut self, label: &str) -> Result<Server, Error> {
        let (next, gone) = self.with_removed(label)?;
        *self = next;
        Ok(gone)
    }

    /// Changes a server's weight in place (its position in the server order is kept).
    /// On error the ring is unchanged.
    pub fn set_weight(&mut self, label: &str, weight: u32) -> Result<(), Error> {
        *self = self.with_weight(label, weight)?;
        Ok(())
    }

    /// Gives this ring's point arrays back for reuse by a later change.
    pub fn into_scratch(self) -> Scratch {
        self.layout.into_scratch()
    }
}

/// A ring from explicit points does not know which points a change would bring.
fn refuse_explicit(ring: &Ring) -> Result<(), Error> {
    if ring.explicit {
        return Err(Error::FixedPoints);
    }
    Ok(())
}

/// `ring` plus `server` at the end of the server order.
fn with_added(ring: &Ring, server: Server, scratch: &mut Scratch) -> Result<Ring, Error> {
    refuse_explicit(ring)?;
    check_weight(ring, server.weight)?;
    if ring.entries.iter().any(|e| e.server.same_endpoint(&server)) {
        return Err(Error::DuplicateServer);
    }
    let mut entries = ring.entries.clone();
    let place = entries.len();
    entries.push(Entry::new(ring.profile, server, place)?);
    change(ring, entries, None, scratch)
}

/// `ring` without the server labelled `label`, and that server.
fn with_removed(ring: &Ring, label: &str, scratch: &mut Scratch) -> Result<(Ring, Server), Error> {
    refuse_explicit(ring)?;
    let at = ring.position(label).ok_or(Error::MissingServer)?;
    let mut entries = ring.entries.clone();
    let gone = entries.remove(at);
    Ok((
        change(ring, entries, Some(at), scratch)?,
        Arc::unwrap_or_clone(gone.server),
    ))
}

/// `ring` with the weight of the server labelled `label` changed in place.
fn with_weight(
    ring: &Ring,
    label: &str,
    weight: u32,
    scratch: &mut Scratch,
) -> Result<Ring, Error> {
    refuse_explicit(ring)?;
    let at = ring.position(label).ok_or(Error::MissingServer)?;
    check_weight(ring, weight)?;
    let mut entries = ring.entries.clone();
    Arc::make_mut(&mut entries[at].server).weight = weight;
    change(ring, entries, None, scratch)
}

/// The ring for `entries` (the old ones minus `removed`, or with one more at the end, or one
/// weight changed), from the old ring's points: the removed server's points are dropped by
/// owner, strings other servers lose are hashed again to find them, strings they gain are
/// hashed, and everything is merged in the new order.
fn change(
    old: &Ring,
    mut entries: Vec<Entry>,
    removed: Option<usize>,
    scratch: &mut Scratch,
) -> Result<Ring, Error> {
    let profile = old.profile;
    if profile.node.follows_place_or_weight() {
        // Node strings change with the list: every server's points are made afresh.
        let empty = Ring {
            options: old.options,
            ..Ring::new(profile, Some(old.hash))
        };
        let servers = entries.into_iter().map(|e| Arc::unwrap_or_clone(e.server));
        return fresh(empty, servers, scratch).map_err(|e| e.error);
    }
    rank(profile.order, &mut entries);
    let counts = targets(profile, &entries)?;
    let old_ranks = ranks(&old.entries);
    let new_ranks = ranks(&entries);
    let ties = profile.ties;
    let lanes = Lanes::detect();
    // Which strings each server gains (owner: its new index) or loses (owner: its index as
    // stored, the old one); then all of them hashed together, sharing the SIMD lanes.
    let mut gains = Vec::new();
    let mut losses = Vec::new();
    for (i, entry) in entries.iter_mut().enumerate() {
        let (have, want) = (entry.strings, counts[i]);
        let old_index = match removed {
            Some(r) if i >= r => i + 1,
            _ => i,
        } as u32;
        if want > have {
            gains.push((i, i as u32, have..want));
        } else if want < have {
            losses.push((i, old_index, want..have));
        }
        entry.strings = want;
    }
    let jobs = |list: &[(usize, u32, core::ops::Range<u32>)]| -> Vec<Job<'_>> {
        list.iter()
            .map(|(i, owner, r)| (entries[*i].node.as_bytes(), *owner, r.clone()))
            .collect()
    };
    let mut add = Vec::new();
    let mut del = Vec::new();
    generate_jobs(profile, old.hash, &jobs(&gains), lanes, &mut add);
    generate_jobs(profile, old.hash, &jobs(&losses), lanes, &mut del);
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
    if !wide && cleared.is_empty() {
        // The removed server's points are found like any other lost point (its strings
        // hashed again), so the copy only renumbers owners and filters nothing.
        if let Some(gone) = removed.and_then(|r| old.entries.get(r)) {
            let r = removed.unwrap_or(0) as u32;
            generate(
                profile,
                old.hash,
                gone.node.as_bytes(),
                r,
                0..gone.strings,
                lanes,
                &mut del,
            );
        }
        let cols = merge_narrow(
            old,
            Change {
                ties,
                old_ranks: &old_ranks,
                new_ranks: &new_ranks,
                removed,
            },
            add,
            del,
            scratch,
        );
        let layout = Layout::derive(profile, old.hash, &entries, cols);
        return Ok(Ring {
            profile,
            hash: old.hash,
            options: old.options,
            entries,
            layout,
            explicit: false,
        });
    }
    del.sort_unstable_by(|a, b| order(ties, &old_ranks, a, b));
    add.sort_unstable_by(|a, b| order(ties, &new_ranks, a, b));
    // One pass over the stored columns: drop what goes, renumber owners after a removed
    // server, and merge the new points in (old points are already in the new order: a
    // change never reorders the servers that stay).
    let mut cols = Columns::with_capacity(values.len() + add.len(), wide, scratch);
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
    let layout = Layout::derive(profile, old.hash, &entries, cols);
    Ok(Ring {
        profile,
        hash: old.hash,
        options: old.options,
        entries,
        layout,
        explicit: false,
    })
}

/// The first index at or after `from` whose value is >= `v` (`values` ascending), galloping
/// forward from `from`: a merge visits the continuum in order, so each search stays within
/// a few cache lines of the previous one (a binary search from the index would touch cold
/// lines all over the continuum and its index).
fn seek(values: &[u32], from: usize, v: u32) -> usize {
    let n = values.len();
    match values.get(from) {
        None => return n,
        Some(&x) if x >= v => return from,
        Some(_) => {}
    }
    // values[lo] < v; widen the step until values[hi] >= v or the end.
    let (mut lo, mut step) = (from, 1usize);
    let mut hi = from + 1;
    while hi < n && values[hi] < v {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    let hi = hi.min(n);
    lo + 1 + values[lo + 1..hi].partition_point(|&x| x < v)
}

/// What [`merge_narrow`] needs to know about a change.
struct Change<'a> {
    ties: Ties,
    old_ranks: &'a [u32],
    new_ranks: &'a [u32],
    removed: Option<usize>,
}

/// The change's merge for 32-bit rings, in bulk: the positions of the points that go and of
/// the points that come are found by binary search, and the stored columns are copied in
/// runs between them (a removed server's points dropped and later owners renumbered on the
/// way). The same result as the point-by-point merge, in the same canonical order.
fn merge_narrow(
    old: &Ring,
    ch: Change<'_>,
    add: Vec<Point>,
    del: Vec<Point>,
    scratch: &mut Scratch,
) -> Columns {
    let empty = Continuum::default();
    let c = old.layout.continuum().unwrap_or(&empty);
    let (values, owners) = (&c.values[..], &c.owners[..]);
    let renumber = |o: u32| match ch.removed {
        Some(r) if o as usize > r => o - 1,
        _ => o,
    };
    // Points as (sort key, owner), sorted: the keys radix-sorted as plain integers, each
    // owner read back from the rank in its key.
    let keyed = |points: Vec<Point>, ranks: &[u32]| {
        let mut keys: Vec<u64> = points.iter().map(|p| sort_key(ch.ties, ranks, p)).collect();
        radix::sort(&mut keys);
        let mut by_rank = alloc::vec![0u32; ranks.len()];
        for (owner, &rank) in ranks.iter().enumerate() {
            if let Some(slot) = by_rank.get_mut(rank as usize) {
                *slot = owner as u32;
            }
        }
        keys.into_iter()
            .map(|k| {
                let rank = rank_of_tie(ch.ties, k as u32);
                (k, by_rank.get(rank as usize).copied().unwrap_or(0))
            })
            .collect::<Vec<(u64, u32)>>()
    };
    // Stored points that go: each `del` point's index (owners as stored, old order).
    let del = keyed(del, ch.old_ranks);
    let mut drops: Vec<usize> = Vec::with_capacity(del.len());
    for &(key, owner) in &del {
        let value = (key >> 32) as u32;
        let from = drops.last().map_or(0, |&last| last + 1);
        let mut i = seek(values, from, value);
        while i < values.len() && values[i] == value && owners[i] != owner {
            i += 1;
        }
        if i < values.len() && values[i] == value {
            drops.push(i);
        }
    }
    // Where each new point goes: after every stored point that precedes it in the new order.
    let add = keyed(add, ch.new_ranks);
    // A stored point's key in the new order; a removed server's points (about to be
    // dropped) sort before everything so they never stop the walk.
    let new_key = |i: usize| {
        if ch.removed == Some(owners[i] as usize) {
            return 0;
        }
        let p = Point {
            value: values[i],
            wide: 0,
            owner: renumber(owners[i]),
        };
        sort_key(ch.ties, ch.new_ranks, &p)
    };
    let mut cols = Columns::with_capacity(values.len() + add.len(), false, scratch);
    // The values that leave and come (ascending), to patch the prefix index.
    let gone: Vec<u32> = drops.iter().map(|&i| values[i]).collect();
    let came: Vec<u32> = add.iter().map(|&(key, _)| (key >> 32) as u32).collect();
    let mut drops = drops.into_iter().peekable();
    let copy = |cols: &mut Columns, from: usize, to: usize| {
        if from >= to {
            return;
        }
        match ch.removed {
            None => {
                cols.values.extend_from_slice(&values[from..to]);
                cols.owners.extend_from_slice(&owners[from..to]);
            }
            Some(r) => {
                // The removed server's points are all in `drops`: only renumber.
                let r = r as u32;
                cols.values.extend_from_slice(&values[from..to]);
                cols.owners
                    .extend(owners[from..to].iter().map(|&o| o - u32::from(o > r)));
            }
        }
    };
    let mut copy_keeping = |cols: &mut Columns, from: usize, to: usize| {
        let mut start = from;
        while let Some(&d) = drops.peek() {
            if d >= to {
                break;
            }
            copy(cols, start, d);
            start = d + 1;
            drops.next();
        }
        copy(cols, start, to);
    };
    let mut at = 0usize;
    for &(key, owner) in &add {
        let value = (key >> 32) as u32;
        let mut pos = seek(values, at, value);
        while pos < values.len() && values[pos] == value && new_key(pos) < key {
            pos += 1;
        }
        copy_keeping(&mut cols, at, pos);
        cols.values.push(value);
        cols.owners.push(owner);
        at = pos;
    }
    copy_keeping(&mut cols, at, values.len());
    let starts = core::mem::take(&mut cols.starts);
    match c.index.patched_in(cols.values.len(), &gone, &came, starts) {
        Ok(index) => cols.index = Some(index),
        Err(starts) => cols.starts = starts,
    }
    cols
}
