//! What the parts of a run share: the servers that failed, the rate limit, the jobs and the
//! context the workers read.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::counts::Counts;
use super::scale::Scale;
use crate::backend::{Backend, Version};
use crate::placement::Placement;
use crate::state::{Copy, State};

/// One key to copy (or, with `--delete-moved`, to delete at its source).
#[derive(Clone, Debug)]
pub struct Job {
    /// The OLD server (file position) that lists it.
    pub src: usize,
    /// Its NEW owner (file position).
    pub dst: usize,
    /// The key.
    pub key: Vec<u8>,
    /// The item's version when listed.
    pub version: Version,
    /// The copy recorded by an earlier run.
    pub prev: Option<Copy>,
}

/// Servers that failed during the run: label -> first error; failures while a stop was
/// requested are not recorded (the stop is what ended their waits).
#[derive(Debug)]
pub struct Dead<'a> {
    failed: Mutex<BTreeMap<String, String>>,
    stop: &'a AtomicBool,
}

impl<'a> Dead<'a> {
    /// No server failed yet; `stop` is the caller's stop flag.
    pub fn new(stop: &'a AtomicBool) -> Dead<'a> {
        Dead {
            failed: Mutex::new(BTreeMap::new()),
            stop,
        }
    }

    /// Whether `label` failed.
    pub fn has(&self, label: &str) -> bool {
        self.failed.lock().map_or(true, |m| m.contains_key(label))
    }

    /// Records a failure (not when a stop is what ended the wait).
    pub fn add(&self, label: &str, err: String) {
        if self.stop.load(Ordering::SeqCst) {
            return;
        }
        if let Ok(mut m) = self.failed.lock() {
            m.entry(label.to_string()).or_insert(err);
        }
    }

    /// Every failure: label, first error.
    pub fn list(&self) -> Vec<(String, String)> {
        self.failed
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

    /// Takes `n` tokens, sleeping (in steps that watch `stop`) while the bucket is in debt.
    pub fn take(&self, n: usize, stop: &AtomicBool) {
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
        while Instant::now() < until && !stop.load(Ordering::SeqCst) {
            std::thread::sleep((until - Instant::now()).min(Duration::from_millis(50)));
        }
    }
}

/// Shared context of the workers.
pub struct Ctx<'a, B> {
    /// Both fleets.
    pub pl: &'a Placement,
    /// The servers' kind.
    pub backend: &'a B,
    /// The counters.
    pub counts: &'a Counts,
    /// Servers that failed.
    pub dead: &'a Dead<'a>,
    /// The state file.
    pub state: Option<&'a Mutex<State>>,
    /// The rate limit.
    pub bucket: Option<&'a Bucket>,
    /// Delete moved keys at their OLD server instead of copying.
    pub delete_moved: bool,
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Raised when the run must end early (the state file failed, or the caller stopped it).
    pub abort: &'a AtomicBool,
    /// The fleet-scale options.
    pub scale: &'a Scale,
}

impl<B: Backend> Ctx<'_, B> {
    /// Whether the run must stop (the caller's stop, or the run's own abort).
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || self.abort.load(Ordering::Relaxed)
    }
}

/// Applies copy records (`None`: forget) to the state file, flushed once per batch. A state
/// file that fails stops the run.
pub fn record<B>(ctx: &Ctx<B>, records: Vec<(Vec<u8>, Option<Copy>)>) {
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
        ctx.dead.add("(state file)", e.to_string());
        ctx.abort.store(true, Ordering::Relaxed);
    }
}
