//! What the parts of a run share: the servers that failed, the rate limit, the jobs and the
//! context the workers read.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::counts::Counts;
use super::scale::Scale;
use crate::backend::{Backend, Connection, Identity, Side};
use crate::placement::Placement;
use crate::state::{ident_text, same_process, Copy, Intent, Record, Seen, State};

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
    /// Each server's process when the run started (OLD, NEW: file positions).
    pub processes: &'a Processes,
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

/// What a run appends to the state file's journal (keys owned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A copy written.
    Copied(usize, Vec<u8>, Copy),
    /// A write about to be sent.
    Intent(usize, Vec<u8>, Intent),
    /// An intent's write did not happen.
    Void(usize, Vec<u8>),
    /// The key is forgotten.
    Forget(usize, Vec<u8>),
}

/// Appends `notes` to the state file's journal and writes them out; `false` when the state
/// file failed (the run then stops: nothing may be written to a server that the state file
/// does not know of).
pub fn record<B>(ctx: &Ctx<B>, notes: Vec<Note>) -> bool {
    let Some(st) = ctx.state else { return true };
    if notes.is_empty() {
        return true;
    }
    let Ok(mut st) = st.lock() else { return false };
    let mut r = Ok(());
    for n in &notes {
        let rec = match n {
            Note::Copied(src, key, copy) => Record::Copied {
                src: *src,
                key,
                copy: *copy,
            },
            Note::Intent(src, key, intent) => Record::Intent {
                src: *src,
                key,
                intent: *intent,
            },
            Note::Void(src, key) => Record::Void { src: *src, key },
            Note::Forget(src, key) => Record::Forget { src: *src, key },
        };
        r = r.and_then(|()| st.append(rec));
    }
    match r.and_then(|()| st.flush()) {
        Ok(()) => true,
        Err(e) => {
            ctx.dead.add("(state file)", e.to_string());
            ctx.abort.store(true, Ordering::Relaxed);
            false
        }
    }
}

/// The server processes a run found when it started, by file position: a connection opened
/// later to another process (the server restarted) is refused, since versions given before
/// and after a restart cannot be told apart.
#[derive(Clone, Debug, Default)]
pub struct Processes {
    /// OLD servers.
    pub old: Vec<Seen>,
    /// NEW servers.
    pub new: Vec<Seen>,
}

/// The identity of the process `conn` reaches, as a state file records it.
pub fn process_of<C: Connection>(conn: &mut C) -> Seen {
    match conn.identity() {
        Ok(id) => seen(&id),
        Err(_) => Seen::Unknown,
    }
}

/// A server's identity as a state file records it.
pub fn seen(id: &Identity) -> Seen {
    ident_text(id.started, &id.process).map_or(Seen::Unknown, Seen::Is)
}

impl Processes {
    /// Checks that `conn` (to server `i` of `side`) reaches the process found at the start;
    /// the refusal says what changed.
    pub fn check<C: Connection>(&self, side: Side, i: usize, conn: &mut C) -> Result<(), String> {
        let list = match side {
            Side::Old => &self.old,
            Side::New => &self.new,
        };
        let Some(Seen::Is(then)) = list.get(i) else {
            return Ok(());
        };
        match process_of(conn) {
            Seen::Is(now) if same_process(Some(then), Some(&now)) => Ok(()),
            Seen::Is(now) => Err(format!(
                "restarted during the run (the process started {then}, now {now}); run again"
            )),
            _ => Err(format!(
                "no longer says which process it is (it was {then}); run again"
            )),
        }
    }
}
