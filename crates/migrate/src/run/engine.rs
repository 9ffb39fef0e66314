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
use super::limits::BATCH;
use super::options::RunOptions;
use super::outcome::Outcome;
use super::shared::{Bucket, Ctx, Dead, Job};
use crate::backend::{Backend, Purpose, ServerErrorKind};
use crate::placement::Placement;
use crate::state::State;

/// Checks that every NEW server answers and supports what a run needs; the refusal says
/// which do not.
pub fn preflight<B: Backend>(pl: &Placement, backend: &B) -> Result<(), RunError> {
    let mut down = Vec::new();
    for ep in &pl.new.endpoints {
        match backend.open(ep, Purpose::Sync) {
            Ok(_) => {}
            Err(e) if e.kind == ServerErrorKind::Unsupported => {
                return Err(RunError::Unsupported(e))
            }
            Err(e) => down.push(e),
        }
    }
    if down.is_empty() {
        Ok(())
    } else {
        Err(RunError::Down(down))
    }
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
    preflight(pl, backend)?;
    let start = Instant::now();
    let counts = Counts::default();
    let dead = Dead::new(&opts.stop);
    let sources: Vec<usize> = (0..pl.old.len())
        .filter(|p| opts.shard.is_none_or(|(i, n)| p % n == i))
        .collect();
    let state = match &opts.state {
        Some(p) if !opts.dry_run => Some(Mutex::new(State::open(
            p,
            &pl.old.labels().map(String::from).collect::<Vec<_>>(),
            &pl.new.labels().map(String::from).collect::<Vec<_>>(),
        )?)),
        _ => None,
    };
    let abort = AtomicBool::new(false);
    let bucket = opts.rate.map(Bucket::new);
    let ctx = Ctx {
        pl,
        backend,
        counts: &counts,
        dead: &dead,
        state: state.as_ref(),
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
    let fed = work(&ctx, opts, &sources, cap)?;
    let interrupted = opts.stop.load(Ordering::SeqCst);
    let forgotten = match &state {
        Some(st) => finish_state(&ctx, st, &fed, interrupted)?,
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

/// Deletes the copies whose source is gone (sources listed completely, run not stopped) and
/// writes the state file out; how many recorded copies named servers no longer in the
/// fleets.
fn finish_state<B: Backend>(
    ctx: &Ctx<B>,
    st: &Mutex<State>,
    fed: &Fed,
    interrupted: bool,
) -> Result<usize, RunError> {
    if !interrupted && !ctx.delete_moved {
        for (src, l) in &fed.listings {
            if l.is_complete() && !ctx.dead.has(ctx.pl.old.label(*src)) {
                delete::delete_gone(ctx, st, *src);
            }
        }
    }
    let mut st = st
        .lock()
        .map_err(|_| RunError::Local("state lock poisoned".into()))?;
    if interrupted {
        st.flush()?;
    } else {
        st.compact()?;
    }
    Ok(st.forgotten())
}
