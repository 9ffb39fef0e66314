//! `ketama migrate run`: copies each moving key from its OLD owner to its NEW owner.
//!
//! 1. Every NEW server must answer and speak the meta protocol, or nothing starts.
//! 2. Each OLD server of the shard is listed (`lru_crawler metadump all`) in turn into a
//!    spool file, and the moving keys of each listed server are fed to the workers while the
//!    next one is listed ([`feed`]): memory does not grow with the number of keys (only the
//!    state file is in memory).
//! 3. `--concurrency` workers take batches of moving keys: one pipelined round of `mg` on the
//!    sources, then one of `ms` on the NEW owners ([`copy`]): add mode for a first copy,
//!    compare-and-set for a copy whose source changed. The remaining TTL is kept (relative up
//!    to 30 days, absolute beyond, none stays none); an expired key is not copied. At most one
//!    batch of values per worker is in memory.
//! 4. With `--state`, copies whose source is gone are deleted (`md <key> C<cas>`, again only
//!    if no client changed them).
//!
//! A server that fails mid-run is named; the keys not copied because of it are counted and
//! the exit status is 3; a rerun (with the same state file) completes the work. Every write is
//! one `ms` or `md`, which memcached applies whole or not at all.

mod copy;
mod delete;
mod feed;
mod pool;
mod report;
mod shared;
mod spool;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use super::meta::{MetaConn, NO_META};
use super::plan::now;
use super::state::State;
use super::{parse_shard, Listing, Placement, RunArgs};
use crate::output::Format;
use crate::progress::{Progress, Unit};
use crate::shared::Fail;
pub use shared::Counts;
use shared::{get, Bucket, Ctx, Dead};

/// Keys per pipelined batch.
const BATCH: usize = 1024;
/// Value bytes per batch (from the listed item sizes) before it is sent.
const BATCH_BYTES: u64 = 4 << 20;

/// The result of `run`, for reports.
#[derive(Debug)]
pub struct Outcome {
    /// Counters.
    pub counts: Counts,
    /// Servers that failed: label, error.
    pub dead: Vec<(String, String)>,
    /// Whether some OLD server was listed with `stats cachedump`.
    pub cachedump: bool,
    /// Whether Ctrl-C stopped the run.
    pub interrupted: bool,
    /// Seconds the work took.
    pub seconds: f64,
    /// Seconds from the start until the last OLD server was listed (copying overlaps it).
    pub list_seconds: f64,
}

/// Runs `ketama migrate run`: the output and the exit status.
pub fn run(a: &RunArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = Placement::load(&a.place)?;
    if a.concurrency == 0 || a.concurrency > 1024 {
        return Err(Fail::new("--concurrency must be 1 to 1024"));
    }
    if a.rate == Some(0) {
        return Err(Fail::new("--rate must be at least 1 key per second"));
    }
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if pl.is_identity() {
        return Ok((
            match f {
                Format::Json => crate::output::json(&json!({"nothing_moves": true})),
                _ => "nothing moves: OLD and NEW are the same servers under the same placement\n"
                    .to_string(),
            },
            0,
        ));
    }
    let clock = match preflight(&pl) {
        Ok(c) => c,
        Err(Refusal::NoMeta(e)) => return Err(Fail::new(e)),
        Err(Refusal::Down(down)) => {
            eprintln!(
                "ketama: migrate run: every NEW server must answer before anything is copied; nothing was copied: {}",
                down.join("; ")
            );
            return Ok((String::new(), super::EXIT_SERVER));
        }
    };
    let opts = RunOptions {
        state: a.state.clone(),
        rate: a.rate,
        concurrency: a.concurrency,
        dry_run: a.dry_run,
        delete_moved: a.delete_moved,
        shard,
    };
    let o = execute(&pl, &opts, &clock)?;
    let code = if o.interrupted {
        2
    } else if !o.dead.is_empty() || get(&o.counts.failed) > 0 || get(&o.counts.refused) > 0 {
        super::EXIT_SERVER
    } else {
        0
    };
    for (label, e) in &o.dead {
        eprintln!("ketama: migrate run: server {label} failed: {e}");
    }
    if get(&o.counts.failed) > 0 {
        eprintln!(
            "ketama: migrate run: {} keys not {} because a server failed; run again when it is back{}",
            get(&o.counts.failed),
            if a.delete_moved { "deleted" } else { "copied" },
            if a.state.is_some() { " (same --state file)" } else { "" }
        );
    }
    if o.interrupted {
        eprintln!(
            "ketama: migrate run: interrupted; what was done is kept{}, a rerun resumes",
            if a.state.is_some() {
                " (and recorded in the state file)"
            } else {
                ""
            }
        );
    }
    let out = match f {
        Format::Json => crate::output::json(&report::outcome_json(&pl, a, &o)),
        _ => report::outcome_table(&pl, a, &o),
    };
    Ok((out, code))
}

/// Connects to a server and checks it speaks the meta protocol.
pub(crate) fn open(pl: &Placement, label: &str, addr: &str) -> Result<MetaConn, String> {
    let mut c = MetaConn::connect(label, addr, pl.net())?;
    c.check_meta()?;
    Ok(c)
}

/// Why a run does not start.
#[derive(Debug)]
pub enum Refusal {
    /// A server without the meta protocol (memcached before 1.6).
    NoMeta(String),
    /// NEW servers that did not answer (each message names one).
    Down(Vec<String>),
}

/// Checks that every NEW server answers and speaks the meta protocol; returns each one's
/// clock offset (its clock minus ours, seconds).
pub fn preflight(pl: &Placement) -> Result<Vec<i64>, Refusal> {
    let mut clock = vec![0i64; pl.new_labels.len()];
    let mut down = Vec::new();
    for (j, (label, addr)) in pl.new_labels.iter().zip(&pl.new_addrs).enumerate() {
        match open(pl, label, addr).and_then(|mut c| c.server_time()) {
            Ok(t) => clock[j] = t - now(),
            Err(e) if e.contains(NO_META) => return Err(Refusal::NoMeta(e)),
            Err(e) => down.push(e),
        }
    }
    if down.is_empty() {
        Ok(clock)
    } else {
        Err(Refusal::Down(down))
    }
}

/// How a run works (the options of `migrate run` besides the placement).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The state file.
    pub state: Option<String>,
    /// Keys per second at most.
    pub rate: Option<u64>,
    /// Parallel connections.
    pub concurrency: usize,
    /// Count only.
    pub dry_run: bool,
    /// Delete moved keys at their OLD server (where the NEW owner holds them).
    pub delete_moved: bool,
    /// Only OLD servers at positions I mod N.
    pub shard: Option<(usize, usize)>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            state: None,
            rate: None,
            concurrency: 4,
            dry_run: false,
            delete_moved: false,
            shard: None,
        }
    }
}

/// Does the work of a run (no output); `clock` comes from [`preflight`].
pub fn execute(pl: &Placement, a: &RunOptions, clock: &[i64]) -> Result<Outcome, Fail> {
    let shard = a.shard;
    crate::stop::install();
    let start = Instant::now();
    let counts = Counts::default();
    let dead = Dead::default();
    let sources: Vec<usize> = (0..pl.old_labels.len())
        .filter(|p| shard.is_none_or(|(i, n)| p % n == i))
        .collect();
    let state = match &a.state {
        Some(p) if !a.dry_run => Some(Mutex::new(
            State::open(p, &pl.old_labels, &pl.new_labels).map_err(Fail::new)?,
        )),
        _ => None,
    };
    let stop = AtomicBool::new(false);
    let bucket = a.rate.map(Bucket::new);
    let ctx = Ctx {
        pl,
        counts: &counts,
        dead: &dead,
        state: state.as_ref(),
        bucket: bucket.as_ref(),
        clock,
        delete_moved: a.delete_moved,
        stop: &stop,
    };
    let finished = AtomicBool::new(false);
    // memcached 1.6 over TLS stops reading a connection whose next pipelined requests sit
    // decrypted in its TLS library's buffer (measured: 16 requests in flight stall, 1 does
    // not), so over TLS each connection carries one request at a time.
    let most = if pl.tls.is_some() { 1 } else { BATCH };
    let cap = bucket
        .as_ref()
        .map_or(most, |b| ((b.rate / 20.0) as usize).clamp(1, most));
    let (tx, rx) = sync_channel::<Vec<shared::Job>>(a.concurrency * 2);
    let rx = Mutex::new(rx);
    let fed = std::thread::scope(|sc| -> Result<feed::Fed, Fail> {
        let tx = tx;
        let mut workers = Vec::new();
        if !a.dry_run {
            for _ in 0..a.concurrency {
                workers.push(sc.spawn(|| copy::worker(&ctx, &rx)));
            }
        }
        sc.spawn(|| {
            let mut bar = Progress::new(0, "migrate", Unit::Items);
            let mut shown = 0;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                bar.set_len(get(&counts.listed));
                let d = get(&counts.done);
                bar.inc(d.saturating_sub(shown));
                shown = d;
            }
            bar.finish();
        });
        let r = feed::feed(&ctx, &sources, a.dry_run, cap, |b| {
            tx.send(b)
                .map_err(|_| Fail::new("the copy workers stopped"))
        });
        drop(tx);
        for w in workers {
            let _ = w.join();
        }
        finished.store(true, Ordering::Relaxed);
        r
    });
    let fed = fed?;
    let cachedump = fed.listings.iter().any(|(_, l)| *l == Listing::Cachedump);
    let list_seconds = fed.listed_at.duration_since(start).as_secs_f64();
    let interrupted = crate::stop::requested();
    // 4. Copies whose source is gone (state only, sources listed completely).
    if let Some(st) = &state {
        if !interrupted && !a.delete_moved {
            for &(src, l) in &fed.listings {
                if l == Listing::Metadump && !dead.has(&pl.old_labels[src]) {
                    delete::delete_gone(&ctx, st, src);
                }
            }
        }
        let mut st = st.lock().map_err(|_| Fail::new("state lock poisoned"))?;
        if interrupted {
            st.flush().map_err(Fail::new)?;
        } else {
            st.compact().map_err(Fail::new)?;
        }
    }
    Ok(Outcome {
        counts,
        dead: dead.list(),
        cachedump,
        interrupted,
        seconds: start.elapsed().as_secs_f64(),
        list_seconds,
    })
}
