//! The feeder: a lister thread lists each OLD server of the shard in turn into a [`Spool`]
//! file, at the listing's own pace; as each listing ends, its keys are sorted (expired,
//! stale, stays, no new owner, moves) and the moving ones handed to the copy workers in
//! batches while the next server is listed. So copying from one server overlaps listing the
//! next, but never a server's own listing: memcached serving its crawl and a copy's reads at
//! once spends more on both than one after the other (measured: half as much CPU again on
//! the listed server, and slower overall). Memory stays bounded: keys wait on disk, and at most
//! one finished listing waits for the copy.
//!
//! No copy is written into a server before its own listing is done (it would be listed there
//! as a misplaced key): a key whose NEW owner is an OLD server still to be listed is held in
//! another spool file and fed after every listing has ended.
//!
//! With `hot_first` every moving key waits by heat rank ([`HotSpools`]) and is fed after every
//! listing has ended, hottest first.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::Instant;

use super::counts::inc;
use super::error::RunError;
use super::hot::HotSpools;
use super::job::Job;
use super::join::{join, Moving};
use super::limits::BATCH_BYTES;
use super::shared::Ctx;
use super::spool::Spool;
use crate::backend::{
    Ask, Backend, Connection, ListSummary, Listed, Purpose, ServerError, ServerErrorKind, Side,
    Version,
};
use crate::clock::now;
use crate::placement::Fate;
use crate::state::Entry;

/// What the feeder listed.
pub struct Fed {
    /// Each OLD server listed to its end: file position, how.
    pub listings: Vec<(usize, ListSummary)>,
    /// Per OLD server (file position): its recorded copies whose key it did not list.
    pub gone: Vec<(usize, Spool<Job>)>,
    /// When the last listing ended.
    pub listed_at: Instant,
}

/// Batches of at most `cap` keys and about `cap_bytes` of values ([`BATCH_BYTES`], less
/// under a byte limit), handed to `send`.
struct Batches<F> {
    batch: Vec<Job>,
    bytes: u64,
    cap: usize,
    cap_bytes: u64,
    send: F,
}

impl<F: FnMut(Vec<Job>) -> Result<(), RunError>> Batches<F> {
    fn push(&mut self, job: Job, size: u64) -> Result<(), RunError> {
        self.batch.push(job);
        self.bytes += size;
        if self.batch.len() >= self.cap || self.bytes >= self.cap_bytes {
            let full = std::mem::replace(&mut self.batch, Vec::with_capacity(self.cap));
            self.bytes = 0;
            (self.send)(full)?;
        }
        Ok(())
    }

    /// Sends the batch so far now (a rank of `--hot-first` ends: its keys go in rounds of
    /// their own).
    fn cut(&mut self) -> Result<(), RunError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        self.bytes = 0;
        let part = std::mem::replace(&mut self.batch, Vec::with_capacity(self.cap));
        (self.send)(part)
    }

    fn finish(mut self) -> Result<(), RunError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        (self.send)(std::mem::take(&mut self.batch))
    }
}

/// One OLD server listed into a spool file (file position; how it was listed, or why not).
type Listed1 = (usize, Result<(ListSummary, Spool), ServerError>);

/// Lists `sources` (OLD file positions) and feeds their moving keys to `send`; with
/// `dry_run` only counts. A source that fails is recorded in `ctx.dead` and the others go on;
/// a server that lacks what the run needs stops everything.
pub fn feed<B: Backend>(
    ctx: &Ctx<B>,
    sources: &[usize],
    dry_run: bool,
    cap: usize,
    send: impl FnMut(Vec<Job>) -> Result<(), RunError>,
) -> Result<Fed, RunError> {
    let (tx, rx) = sync_channel::<Listed1>(1);
    std::thread::scope(|sc| {
        let lister = sc.spawn(move || {
            list_all(ctx, sources, tx);
            Instant::now()
        });
        let r = drain_all(ctx, &rx, sources, dry_run, cap, send);
        if r.is_err() {
            ctx.abort.store(true, Ordering::Relaxed);
        }
        drop(rx);
        let listed_at = lister.join().unwrap_or_else(|_| Instant::now());
        let d = r?;
        Ok(Fed {
            listings: d.listings,
            gone: d.gone,
            listed_at,
        })
    })
}

/// Whether a run needs the version of each listed key: `delete_moved` compares each delete
/// with it, and a sync probes only the copy of a key whose source version is unchanged.
fn versions_needed<B: Backend>(ctx: &Ctx<B>) -> bool {
    ctx.delete_moved
        || ctx
            .state
            .is_some_and(|s| s.lock().map_or(true, |s| !s.is_empty()))
}

/// Lists one OLD server into a spool file.
fn list_one<B: Backend>(ctx: &Ctx<B>, src: usize) -> Result<(ListSummary, Spool), ServerError> {
    let ep = &ctx.pl.old.endpoints[src];
    let mut conn = ctx.backend.open(ep, Purpose::Sync)?;
    ctx.processes
        .check(Side::Old, src, &mut conn)
        .map_err(|why| {
            let m = format!("server {}: {why}", ep.label);
            ServerError::new(&ep.label, ServerErrorKind::Failed, m)
        })?;
    let mut spool = Spool::new();
    let ask = Ask {
        versions: versions_needed(ctx),
        heat: ctx.scale.hot_first.is_some(),
    };
    let l = conn.list(ask, &mut |it| {
        inc(&ctx.counts.listed, 1);
        if ctx.stopping() {
            return Err(ServerError::new(
                &ep.label,
                ServerErrorKind::Interrupted,
                "stopped",
            ));
        }
        spool
            .push(&it)
            .map_err(|m| ServerError::new(&ep.label, ServerErrorKind::Local, m))
    })?;
    Ok((l, spool))
}

/// Lists each source into a spool file at the listing's own pace, handing each finished one
/// over; stops when the run stops or nobody takes them.
fn list_all<B: Backend>(ctx: &Ctx<B>, sources: &[usize], tx: SyncSender<Listed1>) {
    for &src in sources {
        if ctx.stopping() {
            return;
        }
        let r = list_one(ctx, src);
        if ctx.stopping() || tx.send((src, r)).is_err() {
            return;
        }
    }
}

/// Where a job waits before it goes to the workers.
struct Waiting {
    /// Jobs whose NEW owner is an OLD server not yet listed.
    later: Spool<Job>,
    /// With `hot_first`: every job, by heat rank.
    hot: Option<HotSpools>,
}

/// Hands a job to the workers; or, with `hot_first`, to its heat rank's spool; or (`held`:
/// its NEW owner is an OLD server not yet listed) to the spool of jobs that wait until every
/// listing has ended. A job listed too close to its expiry (kept only so that its record
/// was joined) goes nowhere.
fn route<F: FnMut(Vec<Job>) -> Result<(), RunError>>(
    job: Job,
    held: bool,
    wait: &mut Waiting,
    out: &mut Batches<F>,
) -> Result<(), RunError> {
    if job.short_ttl {
        return Ok(());
    }
    if let Some(h) = wait.hot.as_mut() {
        return Ok(h.push(&job)?);
    }
    if held {
        wait.later.push(&job)?;
        Ok(())
    } else {
        let size = job.size;
        out.push(job, size)
    }
}

/// A recorded copy (or intent) of OLD server `src` whose key that server no longer lists
/// as moving, as a job for the end of the run.
fn gone_job(src: usize, e: Entry) -> Job {
    let dst = e
        .copy
        .map(|c| c.dst)
        .or(e.intent.map(|i| i.dst))
        .unwrap_or_default();
    Job {
        src,
        dst,
        key: e.key,
        version: Version::UNKNOWN,
        size: 0,
        heat: Default::default(),
        short_ttl: false,
        copy: e.copy,
        intent: e.intent,
    }
}

/// What the sources' listings gave: each listing, and each source's recorded copies whose
/// key it no longer lists as moving.
pub struct Drained {
    /// Each OLD server listed to its end: file position, how.
    pub listings: Vec<(usize, ListSummary)>,
    /// Per OLD server (file position): its recorded copies whose key it did not list.
    pub gone: Vec<(usize, Spool<Job>)>,
}

/// Feeds each listed source's keys as its spool arrives; keys whose NEW owner is a source not
/// yet listed are held back until every listing has ended. With a state file, each source's
/// moving keys are joined with its records first.
fn drain_all<B: Backend>(
    ctx: &Ctx<B>,
    rx: &Receiver<Listed1>,
    sources: &[usize],
    dry_run: bool,
    cap: usize,
    send: impl FnMut(Vec<Job>) -> Result<(), RunError>,
) -> Result<Drained, RunError> {
    let pl = ctx.pl;
    let mut out = Batches {
        batch: Vec::with_capacity(cap),
        bytes: 0,
        cap,
        cap_bytes: ctx
            .scale
            .throttle
            .as_ref()
            .map_or(BATCH_BYTES, |t| t.limits().batch_bytes(BATCH_BYTES)),
        send,
    };
    // With hot_first every moving key waits by heat until the listings have ended.
    let mut wait = Waiting {
        later: Spool::new(),
        hot: match ctx.scale.hot_first {
            Some(w) if !ctx.delete_moved => Some(HotSpools::new(w)),
            _ => None,
        },
    };
    // NEW positions that are OLD servers not yet listed (only copies write).
    let mut unlisted = vec![false; pl.new.len()];
    if !dry_run && !ctx.delete_moved {
        for j in sources.iter().filter_map(|&s| pl.old_in_new[s]) {
            unlisted[j] = true;
        }
    }
    let mut drained = Drained {
        listings: Vec::new(),
        gone: Vec::new(),
    };
    for (src, r) in rx.iter() {
        if let Some(j) = pl.old_in_new[src] {
            unlisted[j] = false;
        }
        let (listing, spool) = match r {
            Err(e) if e.kind == ServerErrorKind::Unsupported => {
                return Err(RunError::Unsupported(e))
            }
            Err(e) => {
                ctx.dead.add(pl.old.label(src), e.message);
                continue;
            }
            Ok(x) => x,
        };
        if ctx.stopping() {
            break;
        }
        drained.listings.push((src, listing));
        let records = match ctx.state {
            Some(st) if !ctx.delete_moved && !dry_run => st
                .lock()
                .map_err(|_| RunError::Local("state lock poisoned".into()))?
                .section(src)?,
            _ => None,
        };
        let Some(mut records) = records else {
            spool.drain(|it| -> Result<bool, RunError> {
                if ctx.stopping() {
                    return Ok(false);
                }
                if let Some((job, held)) = sort(ctx, src, it, &unlisted, dry_run, false)? {
                    route(job, held, &mut wait, &mut out)?;
                }
                Ok(true)
            })?;
            continue;
        };
        let mut moving = Moving::new();
        spool.drain(|it| -> Result<bool, RunError> {
            if ctx.stopping() {
                return Ok(false);
            }
            if let Some((job, held)) = sort(ctx, src, it, &unlisted, dry_run, true)? {
                moving.push(&job, held)?;
            }
            Ok(true)
        })?;
        let mut gone: Spool<Job> = Spool::new();
        join(
            moving,
            &mut records,
            &|| ctx.stopping(),
            |job, held| route(job, held, &mut wait, &mut out),
            |e| Ok(gone.push(&gone_job(src, e))?),
        )?;
        drained.gone.push((src, gone));
    }
    if let Some(h) = wait.hot.take() {
        let mut last = 0;
        h.drain(|rank, job| -> Result<bool, RunError> {
            if ctx.stopping() {
                return Ok(false);
            }
            if rank != last {
                last = rank;
                out.cut()?;
            }
            let size = job.size;
            out.push(job, size)?;
            Ok(true)
        })?;
    }
    wait.later.drain(|job: Job| -> Result<bool, RunError> {
        if ctx.stopping() {
            return Ok(false);
        }
        let size = job.size;
        out.push(job, size)?;
        Ok(true)
    })?;
    if !ctx.stopping() {
        out.finish()?;
    }
    Ok(drained)
}

/// Sorts one key listed on OLD server `src`: counts what does not move; a moving key's job,
/// and whether it is held (`unlisted`: NEW positions that are OLD servers not yet listed).
/// A moving key that expires within the run's `min_ttl` is not copied; with `joined` (its
/// server's records are joined with its jobs) it still gives a job, marked `short_ttl`, so
/// its recorded copy is not taken for one whose source is gone.
fn sort<B: Backend>(
    ctx: &Ctx<B>,
    src: usize,
    it: Listed,
    unlisted: &[bool],
    dry_run: bool,
    joined: bool,
) -> Result<Option<(Job, bool)>, RunError> {
    let c = ctx.counts;
    let skip = |n: &std::sync::atomic::AtomicU64| {
        inc(n, 1);
        inc(&c.done, 1);
        Ok(None)
    };
    if it.exp >= 0 && it.exp <= now() {
        return skip(&c.expired);
    }
    let dst = match ctx.pl.fate(src, &it.key) {
        Fate::Stale => return skip(&c.stale),
        Fate::Stays => return skip(&c.stay),
        Fate::NoNewOwner => return skip(&c.no_new_owner),
        Fate::Moves(d) if !ctx.delete_moved && ctx.scale.listed_too_short(&it) => {
            inc(&c.short_ttl, 1);
            inc(&c.done, 1);
            // Its source is still there: with its records joined, a recorded copy stays, and
            // so do its records.
            if !joined || dry_run {
                return Ok(None);
            }
            let job = Job {
                short_ttl: true,
                ..Job::listed(src, d, it)
            };
            return Ok(Some((job, false)));
        }
        Fate::Moves(d) => d,
    };
    inc(&c.moving, 1);
    if ctx.scale.hot_first.is_some_and(|w| it.heat.is_hot(w)) {
        inc(&c.hot, 1);
    }
    if !ctx.backend.names(&it.key) {
        return skip(&c.unsendable);
    }
    if dry_run {
        inc(&c.done, 1);
        return Ok(None);
    }
    Ok(Some((Job::listed(src, dst, it), unlisted[dst])))
}
