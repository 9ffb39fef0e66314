//! The `continuum` handle `ketama_roll` hands out: what C reads, the generations it keeps
//! alive, and its look at the file (reloading it when it changed and has settled).

use core::ffi::c_int;
use std::cell::UnsafeCell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::clock::now_ms;
use super::generations::{Generation, Records};
use super::reload::{load, stamp, Loaded, Pending, Stamp, SETTLE_MS};
use super::{continuum, set_error};

/// How many parsed copies of its file one continuum keeps (the current one and the ones
/// before it, so a recently read `continuum.array` stays valid).
const KEPT_GENERATIONS: usize = 8;

/// What `ketama_roll` allocates; `c` first so a `continuum *` is a `Continuum *`.
#[repr(C)]
pub(super) struct Continuum {
    /// What C reads; written only by `publish`, under `inner`'s lock (C may read it from
    /// other threads: libketama's own unsynchronised contract).
    pub(super) c: UnsafeCell<continuum>,
    inner: Mutex<Inner>,
    /// The current generation (the last of `inner.generations`, which keeps it alive), NULL
    /// before the first: what `ketama_get_server` searches without taking the lock.
    pub(super) current: AtomicPtr<Generation>,
    /// When `ketama_get_server` next looks at the file ([`now_ms`]); between two looks a
    /// lookup takes no lock and makes no system call.
    pub(super) next_check: AtomicU64,
}

/// How often `ketama_get_server` looks at the server file (milliseconds).
const CHECK_EVERY_MS: u64 = 1000;

struct Inner {
    path: PathBuf,
    /// The last [`KEPT_GENERATIONS`] generations handed out through `c.array`, oldest first
    /// (so a recently read `c.array` stays valid after a reload; see the module docs).
    generations: Vec<Arc<Generation>>,
    /// The record sets of every generation this continuum published (one per path in
    /// practice): every `mcs *` it returned stays valid until `ketama_smoke`.
    records: Vec<Arc<Records>>,
    /// The file as of the last published generation.
    stamp: Option<Stamp>,
    /// A changed file seen but not yet settled.
    pending: Option<Pending>,
    /// Storage `c.modtime` points to.
    modtime: Box<i64>,
}

impl Continuum {
    /// A continuum of the file at `path`, with no generation yet.
    pub(super) fn new(path: PathBuf) -> Continuum {
        Continuum {
            c: UnsafeCell::new(continuum {
                numpoints: 0,
                modtime: core::ptr::null_mut(),
                array: core::ptr::null_mut(),
            }),
            inner: Mutex::new(Inner {
                path,
                generations: Vec::new(),
                records: Vec::new(),
                stamp: None,
                pending: None,
                modtime: Box::new(0),
            }),
            current: AtomicPtr::new(core::ptr::null_mut()),
            next_check: AtomicU64::new(now_ms().saturating_add(CHECK_EVERY_MS)),
        }
    }

    /// Makes `g` the current generation and points the C fields at it.
    pub(super) fn install(&mut self, g: Arc<Generation>, stamp: Stamp) {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        Continuum::publish(&self.c, &self.current, inner, g, stamp);
    }

    /// `ketama_get_server`'s look at the file: under the lock, once per [`CHECK_EVERY_MS`]
    /// (the first thread past the deadline looks, the others go on with the current
    /// generation), reloads it when it changed; a broken file keeps the last good continuum.
    #[cold]
    pub(super) fn check(&self, now: u64) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if now < self.next_check.load(Ordering::Relaxed) {
            return; // another thread looked meanwhile
        }
        self.next_check
            .store(now.saturating_add(CHECK_EVERY_MS), Ordering::Relaxed);
        let stale = match (inner.generations.last(), inner.stamp) {
            (Some(_), Some(old)) => stamp(&inner.path) != Ok(old),
            _ => true,
        };
        if stale {
            let path = inner.path.clone();
            match load(&path, inner.pending) {
                Ok(Loaded::Ready(g, st)) => {
                    inner.pending = None;
                    Continuum::publish(&self.c, &self.current, &mut inner, g, st);
                }
                Ok(Loaded::Unsettled(p)) => {
                    // Keep the current continuum; look again soon after it may have settled.
                    inner.pending = Some(p);
                    self.next_check
                        .store(now.saturating_add(SETTLE_MS / 4), Ordering::Relaxed);
                }
                Err(msg) => {
                    inner.pending = None;
                    set_error(&msg); // keep serving the last good continuum
                }
            }
        }
    }

    /// Points C at generation `g`. Callers hold `inner`'s lock (or own the continuum
    /// outright), which serialises every write to `c`.
    fn publish(
        c: &UnsafeCell<continuum>,
        current: &AtomicPtr<Generation>,
        inner: &mut Inner,
        g: Arc<Generation>,
        stamp: Stamp,
    ) {
        // SAFETY: writes to `c` happen only here, serialised by the lock our caller holds;
        // no Rust reference to the `continuum` exists besides this one.
        let c = unsafe { &mut *c.get() };
        *inner.modtime = stamp.mtime.0;
        inner.stamp = Some(stamp);
        c.numpoints = c_int::try_from(g.points.len()).unwrap_or(c_int::MAX);
        c.array = g.points.as_ptr().cast_mut().cast();
        c.modtime = core::ptr::from_mut::<i64>(&mut inner.modtime).cast();
        // Kept alive by `inner.generations` (pushed below, or already its last) until
        // KEPT_GENERATIONS later content changes or ketama_smoke.
        current.store(Arc::as_ptr(&g).cast_mut(), Ordering::Release);
        if !inner.records.iter().any(|r| Arc::ptr_eq(r, &g.store)) {
            inner.records.push(Arc::clone(&g.store));
        }
        // Same content (only touched): nothing new to keep.
        if !inner
            .generations
            .last()
            .is_some_and(|last| Arc::ptr_eq(last, &g))
        {
            inner.generations.push(g);
            if inner.generations.len() > KEPT_GENERATIONS {
                inner.generations.remove(0);
            }
        }
    }
}
