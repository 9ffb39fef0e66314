//! The copy workers: each takes batches of moving keys and, per batch, checks the recorded
//! copies on their NEW servers ([`check_new`]), reads every source item in one pipelined
//! round, records the intent of each write in the state file, then writes the copies in one
//! round: write-if-absent for a first copy, so a key the new owner already holds (a client
//! on the new placement wrote it: it is newer) is never overwritten; for a key copied
//! before whose source changed, an update only if the copy is still the one the tool wrote,
//! so a copy a client changed since is left alone. What each write did is recorded as its
//! reply is read; a write whose reply never comes (a stop, a server that stalls) stays an
//! intent, which the next run settles.

use std::collections::VecDeque;
use std::sync::mpsc::Receiver;
use std::sync::Mutex;

use super::check::check_new;
use super::counts::inc;
use super::delete::delete_batch;
use super::job::Job;
use super::limits::BATCH_BYTES;
use super::pool::{by, Pool};
use super::shared::{record, Ctx, Note};
use crate::backend::{Backend, Item, Reply, Request, Written};
use crate::state::{digest, Copy, Intent, Ver};

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

/// What to write for one job: a first copy, or an update of its recorded copy.
struct Write1 {
    job: Job,
    item: Item,
    digest: u64,
    update: bool,
}

fn write_request(w: &Write1) -> Request<'_> {
    match (w.update, w.job.copy) {
        (true, Some(c)) => Request::Update {
            key: &w.job.key,
            item: &w.item,
            expect: c.dv.version,
        },
        _ => Request::Add(&w.job.key, &w.item),
    }
}

/// Copies a batch, in rounds that keep at most [`BATCH_BYTES`] of values in memory (one
/// item alone in its round is kept whatever its size: at most the source's item size limit).
/// A round is planned by the sizes the jobs are expected to take; a value found larger than
/// the round could still keep is read past and its job planned again with its real size.
fn copy_batch<B: Backend>(ctx: &Ctx<B>, old: &mut Pool<B>, new: &mut Pool<B>, batch: Vec<Job>) {
    let mut notes = Vec::new();
    let mut queue: VecDeque<Job> = check_new(ctx, new, batch, &mut notes).into();
    while !queue.is_empty() && !ctx.stopping() {
        let round = take_round(&mut queue);
        let keep = if round.len() == 1 {
            u64::MAX
        } else {
            BATCH_BYTES
        };
        let (got, later) = read_sources(ctx, old, round, keep);
        for j in later.into_iter().rev() {
            queue.push_front(j);
        }
        write_copies(ctx, new, got, std::mem::take(&mut notes));
    }
    if !notes.is_empty() {
        record(ctx, notes);
    }
}

/// The jobs of the next round from the front of `queue`: at least one, then as many as fit
/// in [`BATCH_BYTES`] by their expected sizes.
fn take_round(queue: &mut VecDeque<Job>) -> Vec<Job> {
    let mut round = Vec::new();
    let mut bytes = 0u64;
    while let Some(j) = queue.front() {
        if !round.is_empty() && bytes.saturating_add(j.size) > BATCH_BYTES {
            break;
        }
        bytes = bytes.saturating_add(j.size);
        round.extend(queue.pop_front());
    }
    round
}

/// Writes the copies of the items read: a first copy, or an update of a copy whose source
/// changed. `notes` (what the check of the recorded copies found) and the intent of every
/// write are recorded in the state file before the round of writes, what each write did as
/// its reply is read.
fn write_copies<B: Backend>(
    ctx: &Ctx<B>,
    new: &mut Pool<B>,
    got: Vec<(Job, Item)>,
    mut notes: Vec<Note>,
) {
    let c = ctx.counts;
    let mut writes = Vec::with_capacity(got.len());
    for (job, item) in got {
        let same_source = job
            .copy
            .is_some_and(|p| p.sv.sure && p.sv.version == item.version);
        if same_source {
            inc(&c.unchanged, 1);
            continue;
        }
        if item.expired() {
            inc(&c.expired, 1);
            continue;
        }
        if ctx.scale.read_too_short(&item) {
            inc(&c.short_ttl, 1);
            continue;
        }
        let d = digest(&item.data, item.flags);
        notes.push(Note::Intent(
            job.src,
            job.key.clone(),
            Intent {
                dst: job.dst,
                sv: Ver::sure(item.version),
                digest: d,
            },
        ));
        let update = job.copy.is_some();
        writes.push(Write1 {
            job,
            item,
            digest: d,
            update,
        });
    }
    // Nothing is written that the state file does not know may be written.
    if !record(ctx, std::mem::take(&mut notes)) {
        inc(&c.failed, writes.len() as u64);
        return;
    }
    // A compared write whose copy is gone is retried once as a first copy (its intent
    // stands for both).
    for _attempt in 0..2 {
        if writes.is_empty() {
            break;
        }
        let rounds = new.round(
            by(std::mem::take(&mut writes), |w| w.job.dst),
            write_request,
        );
        for (_, sent, replies) in rounds {
            for (w, reply) in sent.into_iter().zip(replies) {
                let Reply::Written(reply) = reply else {
                    inc(&c.failed, 1);
                    continue;
                };
                written(ctx, w, reply, &mut notes, &mut writes);
            }
        }
    }
    record(ctx, notes);
}

/// Counts and records what one write did; a compared write whose copy is gone goes back to
/// `retry` as a first copy.
fn written<B: Backend>(
    ctx: &Ctx<B>,
    w: Write1,
    reply: Written,
    notes: &mut Vec<Note>,
    retry: &mut Vec<Write1>,
) {
    let c = ctx.counts;
    let (src, key) = (w.job.src, w.job.key.clone());
    match reply {
        Written::Stored(v) => {
            inc(if w.update { &c.updated } else { &c.copied }, 1);
            let copy = Copy {
                dst: w.job.dst,
                sv: Ver::sure(w.item.version),
                dv: Ver::sure(v),
                digest: Some(w.digest),
            };
            notes.push(Note::Copied(src, key, copy));
        }
        Written::Exists => {
            inc(&c.kept, 1);
            notes.push(Note::Forget(src, key));
        }
        Written::Changed => {
            inc(&c.client_changed, 1);
            notes.push(Note::Forget(src, key));
        }
        Written::Refused => {
            inc(&c.refused, 1);
            notes.push(Note::Void(src, key));
        }
        Written::Expired => {
            inc(&c.expired, 1);
            notes.push(Note::Forget(src, key));
        }
        Written::Gone => retry.push(Write1 {
            update: false,
            job: Job {
                copy: None,
                ..w.job
            },
            ..w
        }),
    }
}

/// Reads each job's source item (one pipelined round over the sources, keeping at most
/// `keep` bytes of values, after the wait for the byte limit); the jobs whose source failed
/// are counted as failed and left out, those gone since listed as vanished; those whose value
/// did not fit come back apart, with its size.
fn read_sources<B: Backend>(
    ctx: &Ctx<B>,
    old: &mut Pool<B>,
    round: Vec<Job>,
    keep: u64,
) -> (Vec<(Job, Item)>, Vec<Job>) {
    let mut got = Vec::with_capacity(round.len());
    let mut later = Vec::new();
    let groups = by(round, |j| j.src);
    before_read(ctx, groups.keys());
    let rounds = old.round_within(groups, |j| Request::Read(&j.key), keep);
    for (src, jobs, items) in rounds {
        charge_read(ctx, src, &items);
        for (j, r) in jobs.into_iter().zip(items) {
            match r {
                Reply::Item(Some(it)) => got.push((j, it)),
                Reply::Item(None) => inc(&ctx.counts.vanished, 1),
                Reply::Later(size) => later.push(Job { size, ..j }),
                _ => inc(&ctx.counts.failed, 1),
            }
        }
    }
    (got, later)
}

/// Before a round of reads from `servers` (OLD file positions): waits for the run's byte
/// limit, if any.
fn before_read<'s, B>(ctx: &Ctx<B>, servers: impl Iterator<Item = &'s usize>) {
    if let Some(t) = &ctx.scale.throttle {
        let servers: Vec<usize> = servers.copied().collect();
        t.wait(&servers, ctx.stop);
    }
}

/// After a round: counts the bytes of the values read from OLD server `server` (those kept,
/// and those read past because the round could keep no more: they crossed the network too),
/// and charges them to the byte limit.
fn charge_read<B>(ctx: &Ctx<B>, server: usize, replies: &[Reply]) {
    let bytes: u64 = replies
        .iter()
        .map(|r| match r {
            Reply::Item(Some(it)) => it.data.len() as u64,
            Reply::Later(size) => *size,
            _ => 0,
        })
        .sum();
    inc(&ctx.counts.bytes_read, bytes);
    if let Some(t) = &ctx.scale.throttle {
        t.charge(server, bytes);
    }
}
