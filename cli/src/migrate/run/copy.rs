//! The copy workers: each takes batches of moving keys and, per batch, reads every source
//! item in one pipelined round (`mg <key> v f t c u`: value, client flags, remaining TTL, CAS,
//! no LRU bump), then writes the copies in one round (`ms`): add mode (`ME`) for a first copy,
//! so a key the new owner already holds (a client on the new placement wrote it: it is
//! newer) is never overwritten; for a key copied before whose source changed, set mode with
//! `C<cas>` of the copy as written, so a copy a client changed since is left alone.

use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::sync::Mutex;

use super::super::meta::{self, Got, MetaConn, Mode, SetReply};
use super::super::plan::now;
use super::super::state::Copy;
use super::delete::delete_batch;
use super::pool::{by, each, Pool};
use super::shared::{inc, record, Ctx, Job};

/// Takes batches until the channel closes.
pub fn worker(ctx: &Ctx, rx: &Mutex<Receiver<Vec<Job>>>) {
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
        if crate::stop::requested() {
            ctx.stop.store(true, Ordering::Relaxed);
            continue; // drain without work, so the feeder is never blocked
        }
        if let Some(b) = ctx.bucket {
            b.take(batch.len());
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

/// What to write for one job.
struct Write1 {
    job: Job,
    got: Got,
    mode: Mode,
    compare: Option<u64>,
    /// The `T` token.
    exp: i64,
}

fn copy_batch(ctx: &Ctx, old: &mut Pool, new: &mut Pool, batch: Vec<Job>) {
    let c = ctx.counts;
    let batch = probe_copies(ctx, new, batch);
    let mut writes = Vec::with_capacity(batch.len());
    for (job, got) in read_sources(ctx, old, batch) {
        let (mode, compare) = match &job.prev {
            Some(p) if p.src_cas == got.cas && p.dst == job.dst => {
                inc(&c.unchanged, 1);
                continue;
            }
            Some(p) if p.dst == job.dst => (Mode::Set, Some(p.dst_cas)),
            _ => (Mode::Add, None),
        };
        let Some(exp) = meta::exp_token(got.ttl, now() + ctx.clock[job.dst]) else {
            inc(&c.expired, 1);
            continue;
        };
        writes.push(Write1 {
            job,
            got,
            mode,
            compare,
            exp,
        });
    }
    let mut records: Vec<(Vec<u8>, Option<Copy>)> = Vec::new();
    // A compared write whose copy is gone (NF) is retried once in add mode.
    for _attempt in 0..2 {
        if writes.is_empty() {
            break;
        }
        let rounds = new.round(
            by(std::mem::take(&mut writes), |w| w.job.dst),
            |conn, w| {
                conn.queue_set(
                    &w.job.key,
                    &w.got.value,
                    w.got.flags,
                    w.exp,
                    w.mode,
                    w.compare,
                )
            },
            each(MetaConn::read_set),
        );
        for (dst, sent, replies) in rounds {
            for (w, reply) in sent.into_iter().zip(replies) {
                match reply {
                    SetReply::Stored(cas) => {
                        inc(
                            if w.compare.is_some() {
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
                                src_cas: w.got.cas,
                                dst_cas: cas,
                                seen: true,
                            }),
                        ));
                    }
                    SetReply::NotStored => {
                        inc(&c.kept, 1);
                        if w.job.prev.is_some() {
                            records.push((w.job.key, None));
                        }
                    }
                    SetReply::Exists => {
                        inc(&c.client_changed, 1);
                        records.push((w.job.key, None));
                    }
                    SetReply::Refused => inc(&c.refused, 1),
                    SetReply::NotFound => writes.push(Write1 {
                        mode: Mode::Add,
                        compare: None,
                        job: Job {
                            prev: None,
                            ..w.job
                        },
                        ..w
                    }),
                }
            }
        }
    }
    record(ctx, records);
}

/// Reads each job's source item (one pipelined round over the sources); the jobs whose
/// source failed are counted as failed and left out, those gone since listed as vanished.
fn read_sources(ctx: &Ctx, old: &mut Pool, batch: Vec<Job>) -> Vec<(Job, Got)> {
    let mut got = Vec::with_capacity(batch.len());
    let rounds = old.round(
        by(batch, |j| j.src),
        |conn, j| conn.queue_get(&j.key),
        each(MetaConn::read_get),
    );
    for (_, jobs, items) in rounds {
        for (j, g) in jobs.into_iter().zip(items) {
            match g {
                Some(g) => got.push((j, g)),
                None => inc(&ctx.counts.vanished, 1),
            }
        }
    }
    got
}

/// Keys copied before whose source is unchanged (same CAS at listing) are only checked on
/// the NEW server (`mg <key> c`, no value): unchanged when the copy still has the CAS the tool
/// wrote; copied again when it is gone (evicted, or the server restarted); forgotten (left
/// alone) when a client changed it. Returns the jobs that still need their source read.
fn probe_copies(ctx: &Ctx, new: &mut Pool, batch: Vec<Job>) -> Vec<Job> {
    let c = ctx.counts;
    let (probe, mut rest): (Vec<Job>, Vec<Job>) = batch.into_iter().partition(|j| {
        matches!(&j.prev, Some(p) if j.cas != 0 && p.src_cas == j.cas && p.dst == j.dst && p.src == j.src)
    });
    if probe.is_empty() {
        return rest;
    }
    let mut records = Vec::new();
    let rounds = new.round(
        by(probe, |j| j.dst),
        |conn, j| conn.queue_cas(&j.key),
        each(MetaConn::read_cas),
    );
    for (_, jobs, cas) in rounds {
        for (j, now) in jobs.into_iter().zip(cas) {
            let want = j.prev.as_ref().map_or(0, |p| p.dst_cas);
            match now {
                Some(x) if x == want => inc(&c.unchanged, 1),
                Some(_) => {
                    inc(&c.client_changed, 1);
                    records.push((j.key, None));
                }
                None => rest.push(Job { prev: None, ..j }),
            }
        }
    }
    record(ctx, records);
    rest
}
