//! The copy workers: each takes batches of moving keys and, per batch, reads every source
//! item in one pipelined round, then writes the copies in one round: write-if-absent for a
//! first copy, so a key the new owner already holds (a client on the new placement wrote
//! it: it is newer) is never overwritten; for a key copied before whose source changed, an
//! update only if the copy is still the one the tool wrote, so a copy a client changed since
//! is left alone.

use std::sync::mpsc::Receiver;
use std::sync::Mutex;

use super::counts::inc;
use super::delete::delete_batch;
use super::pool::{by, Pool};
use super::shared::{record, Ctx, Job};
use super::throttle;
use crate::backend::{Backend, Item, Reply, Request, Version, Written};
use crate::state::Copy;

/// Takes batches until the channel closes.
pub fn worker<B: Backend>(ctx: &Ctx<B>, rx: &Mutex<Receiver<Vec<Job>>>) {
    let mut old = Pool::old(ctx);
    let mut new = Pool::new(ctx);
    loop {
        let batch = {
            let Ok(rx) = rx.lock() else { return };
            match rx.recv() {
                Ok(b) => b,
                Err(_) => return,
            }
        };
        if ctx.stopping() {
            continue; // drain without work, so the feeder is never blocked
        }
        if let Some(b) = ctx.bucket {
            b.take(batch.len(), ctx.stop);
        }
        let n = batch.len() as u64;
        if ctx.delete_moved {
            delete_batch(ctx, &mut old, &mut new, batch);
        } else {
            copy_batch(ctx, &mut old, &mut new, batch);
        }
        inc(&ctx.counts.done, n);
    }
}

/// What to write for one job: a first copy, or an update of the copy at `expect`.
struct Write1 {
    job: Job,
    item: Item,
    expect: Option<Version>,
}

fn write_request(w: &Write1) -> Request<'_> {
    match w.expect {
        None => Request::Add(&w.job.key, &w.item),
        Some(expect) => Request::Update {
            key: &w.job.key,
            item: &w.item,
            expect,
        },
    }
}

fn copy_batch<B: Backend>(ctx: &Ctx<B>, old: &mut Pool<B>, new: &mut Pool<B>, batch: Vec<Job>) {
    let c = ctx.counts;
    let batch = probe_copies(ctx, new, batch);
    let mut writes = Vec::with_capacity(batch.len());
    for (job, item) in read_sources(ctx, old, batch) {
        let expect = match &job.prev {
            Some(p) if p.src_cas == item.version.0 && p.dst == job.dst => {
                inc(&c.unchanged, 1);
                continue;
            }
            Some(p) if p.dst == job.dst => Some(Version(p.dst_cas)),
            _ => None,
        };
        if item.expired() {
            inc(&c.expired, 1);
            continue;
        }
        if ctx.scale.read_too_short(&item) {
            inc(&c.short_ttl, 1);
            continue;
        }
        writes.push(Write1 { job, item, expect });
    }
    let mut records: Vec<(Vec<u8>, Option<Copy>)> = Vec::new();
    // A compared write whose copy is gone is retried once as a first copy.
    for _attempt in 0..2 {
        if writes.is_empty() {
            break;
        }
        let rounds = new.round(
            by(std::mem::take(&mut writes), |w| w.job.dst),
            write_request,
        );
        for (dst, sent, replies) in rounds {
            for (w, reply) in sent.into_iter().zip(replies) {
                let Reply::Written(reply) = reply else {
                    inc(&c.failed, 1);
                    continue;
                };
                written(ctx, dst, w, reply, &mut records, &mut writes);
            }
        }
    }
    record(ctx, records);
}

/// Counts and records what one write did; a compared write whose copy is gone goes back to
/// `retry` as a first copy.
fn written<B: Backend>(
    ctx: &Ctx<B>,
    dst: usize,
    w: Write1,
    reply: Written,
    records: &mut Vec<(Vec<u8>, Option<Copy>)>,
    retry: &mut Vec<Write1>,
) {
    let c = ctx.counts;
    match reply {
        Written::Stored(v) => {
            inc(
                if w.expect.is_some() {
                    &c.updated
                } else {
                    &c.copied
                },
                1,
            );
            records.push((
                w.job.key,
                Some(Copy {
                    src: w.job.src,
                    dst,
                    src_cas: w.item.version.0,
                    dst_cas: v.0,
                    seen: true,
                }),
            ));
        }
        Written::Exists => {
            inc(&c.kept, 1);
            if w.job.prev.is_some() {
                records.push((w.job.key, None));
            }
        }
        Written::Changed => {
            inc(&c.client_changed, 1);
            records.push((w.job.key, None));
        }
        Written::Refused => inc(&c.refused, 1),
        Written::Expired => inc(&c.expired, 1),
        Written::Gone => retry.push(Write1 {
            expect: None,
            job: Job {
                prev: None,
                ..w.job
            },
            ..w
        }),
    }
}

/// Reads each job's source item (one pipelined round over the sources); the jobs whose
/// source failed are counted as failed and left out, those gone since listed as vanished.
fn read_sources<B: Backend>(ctx: &Ctx<B>, old: &mut Pool<B>, batch: Vec<Job>) -> Vec<(Job, Item)> {
    let mut got = Vec::with_capacity(batch.len());
    let groups = by(batch, |j| j.src);
    throttle::before_read(ctx, groups.keys());
    let rounds = old.round(groups, |j| Request::Read(&j.key));
    for (src, jobs, items) in rounds {
        throttle::read(ctx, src, &items);
        for (j, r) in jobs.into_iter().zip(items) {
            match r {
                Reply::Item(Some(it)) => got.push((j, it)),
                Reply::Item(None) => inc(&ctx.counts.vanished, 1),
                _ => inc(&ctx.counts.failed, 1),
            }
        }
    }
    got
}

/// Keys copied before whose source is unchanged (same version at listing) are only checked
/// on the NEW server (the copy's version, no data): unchanged when the copy still has the
/// version the tool wrote; copied again when it is gone (evicted, or the server restarted);
/// forgotten (left alone) when a client changed it. Returns the jobs that still need their
/// source read.
fn probe_copies<B: Backend>(ctx: &Ctx<B>, new: &mut Pool<B>, batch: Vec<Job>) -> Vec<Job> {
    let c = ctx.counts;
    let (probe, mut rest): (Vec<Job>, Vec<Job>) = batch.into_iter().partition(|j| {
        matches!(&j.prev, Some(p) if j.version.is_known() && p.src_cas == j.version.0 && p.dst == j.dst && p.src == j.src)
    });
    if probe.is_empty() {
        return rest;
    }
    let mut records = Vec::new();
    let rounds = new.round(by(probe, |j| j.dst), |j| Request::Version(&j.key));
    for (_, jobs, versions) in rounds {
        for (j, now) in jobs.into_iter().zip(versions) {
            let want = j.prev.as_ref().map_or(0, |p| p.dst_cas);
            match now {
                Reply::Version(Some(v)) if v.0 == want => inc(&c.unchanged, 1),
                Reply::Version(Some(_)) => {
                    inc(&c.client_changed, 1);
                    records.push((j.key, None));
                }
                Reply::Version(None) => rest.push(Job { prev: None, ..j }),
                _ => inc(&c.failed, 1),
            }
        }
    }
    record(ctx, records);
    rest
}
