//! The feeder: lists each OLD server of the shard in turn and, while its listing streams in,
//! sorts each key (expired, stale, stays, no new owner, moves) and hands the moving keys to
//! the copy workers in batches, so copying overlaps listing. Memory stays bounded: a full
//! channel makes the feeder wait, and the listing waits with it.
//!
//! No copy is written into a server before its own listing is done (it would be listed there
//! as a misplaced key): a key whose NEW owner is an OLD server still to be listed is held in
//! a [`Spool`] file and fed after every listing has ended.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::super::meta::{Listed, NO_META};
use super::super::plan::now;
use super::super::wire;
use super::super::{list_server, Fate, Listing};
use super::open;
use super::shared::{inc, Ctx, Job};
use super::spool::Spool;
use super::BATCH_BYTES;
use crate::Fail;

/// What the feeder listed.
#[derive(Debug)]
pub struct Fed {
    /// Each OLD server listed to its end: file position, how.
    pub listings: Vec<(usize, Listing)>,
    /// When the last listing ended.
    pub listed_at: Instant,
}

/// Batches of at most `cap` keys and about [`BATCH_BYTES`] of values, handed to `send`.
struct Batches<F> {
    batch: Vec<Job>,
    bytes: u64,
    cap: usize,
    send: F,
}

impl<F: FnMut(Vec<Job>) -> Result<(), Fail>> Batches<F> {
    fn push(&mut self, job: Job, size: u64) -> Result<(), Fail> {
        self.batch.push(job);
        self.bytes += size;
        if self.batch.len() >= self.cap || self.bytes >= BATCH_BYTES {
            let full = std::mem::replace(&mut self.batch, Vec::with_capacity(self.cap));
            self.bytes = 0;
            (self.send)(full)?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(), Fail> {
        if self.batch.is_empty() {
            return Ok(());
        }
        (self.send)(std::mem::take(&mut self.batch))
    }
}

/// Whether the run must stop (Ctrl-C, or the state file failed).
fn stopping(ctx: &Ctx) -> bool {
    crate::stop::requested() || ctx.stop.load(Ordering::Relaxed)
}

/// Lists `sources` (OLD file positions) and feeds their moving keys to `send`; with
/// `dry_run` only counts. A source that fails is recorded in `ctx.dead` and the others go on;
/// a server without the meta protocol stops everything.
pub fn feed(
    ctx: &Ctx,
    sources: &[usize],
    dry_run: bool,
    cap: usize,
    send: impl FnMut(Vec<Job>) -> Result<(), Fail>,
) -> Result<Fed, Fail> {
    let pl = ctx.pl;
    let mut out = Batches {
        batch: Vec::with_capacity(cap),
        bytes: 0,
        cap,
        send,
    };
    // NEW positions that are OLD servers still to be listed (only copies write).
    let mut unlisted = vec![false; pl.new_labels.len()];
    if !dry_run && !ctx.delete_moved {
        for j in sources.iter().filter_map(|&s| pl.old_in_new[s]) {
            unlisted[j] = true;
        }
    }
    let mut held = Vec::new();
    let mut listings = Vec::new();
    for &src in sources {
        if stopping(ctx) {
            break;
        }
        let (label, addr) = (&pl.old_labels[src], &pl.old_addrs[src]);
        let listed = match open(pl, label, addr) {
            Err(e) if e.contains(NO_META) => return Err(Fail::new(e)),
            Err(e) => Err(e),
            Ok(_) => {
                let mut spool = Spool::new();
                let mut halt: Option<Result<(), Fail>> = None;
                let r = list_server(label, addr, pl.net(), |it| {
                    inc(&ctx.counts.listed, 1);
                    if stopping(ctx) {
                        halt = Some(Ok(()));
                        return Err("stopped".into());
                    }
                    let fate = pl.fate(src, &it.key);
                    if let Fate::Moves(d) = fate {
                        if unlisted[d] {
                            return spool.push(&it);
                        }
                    }
                    let r = match sort(ctx, src, it, fate, dry_run) {
                        Ok(Some((job, size))) => out.push(job, size),
                        Ok(None) => Ok(()),
                        Err(f) => Err(f),
                    };
                    r.map_err(|f| {
                        halt = Some(Err(f));
                        "stopped".to_string()
                    })
                });
                match halt {
                    Some(Err(f)) => return Err(f),
                    Some(Ok(())) => break,
                    None => {}
                }
                r.map(|l| (l, spool))
            }
        };
        if let Some(j) = pl.old_in_new[src] {
            unlisted[j] = false;
        }
        match listed {
            Ok((l, spool)) => {
                listings.push((src, l));
                held.push((src, spool));
            }
            Err(e) => ctx.dead.add(label, e),
        }
    }
    let listed_at = Instant::now();
    for (src, spool) in held {
        if stopping(ctx) {
            break;
        }
        spool.drain(|it| {
            let fate = pl.fate(src, &it.key);
            match sort(ctx, src, it, fate, dry_run)? {
                Some((job, size)) => out.push(job, size),
                None => Ok(()),
            }
        })?;
    }
    if !stopping(ctx) {
        out.finish()?;
    }
    Ok(Fed {
        listings,
        listed_at,
    })
}

/// Sorts one key listed on OLD server `src` (`fate`: its [`Placement::fate`]): counts what
/// does not move; a moving key's job and its item size.
///
/// [`Placement::fate`]: super::super::Placement::fate
fn sort(
    ctx: &Ctx,
    src: usize,
    it: Listed,
    fate: Fate,
    dry_run: bool,
) -> Result<Option<(Job, u64)>, Fail> {
    let c = ctx.counts;
    let skip = |n: &std::sync::atomic::AtomicU64| {
        inc(n, 1);
        inc(&c.done, 1);
        Ok(None)
    };
    if it.exp >= 0 && it.exp <= now() {
        return skip(&c.expired);
    }
    let dst = match fate {
        Fate::Stale => return skip(&c.stale),
        Fate::Stays => return skip(&c.stay),
        Fate::NoNewOwner => return skip(&c.no_new_owner),
        Fate::Moves(d) => d,
    };
    inc(&c.moving, 1);
    if !wire::sendable(&it.key) {
        return skip(&c.unsendable);
    }
    let prev = match ctx.state {
        Some(st) => {
            let mut st = st.lock().map_err(|_| Fail::new("state lock poisoned"))?;
            st.mark_seen(&it.key);
            st.get(&it.key).cloned()
        }
        None => None,
    };
    if dry_run {
        inc(&c.done, 1);
        return Ok(None);
    }
    let job = Job {
        src,
        dst,
        key: it.key,
        cas: it.cas,
        prev,
    };
    Ok(Some((job, it.size)))
}
