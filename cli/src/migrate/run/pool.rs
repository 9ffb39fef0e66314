//! A worker's connections to one fleet, and the one pipelined round trip every step of a run
//! is made of: queue each server's requests, send them all, then read each server's replies.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use super::super::meta::MetaConn;
use super::open;
use super::shared::{inc, Ctx};

/// Connections to the servers of one fleet (OLD or NEW), opened on first use; a server that
/// failed is never tried again during the run.
pub struct Pool<'a> {
    ctx: &'a Ctx<'a>,
    labels: &'a [String],
    addrs: &'a [String],
    conns: HashMap<usize, MetaConn>,
}

impl<'a> Pool<'a> {
    /// The OLD fleet's connections.
    pub fn old(ctx: &'a Ctx<'a>) -> Pool<'a> {
        Pool::of(ctx, &ctx.pl.old_labels, &ctx.pl.old_addrs)
    }

    /// The NEW fleet's connections.
    pub fn new(ctx: &'a Ctx<'a>) -> Pool<'a> {
        Pool::of(ctx, &ctx.pl.new_labels, &ctx.pl.new_addrs)
    }

    fn of(ctx: &'a Ctx<'a>, labels: &'a [String], addrs: &'a [String]) -> Pool<'a> {
        Pool {
            ctx,
            labels,
            addrs,
            conns: HashMap::new(),
        }
    }

    /// The connection to server `i`; `None` when it failed (now or before).
    fn get(&mut self, i: usize) -> Option<&mut MetaConn> {
        if self.ctx.dead.has(&self.labels[i]) {
            self.conns.remove(&i);
            return None;
        }
        if let Entry::Vacant(e) = self.conns.entry(i) {
            match open(self.ctx.pl, &self.labels[i], &self.addrs[i]) {
                Ok(c) => {
                    e.insert(c);
                }
                Err(err) => {
                    self.ctx.dead.add(&self.labels[i], err);
                    return None;
                }
            }
        }
        self.conns.get_mut(&i)
    }

    /// Records server `i` as failed with `err`, drops its connection and counts `n` keys
    /// as not done.
    fn fail(&mut self, i: usize, err: String, n: usize) {
        self.ctx.dead.add(&self.labels[i], err);
        self.conns.remove(&i);
        inc(&self.ctx.counts.failed, n as u64);
    }

    /// One pipelined round trip: for each server of `groups`, `queue` each item's request;
    /// all servers' requests are sent before any reply is read; then `read` reads one
    /// server's replies (one per item, in order). The items of a server that fails are
    /// counted as failed and left out; the others come back with their replies.
    pub fn round<T, R>(
        &mut self,
        groups: BTreeMap<usize, Vec<T>>,
        mut queue: impl FnMut(&mut MetaConn, &T) -> Result<(), String>,
        mut read: impl FnMut(&mut MetaConn, &[T]) -> Result<Vec<R>, String>,
    ) -> Vec<(usize, Vec<T>, Vec<R>)> {
        let mut sent = Vec::with_capacity(groups.len());
        for (i, items) in groups {
            if items.is_empty() {
                continue;
            }
            let Some(conn) = self.get(i) else {
                inc(&self.ctx.counts.failed, items.len() as u64);
                continue;
            };
            let r = items
                .iter()
                .try_for_each(|t| queue(conn, t))
                .and_then(|_| conn.flush());
            match r {
                Ok(()) => sent.push((i, items)),
                Err(e) => self.fail(i, e, items.len()),
            }
        }
        let mut out = Vec::with_capacity(sent.len());
        for (i, items) in sent {
            let Some(conn) = self.conns.get_mut(&i) else {
                inc(&self.ctx.counts.failed, items.len() as u64);
                continue;
            };
            match read(conn, &items) {
                Ok(replies) => out.push((i, items, replies)),
                Err(e) => self.fail(i, e, items.len()),
            }
        }
        out
    }
}

/// `read` for [`Pool::round`] from a function that reads one reply.
pub fn each<T, R>(
    mut one: impl FnMut(&mut MetaConn) -> Result<R, String>,
) -> impl FnMut(&mut MetaConn, &[T]) -> Result<Vec<R>, String> {
    move |conn, items| items.iter().map(|_| one(conn)).collect()
}

/// Groups items by a server position.
pub fn by<T>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> usize,
) -> BTreeMap<usize, Vec<T>> {
    let mut m: BTreeMap<usize, Vec<T>> = BTreeMap::new();
    for t in items {
        m.entry(key(&t)).or_default().push(t);
    }
    m
}
