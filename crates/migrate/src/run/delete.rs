//! The deletes of a run: moved keys at their OLD server (where their NEW owner holds the
//! key) and, with a state file, copies whose source is gone. Every delete is compared with
//! the version the tool knows, so an item a client changed since is left alone; a copy
//! whose version is not sure (its server restarted) or whose last write's outcome is
//! unknown is read first and deleted only when it holds what the tool wrote.

use super::check::{found, Found};
use super::counts::inc;
use super::error::RunError;
use super::job::Job;
use super::limits::BATCH;
use super::pool::{by, Pool};
use super::shared::{record, Ctx, Note};
use super::spool::Spool;
use crate::backend::{Backend, Deleted, Reply, Request, Version};

/// Deletes OLD copies whose NEW owner holds the key (one round asking the NEW owners, one
/// deleting at the sources).
pub fn delete_batch<B: Backend>(
    ctx: &Ctx<B>,
    old: &mut Pool<B>,
    new: &mut Pool<B>,
    batch: Vec<Job>,
) {
    let c = ctx.counts;
    let mut held = Vec::with_capacity(batch.len());
    let rounds = new.round(by(batch, |j| j.dst), |j| Request::Version(&j.key));
    for (_, jobs, has) in rounds {
        for (j, h) in jobs.into_iter().zip(has) {
            match h {
                Reply::Version(Some(_)) => held.push(j),
                Reply::Version(None) => inc(&c.not_held, 1),
                _ => inc(&c.failed, 1),
            }
        }
    }
    let mut notes = Vec::new();
    let rounds = old.round(by(held, |j| j.src), |j| Request::Delete {
        key: &j.key,
        expect: j.version.is_known().then_some(j.version),
    });
    for (_, jobs, replies) in rounds {
        for (j, r) in jobs.into_iter().zip(replies) {
            match r {
                Reply::Deleted(Deleted::Deleted) => {
                    inc(&c.deleted_old, 1);
                    notes.push(Note::Forget(j.src, j.key));
                }
                Reply::Deleted(Deleted::Gone) => inc(&c.vanished, 1),
                Reply::Deleted(Deleted::Changed) => inc(&c.changed_at_source, 1),
                _ => inc(&c.failed, 1),
            }
        }
    }
    record(ctx, notes);
}

/// Deletes the recorded copies of `gone` (jobs of OLD server `src` whose key it no longer
/// lists as moving), unless a client changed them since the tool wrote them.
pub fn delete_gone<B: Backend>(ctx: &Ctx<B>, gone: Spool<Job>) -> Result<(), RunError> {
    let mut new = Pool::new(ctx);
    let mut chunk = Vec::with_capacity(BATCH);
    gone.drain(|j: Job| -> Result<bool, RunError> {
        if ctx.stopping() {
            return Ok(false);
        }
        chunk.push(j);
        if chunk.len() >= BATCH {
            delete_chunk(ctx, &mut new, std::mem::take(&mut chunk));
        }
        Ok(true)
    })?;
    if !ctx.stopping() {
        delete_chunk(ctx, &mut new, chunk);
    }
    Ok(())
}

/// One chunk of gone copies: those not known for sure are read first (one round), then
/// the tool's are deleted, compared with their version (one round).
fn delete_chunk<B: Backend>(ctx: &Ctx<B>, new: &mut Pool<B>, chunk: Vec<Job>) {
    let c = ctx.counts;
    let mut notes = Vec::new();
    let (sure, unsure): (Vec<Job>, Vec<Job>) = chunk
        .into_iter()
        .partition(|j| j.intent.is_none() && j.copy.is_some_and(|c| c.dv.sure));
    let mut doomed: Vec<(Job, Version)> = sure
        .into_iter()
        .map(|j| {
            let v = j.copy.map_or(Version::UNKNOWN, |c| c.dv.version);
            (j, v)
        })
        .collect();
    for (_, jobs, replies) in new.round(by(unsure, |j| j.dst), |j| Request::Read(&j.key)) {
        for (j, r) in jobs.into_iter().zip(replies) {
            let Reply::Item(cur) = r else {
                inc(&c.failed, 1);
                continue;
            };
            match found(&j, cur.as_ref()) {
                Found::Ours(copy) => doomed.push((j, copy.dv.version)),
                Found::Theirs => {
                    inc(&c.client_changed, 1);
                    notes.push(Note::Forget(j.src, j.key));
                }
                Found::Absent => notes.push(Note::Forget(j.src, j.key)),
            }
        }
    }
    let rounds = new.round(by(doomed, |(j, _)| j.dst), |(j, v)| Request::Delete {
        key: &j.key,
        expect: Some(*v),
    });
    for (_, items, replies) in rounds {
        for ((j, _), r) in items.into_iter().zip(replies) {
            match r {
                Reply::Deleted(Deleted::Deleted) => inc(&c.deleted_copies, 1),
                Reply::Deleted(Deleted::Changed) => inc(&c.client_changed, 1),
                Reply::Deleted(Deleted::Gone) => {}
                _ => {
                    inc(&c.failed, 1);
                    continue;
                }
            }
            notes.push(Note::Forget(j.src, j.key));
        }
    }
    record(ctx, notes);
}
