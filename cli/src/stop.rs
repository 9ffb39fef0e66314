//! The process-wide stop request: Ctrl-C (SIGINT) and SIGTERM only raise a flag, and every
//! wait on the network ([`crate::memcache`]) or on a child process checks it at least every
//! [`crate::memcache::POLL`], so work stops within a second and unwinds normally (dropping
//! what it started).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

static FLAG: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// The flag Ctrl-C and SIGTERM raise once [`install`] ran.
pub fn flag() -> &'static AtomicBool {
    &FLAG
}

/// Installs the Ctrl-C / SIGTERM handler (once per process; it only sets [`flag`]). If
/// another handler is already installed (an embedding program), that one is kept.
pub fn install() {
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| FLAG.store(true, Ordering::SeqCst));
    });
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    FLAG.load(Ordering::SeqCst)
}
