//! The deletes of a run: `--delete-moved` (OLD copies whose NEW owner holds the key) and,
//! with `--state`, copies whose source is gone. Every delete is compared (`md <key> C<cas>`),
//! so an item a client changed since is left alone.

use std::sync::Mutex;

use super::super::meta::{DeleteReply, MetaConn};
use super::super::state::{Copy, State};
use super::pool::{by, each, Pool};
use super::shared::{inc, record, Ctx, Job};
use super::BATCH;

/// `--delete-moved`: deletes OLD copies whose NEW owner holds the key (one round asking the
/// NEW owners, one deleting at the sources).
pub fn delete_batch(ctx: &Ctx, old: &mut Pool, new: &mut Pool, batch: Vec<Job>) {
    let c = ctx.counts;
    let mut held = Vec::with_capacity(batch.len());
    let rounds = new.round(
        by(batch, |j| j.dst),
        |conn, j| conn.queue_has(&j.key),
        each(MetaConn::read_has),
    );
    for (_, jobs, has) in rounds {
        for (j, h) in jobs.into_iter().zip(has) {
            if h {
                held.push(j);
            } else {
                inc(&c.not_held, 1);
            }
        }
    }
    let mut records = Vec::new();
    let rounds = old.round(
        by(held, |j| j.src),
        |conn, j| conn.queue_delete(&j.key, (j.cas != 0).then_some(j.cas)),
        each(MetaConn::read_delete),
    );
    for (_, jobs, replies) in rounds {
        for (j, r) in jobs.into_iter().zip(replies) {
            match r {
                DeleteReply::Deleted => {
                    inc(&c.deleted_old, 1);
                    records.push((j.key, None));
                }
                DeleteReply::NotFound => inc(&c.vanished, 1),
                DeleteReply::Exists => inc(&c.changed_at_source, 1),
            }
        }
    }
    record(ctx, records);
}

/// Deletes the recorded copies whose source `src` no longer lists the key, unless a client
/// changed them since the tool wrote them.
pub fn delete_gone(ctx: &Ctx, st: &Mutex<State>, src: usize) {
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
        let rounds = new.round(
            by(chunk, |(_, cp)| cp.dst),
            |conn, (k, cp)| conn.queue_delete(k, Some(cp.dst_cas)),
            each(MetaConn::read_delete),
        );
        for (_, items, replies) in rounds {
            for ((k, _), r) in items.into_iter().zip(replies) {
                match r {
                    DeleteReply::Deleted => inc(&c.deleted_copies, 1),
                    DeleteReply::Exists => inc(&c.client_changed, 1),
                    DeleteReply::NotFound => {}
                }
                records.push((k, None));
            }
        }
        record(ctx, records);
    }
}
