//! The deletes of a run: moved keys at their OLD server (where their NEW owner holds the
//! key) and, with a state file, copies whose source is gone. Every delete is compared with
//! the version the tool knows, so an item a client changed since is left alone.

use std::sync::Mutex;

use super::counts::inc;
use super::limits::BATCH;
use super::pool::{by, Pool};
use super::shared::{record, Ctx, Job};
use crate::backend::{Backend, Deleted, Reply, Request, Version};
use crate::state::{Copy, State};

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
    let mut records = Vec::new();
    let rounds = old.round(by(held, |j| j.src), |j| Request::Delete {
        key: &j.key,
        expect: j.version.is_known().then_some(j.version),
    });
    for (_, jobs, replies) in rounds {
        for (j, r) in jobs.into_iter().zip(replies) {
            match r {
                Reply::Deleted(Deleted::Deleted) => {
                    inc(&c.deleted_old, 1);
                    records.push((j.key, None));
                }
                Reply::Deleted(Deleted::Gone) => inc(&c.vanished, 1),
                Reply::Deleted(Deleted::Changed) => inc(&c.changed_at_source, 1),
                _ => inc(&c.failed, 1),
            }
        }
    }
    record(ctx, records);
}

/// Deletes the recorded copies whose source `src` no longer lists the key, unless a client
/// changed them since the tool wrote them.
pub fn delete_gone<B: Backend>(ctx: &Ctx<B>, st: &Mutex<State>, src: usize) {
    let c = ctx.counts;
    let gone = match st.lock() {
        Ok(s) => s.unseen(src),
        Err(_) => return,
    };
    let mut new = Pool::new(ctx);
    let mut gone = gone.into_iter();
    loop {
        let chunk: Vec<(Vec<u8>, Copy)> = gone.by_ref().take(BATCH).collect();
        if chunk.is_empty() {
            break;
        }
        let mut records = Vec::new();
        let rounds = new.round(by(chunk, |(_, cp)| cp.dst), |(k, cp)| Request::Delete {
            key: k,
            expect: Some(Version(cp.dst_cas)),
        });
        for (_, items, replies) in rounds {
            for ((k, _), r) in items.into_iter().zip(replies) {
                match r {
                    Reply::Deleted(Deleted::Deleted) => inc(&c.deleted_copies, 1),
                    Reply::Deleted(Deleted::Changed) => inc(&c.client_changed, 1),
                    _ => {}
                }
                records.push((k, None));
            }
        }
        record(ctx, records);
    }
}
