//! A run: every NEW server checked first, then the OLD servers listed, the moving keys fed to
//! the copy workers, and (with a state file) the copies whose source is gone deleted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::copy;
use super::counts::{get, Counts};
use super::delete;
use super::error::RunError;
use super::feed::{self, Fed};
use super::job::Job;
use super::limits::BATCH;
use super::options::RunOptions;
use super::outcome::Outcome;
use super::shared::{process_of, seen, Bucket, Ctx, Dead, Processes};
use crate::backend::{Backend, Identity, Purpose, ServerErrorKind};
use crate::placement::Placement;
use crate::state::{Ids, Seen, State};

/// Checks that every NEW server answers and supports what a run needs; the refusal says
/// which do not. Returns the process of each (file order).
pub fn preflight<B: Backend>(pl: &Placement, backend: &B) -> Result<Vec<Seen>, RunError> {
    let mut down = Vec::new();
    let mut seen = Vec::new();
    for ep in &pl.new.endpoints {
        match backend.open(ep, Purpose::Sync) {
            Ok(mut c) => seen.push(process_of(&mut c)),
            Err(e) if e.kind == ServerErrorKind::Unsupported => {
                return Err(RunError::Unsupported(e))
            }
            Err(e) => down.push(e),
        }
    }
    if down.is_empty() {
        Ok(seen)
    } else {
        Err(RunError::Down(down))
    }
}

/// The processes of the OLD servers of `sources` as they said who they are (others not
/// asked) and of the NEW servers (`new`).
fn processes(old_ids: &[Option<Identity>], sources: &[usize], new: Vec<Seen>) -> Processes {
    let old = old_ids
        .iter()
        .enumerate()
        .map(|(i, id)| match id {
            _ if !sources.contains(&i) => Seen::NotAsked,
            Some(id) => seen(id),
            None => Seen::Unknown,
        })
        .collect();
    Processes { old, new }
}

/// Opens the state file at `path` for this run's servers and processes.
fn open_state<B: Backend>(
    path: &str,
    pl: &Placement,
    backend: &B,
    procs: &Processes,
) -> Result<State, RunError> {
    let with = |labels: Vec<&str>, seen: &[Seen]| -> Vec<(String, Seen)> {
        labels
            .into_iter()
            .zip(seen)
            .map(|(l, s)| (l.to_string(), s.clone()))
            .collect()
    };
    let ids = Ids::new(
        with(pl.old.labels().collect(), &procs.old),
        with(pl.new.labels().collect(), &procs.new),
    );
    Ok(State::open(path, ids, &|k| backend.names(k))?)
}

/// Copies each moving key from its OLD owner to its NEW owner (or, with
/// [`RunOptions::delete_moved`], deletes moved keys at their OLD owner): [`preflight`], then
/// the work. Nothing is printed and no signal handler installed: the caller raises
/// [`RunOptions::stop`] to stop (what was done is kept, and recorded in the state file).
pub fn run<B: Backend>(
    pl: &Placement,
    backend: &B,
    opts: &RunOptions<'_>,
) -> Result<Outcome, RunError> {
    opts.check()?;
    let new_procs = preflight(pl, backend)?;
    let joined = crate::same::join(pl, backend)?;
    if !joined.new_unknown.is_empty() {
        return Err(RunError::Down(
            joined.new_unknown.into_iter().map(|(_, e)| e).collect(),
        ));
    }
    let pl = &joined.placement;
    let start = Instant::now();
    let counts = Counts::default();
    let dead = Dead::new(&opts.stop);
    // An OLD server that cannot say who it is may be a NEW one under another label: left out.
    for (i, e) in &joined.old_unknown {
        dead.add(pl.old.label(*i), e.message.clone());
    }
    let sources: Vec<usize> = (0..pl.old.len())
        .filter(|p| opts.shard.is_none_or(|(i, n)| p % n == i))
        .filter(|&p| !dead.has(pl.old.label(p)))
        .collect();
    let (state, procs) = match &opts.state {
        Some(p) if !opts.dry_run => {
            let procs = processes(&joined.old_ids, &sources, new_procs);
            let st = open_state(p, pl, backend, &procs)?;
            (Some(Mutex::new(st)), procs)
        }
        _ => (None, Processes::default()),
    };
    let abort = AtomicBool::new(false);
    let bucket = opts.rate.map(Bucket::new);
    let ctx = Ctx {
        pl,
        backend,
        counts: &counts,
        dead: &dead,
        state: state.as_ref(),
        processes: &procs,
        bucket: bucket.as_ref(),
        delete_moved: opts.delete_moved,
        stop: &opts.stop,
        abort: &abort,
        scale: &opts.scale,
    };
    let most = backend.pipeline().unwrap_or(BATCH).clamp(1, BATCH);
    let cap = bucket
        .as_ref()
        .map_or(most, |b| ((b.rate / 20.0) as usize).clamp(1, most));
    let mut fed = work(&ctx, opts, &sources, cap)?;
    let interrupted = opts.stop.load(Ordering::SeqCst);
    if state.is_some() && !interrupted && !ctx.delete_moved {
        delete_gone(&ctx, &mut fed)?;
    }
    let stopped = interrupted || ctx.stopping();
    let forgotten = match state {
        Some(st) => st
            .into_inner()
            .map_err(|_| RunError::Local("state lock poisoned".into()))?
            .finish(!stopped)?,
        None => 0,
    };
    let partial = fed.listings.iter().any(|(_, l)| l.partial);
    Ok(Outcome {
        list_seconds: fed.listed_at.duration_since(start).as_secs_f64(),
        listings: fed
            .listings
            .into_iter()
            .map(|(src, l)| (pl.old.label(src).to_string(), l))
            .collect(),
        counts,
        dead: dead.list(),
        partial,
        interrupted,
        forgotten,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The workers, the feeder and the progress reporter, until the feeder is done and the
/// workers have drained its batches.
fn work<B: Backend>(
    ctx: &Ctx<B>,
    opts: &RunOptions<'_>,
    sources: &[usize],
    cap: usize,
) -> Result<Fed, RunError> {
    let finished = AtomicBool::new(false);
    let (tx, rx) = sync_channel::<Vec<Job>>(opts.concurrency * 2);
    let rx = Mutex::new(rx);
    std::thread::scope(|sc| {
        let tx = tx;
        let mut workers = Vec::new();
        if !opts.dry_run {
            for _ in 0..opts.concurrency {
                workers.push(sc.spawn(|| copy::worker(ctx, &rx)));
            }
        }
        if let Some(p) = opts.progress {
            let finished = &finished;
            sc.spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    p.advance(get(&ctx.counts.listed), get(&ctx.counts.done));
                }
            });
        }
        let r = feed::feed(ctx, sources, opts.dry_run, cap, |b| {
            tx.send(b)
                .map_err(|_| RunError::Local("the copy workers stopped".into()))
        });
        drop(tx);
        for w in workers {
            let _ = w.join();
        }
        finished.store(true, Ordering::Relaxed);
        r
    })
}

/// Deletes the copies whose source is gone, for the sources listed completely that did not
/// fail.
fn delete_gone<B: Backend>(ctx: &Ctx<B>, fed: &mut Fed) -> Result<(), RunError> {
    for (src, spool) in std::mem::take(&mut fed.gone) {
        let complete = fed
            .listings
            .iter()
            .any(|(s, l)| *s == src && l.is_complete());
        if complete && !ctx.dead.has(ctx.pl.old.label(src)) {
            delete::delete_gone(ctx, spool)?;
        }
    }
    Ok(())
}
