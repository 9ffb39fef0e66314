//! What the parts of a run share: the counters, the servers that failed, the rate limit, the
//! jobs and the context the workers read.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::super::state::{Copy, State};
use super::super::Placement;

/// Counters of one run (shared by the workers).
#[derive(Debug, Default)]
pub struct Counts {
    /// Keys listed on the shard's OLD servers.
    pub listed: AtomicU64,
    /// Keys whose server does not change.
    pub stay: AtomicU64,
    /// Keys misplaced under the OLD placement (not copied).
    pub stale: AtomicU64,
    /// Keys expired at the source (not copied).
    pub expired: AtomicU64,
    /// Keys the NEW placement has no server for.
    pub no_new_owner: AtomicU64,
    /// Moving keys (the work).
    pub moving: AtomicU64,
    /// Copies written.
    pub copied: AtomicU64,
    /// Copies updated (source changed since copied).
    pub updated: AtomicU64,
    /// Copies already up to date (state: source unchanged).
    pub unchanged: AtomicU64,
    /// Keys the NEW owner already held (not overwritten).
    pub kept: AtomicU64,
    /// Copies a client changed after the tool wrote them (left alone).
    pub client_changed: AtomicU64,
    /// Keys gone at the source between listing and reading.
    pub vanished: AtomicU64,
    /// Copies deleted because their source is gone.
    pub deleted_copies: AtomicU64,
    /// `--delete-moved`: OLD copies deleted.
    pub deleted_old: AtomicU64,
    /// `--delete-moved`: OLD copies kept because the NEW owner does not hold the key.
    pub not_held: AtomicU64,
    /// `--delete-moved`: OLD copies kept because they changed since they were listed.
    pub changed_at_source: AtomicU64,
    /// Keys the NEW server refused (`SERVER_ERROR`, e.g. over its item size limit).
    pub refused: AtomicU64,
    /// Keys the meta protocol cannot name (binary keys over 187 bytes).
    pub unsendable: AtomicU64,
    /// Keys not copied (or not deleted) because a server failed.
    pub failed: AtomicU64,
    /// Keys handled (for the progress bar).
    pub done: AtomicU64,
}

/// Adds `n` to a counter.
pub fn inc(a: &AtomicU64, n: u64) {
    a.fetch_add(n, Ordering::Relaxed);
}

/// A counter's value.
pub fn get(a: &AtomicU64) -> u64 {
    a.load(Ordering::Relaxed)
}

/// One key to copy (or, with `--delete-moved`, to delete at its source).
#[derive(Clone, Debug)]
pub struct Job {
    /// The OLD server (file position) that lists it.
    pub src: usize,
    /// Its NEW owner (file position).
    pub dst: usize,
    /// The key.
    pub key: Vec<u8>,
    /// CAS at listing (0: unknown).
    pub cas: u64,
    /// The copy recorded by an earlier run.
    pub prev: Option<Copy>,
}

/// Servers that failed during the run: label -> first error.
#[derive(Debug, Default)]
pub struct Dead(Mutex<BTreeMap<String, String>>);

impl Dead {
    /// Whether `label` failed.
    pub fn has(&self, label: &str) -> bool {
        self.0.lock().map_or(true, |m| m.contains_key(label))
    }

    /// Records a failure (not when Ctrl-C is what ended the wait).
    pub fn add(&self, label: &str, err: String) {
        if crate::stop::requested() {
            return;
        }
        if let Ok(mut m) = self.0.lock() {
            m.entry(label.to_string()).or_insert(err);
        }
    }

    /// Every failure: label, first error.
    pub fn list(&self) -> Vec<(String, String)> {
        self.0
            .lock()
            .map(|m| m.iter().map(|(a, b)| (a.clone(), b.clone())).collect())
            .unwrap_or_default()
    }
}

/// A token bucket shared by the workers: at most `rate` keys per second.
#[derive(Debug)]
pub struct Bucket {
    /// Keys per second.
    pub rate: f64,
    state: Mutex<(f64, Instant)>,
}

impl Bucket {
    /// A bucket of `rate` keys per second.
    pub fn new(rate: u64) -> Bucket {
        Bucket {
            rate: rate as f64,
            state: Mutex::new((0.0, Instant::now())),
        }
    }

    /// Takes `n` tokens, sleeping (in steps that watch for Ctrl-C) while the bucket is in debt.
    pub fn take(&self, n: usize) {
        let wait = {
            let Ok(mut s) = self.state.lock() else {
                return;
            };
            let now = Instant::now();
            let refill = now.duration_since(s.1).as_secs_f64() * self.rate;
            // At most a tenth of a second of burst.
            s.0 = (s.0 + refill).min(self.rate / 10.0) - n as f64;
            s.1 = now;
            if s.0 < 0.0 {
                -s.0 / self.rate
            } else {
                0.0
            }
        };
        let until = Instant::now() + Duration::from_secs_f64(wait);
        while Instant::now() < until && !crate::stop::requested() {
            std::thread::sleep((until - Instant::now()).min(Duration::from_millis(50)));
        }
    }
}

/// Shared context of the workers.
pub struct Ctx<'a> {
    /// Both fleets.
    pub pl: &'a Placement,
    /// The counters.
    pub counts: &'a Counts,
    /// Servers that failed.
    pub dead: &'a Dead,
    /// The state file, with `--state`.
    pub state: Option<&'a Mutex<State>>,
    /// The rate limit, with `--rate`.
    pub bucket: Option<&'a Bucket>,
    /// Per NEW server: its clock minus ours (seconds), for absolute expiry times.
    pub clock: &'a [i64],
    /// `--delete-moved`.
    pub delete_moved: bool,
    /// Set when the run must stop (the state file failed, or Ctrl-C).
    pub stop: &'a AtomicBool,
}

/// Applies copy records (`None`: forget) to the state file, flushed once per batch. A state
/// file that fails stops the run.
pub fn record(ctx: &Ctx, records: Vec<(Vec<u8>, Option<Copy>)>) {
    let Some(st) = ctx.state else { return };
    if records.is_empty() {
        return;
    }
    let Ok(mut st) = st.lock() else { return };
    let mut r = Ok(());
    for (k, c) in records {
        let x = match c {
            Some(c) => st.record(&k, c),
            None => st.forget(&k),
        };
        if r.is_ok() {
            r = x;
        }
    }
    if let Err(e) = r.and_then(|_| st.flush()) {
        ctx.dead.add("(state file)", e);
        ctx.stop.store(true, Ordering::Relaxed);
    }
}
