//! The current snapshot for single-key lookups without arc-swap's per-load atomics, on
//! interpreters with a GIL.
//!
//! `SharedRing::load` takes and returns an arc-swap debt slot (two atomic read-modify-writes
//! and a thread-local access, about 4% of a `Ring.get`). With a GIL, a thread that is attached
//! to the interpreter is the only one running Python or this extension's attached code, so a
//! lookup that reads a plain pointer to the snapshot and is done with it before it runs any
//! Python code or detaches cannot meet a writer: the writer swaps the pointer and drops the
//! previous snapshot while attached itself ([`Pinned::set`]). Free-threaded builds (no GIL)
//! take `SharedRing::load` instead ([`gil_exclusive`] is false there).

use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use ketama_core::Snapshot;
use pyo3::prelude::*;

static GIL_EXCLUSIVE: AtomicBool = AtomicBool::new(false);

/// Reads the interpreter's build once, at module initialisation: lookups use [`Pinned`] only
/// when `sysconfig` says the build has a GIL (`Py_GIL_DISABLED` unset or 0).
pub(crate) fn init(py: Python<'_>) -> PyResult<()> {
    let v = py
        .import("sysconfig")?
        .call_method1("get_config_var", ("Py_GIL_DISABLED",))?;
    let free_threaded = !v.is_none() && v.is_truthy()?;
    GIL_EXCLUSIVE.store(!free_threaded, Ordering::Relaxed);
    Ok(())
}

/// Whether attached threads exclude each other (a GIL build).
#[inline]
pub(crate) fn gil_exclusive() -> bool {
    GIL_EXCLUSIVE.load(Ordering::Relaxed)
}

/// A snapshot held for lookups, readable through a plain pointer while attached.
pub(crate) struct Pinned<X> {
    ptr: AtomicPtr<Snapshot<X>>,
    held: Mutex<Arc<Snapshot<X>>>,
}

impl<X> Pinned<X> {
    pub(crate) fn new(snap: Arc<Snapshot<X>>) -> Pinned<X> {
        Pinned {
            ptr: AtomicPtr::new(Arc::as_ptr(&snap).cast_mut()),
            held: Mutex::new(snap),
        }
    }

    /// Makes `next` the snapshot lookups read; the previous one is dropped here, while the
    /// caller is attached (`_py`), so no attached reader is using it (with a GIL).
    pub(crate) fn set(&self, _py: Python<'_>, next: Arc<Snapshot<X>>) {
        let old = {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            self.ptr
                .store(Arc::as_ptr(&next).cast_mut(), Ordering::Release);
            std::mem::replace(&mut *held, next)
        };
        drop(old);
    }

    /// Calls `f` with the pinned snapshot. Only with a GIL ([`gil_exclusive`]); `f` must not
    /// run Python code, detach or otherwise let another thread attach (it only searches and
    /// takes references).
    #[inline]
    pub(crate) fn with<R>(&self, _py: Python<'_>, f: impl FnOnce(&Snapshot<X>) -> R) -> R {
        debug_assert!(gil_exclusive());
        let p = self.ptr.load(Ordering::Acquire);
        // SAFETY: `p` points into the `Arc` held in `self.held`, which is only replaced (and
        // the old one dropped) by `set`, called attached. We are attached (`_py`) and, with
        // a GIL, no other thread is attached until we run Python code or detach, which `f`
        // does not: the snapshot outlives `f`.
        f(unsafe { &*p })
    }
}
