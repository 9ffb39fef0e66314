//! A worker's connections to one fleet, and the one pipelined round trip every step of a run
//! is made of: send each server's requests, then read each server's replies.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use super::counts::inc;
use super::shared::Ctx;
use crate::backend::{Backend, Connection, Endpoint, Purpose, Reply, Request, ServerError};

/// Connections to the servers of one fleet (OLD or NEW), opened on first use (and refused
/// when the server's process is not the one the run started with); a server that failed is
/// never tried again during the run.
pub struct Pool<'a, B: Backend> {
    ctx: &'a Ctx<'a, B>,
    endpoints: &'a [Endpoint],
    conns: HashMap<usize, B::Conn>,
}

/// The request of one item of a round, made from the item alone.
pub type MakeRequest<T> = for<'x> fn(&'x T) -> Request<'x>;

impl<'a, B: Backend> Pool<'a, B> {
    /// The OLD fleet's connections.
    pub fn old(ctx: &'a Ctx<'a, B>) -> Pool<'a, B> {
        Pool::of(ctx, &ctx.pl.old.endpoints)
    }

    /// The NEW fleet's connections.
    pub fn new(ctx: &'a Ctx<'a, B>) -> Pool<'a, B> {
        Pool::of(ctx, &ctx.pl.new.endpoints)
    }

    fn of(ctx: &'a Ctx<'a, B>, endpoints: &'a [Endpoint]) -> Pool<'a, B> {
        Pool {
            ctx,
            endpoints,
            conns: HashMap::new(),
        }
    }

    /// The connection to server `i`; `None` when it failed (now or before).
    fn get(&mut self, i: usize) -> Option<&mut B::Conn> {
        let label = &self.endpoints[i].label;
        if self.ctx.dead.has(label) {
            self.conns.remove(&i);
            return None;
        }
        if let Entry::Vacant(e) = self.conns.entry(i) {
            let ep = &self.endpoints[i];
            match self.ctx.backend.open(ep, Purpose::Sync) {
                Ok(mut c) => match self.ctx.processes.check(ep.side, i, &mut c) {
                    Ok(()) => {
                        e.insert(c);
                    }
                    Err(why) => {
                        self.ctx.dead.add(label, format!("server {label}: {why}"));
                        return None;
                    }
                },
                Err(err) => {
                    self.ctx.dead.add(label, err.message);
                    return None;
                }
            }
        }
        self.conns.get_mut(&i)
    }

    /// Records server `i` as failed with `err`, drops its connection and counts `n` keys
    /// as not done.
    fn fail(&mut self, i: usize, err: ServerError, n: usize) {
        self.ctx.dead.add(&self.endpoints[i].label, err.message);
        self.conns.remove(&i);
        self.not_done(n);
    }

    /// Counts `n` keys not done because their server failed; when the run is being stopped,
    /// the stop is what ended their wait and they are not counted as failed.
    fn not_done(&self, n: usize) {
        if !self.ctx.stopping() {
            inc(&self.ctx.counts.failed, n as u64);
        }
    }

    /// One pipelined round trip: each server of `groups` is sent the request of each of its
    /// items; all servers' requests are sent before any reply is read; then each server's
    /// replies are read (one per item, in order). The items of a server that fails are
    /// counted as failed and left out; the others come back with their replies.
    pub fn round<T>(
        &mut self,
        groups: BTreeMap<usize, Vec<T>>,
        request: MakeRequest<T>,
    ) -> Vec<(usize, Vec<T>, Vec<Reply>)> {
        self.round_within(groups, request, u64::MAX)
    }

    /// [`round`](Self::round), keeping at most `keep` bytes of item data over all its
    /// servers: reads past it come back as [`Reply::Later`].
    pub fn round_within<T>(
        &mut self,
        groups: BTreeMap<usize, Vec<T>>,
        request: MakeRequest<T>,
        mut keep: u64,
    ) -> Vec<(usize, Vec<T>, Vec<Reply>)> {
        let mut sent = Vec::with_capacity(groups.len());
        for (i, items) in groups {
            if items.is_empty() {
                continue;
            }
            let Some(conn) = self.get(i) else {
                self.not_done(items.len());
                continue;
            };
            let requests: Vec<Request> = items.iter().map(request).collect();
            match conn.send(&requests, keep) {
                Ok(()) => sent.push((i, items)),
                Err(e) => self.fail(i, e, items.len()),
            }
        }
        let mut out = Vec::with_capacity(sent.len());
        for (i, items) in sent {
            let Some(conn) = self.conns.get_mut(&i) else {
                self.not_done(items.len());
                continue;
            };
            let requests: Vec<Request> = items.iter().map(request).collect();
            match conn.receive(&requests, keep) {
                Ok(replies) => {
                    let kept: usize = replies
                        .iter()
                        .map(|r| match r {
                            Reply::Item(Some(it)) => it.data.len(),
                            _ => 0,
                        })
                        .sum();
                    keep = keep.saturating_sub(kept as u64);
                    out.push((i, items, replies));
                }
                Err(e) => self.fail(i, e, items.len()),
            }
        }
        out
    }
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
