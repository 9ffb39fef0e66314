//! Ctrl-C and SIGTERM for the commands that talk to servers or run child processes (`audit`,
//! `migrate`, `simulate --live`): the one place a handler is installed. It only raises
//! [`flag`], which those commands hand to the libraries (every wait on a server checks it
//! within [`ketama_memcache::POLL`]), so work stops within a second and unwinds normally,
//! dropping what it started. Other commands keep the default: Ctrl-C ends them at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The stop flag; the first call installs the Ctrl-C / SIGTERM handler that raises it (if
/// another handler is already installed, by an embedding program, that one is kept).
pub(crate) fn flag() -> Arc<AtomicBool> {
    FLAG.get_or_init(|| {
        let f = Arc::new(AtomicBool::new(false));
        let raise = f.clone();
        let _ = ctrlc::set_handler(move || raise.store(true, Ordering::SeqCst));
        f
    })
    .clone()
}

/// Whether a stop was requested.
pub(crate) fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}
