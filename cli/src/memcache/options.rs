//! How a connection waits, how much it reads, and whether it speaks TLS.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::tls::Tls;
use super::{DEFAULT_MAX_VALUE, DEFAULT_TIMEOUT};

/// How a connection waits.
#[derive(Clone, Debug)]
pub struct Options {
    /// The total time one server may take, from the connect on, the TLS handshake included
    /// (see [`super::Conn::set_deadline`]).
    pub timeout: Duration,
    /// Raised to abandon every wait (within [`super::POLL`]); see [`crate::stop::flag`].
    pub stop: &'static AtomicBool,
    /// The largest value [`super::Conn::get_many`] reads back.
    pub max_value: usize,
    /// Speak TLS with this configuration (`None`: plain TCP).
    pub tls: Option<Arc<Tls>>,
}

impl Options {
    /// `timeout`, the process-wide stop flag ([`crate::stop::flag`]), memcached's default
    /// value limit, plain TCP.
    pub fn new(timeout: Duration) -> Options {
        Options {
            timeout,
            stop: crate::stop::flag(),
            max_value: DEFAULT_MAX_VALUE,
            tls: None,
        }
    }

    /// The same options speaking TLS with `tls` (or plain TCP for `None`).
    pub fn with_tls(self, tls: Option<Arc<Tls>>) -> Options {
        Options { tls, ..self }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::new(DEFAULT_TIMEOUT)
    }
}
