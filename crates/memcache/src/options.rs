//! How a connection waits, how much it reads, whether it speaks TLS, and the flag that stops
//! it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::limits::DEFAULT_MAX_VALUE;
use crate::tls::Tls;

/// How a connection waits.
#[derive(Clone, Debug)]
pub struct Options {
    /// The total time one server may take, from the connect on, the TLS handshake included
    /// (see [`Conn::set_deadline`](crate::Conn::set_deadline)).
    pub timeout: Duration,
    /// Raised (by the caller: a signal handler, another thread) to abandon every wait within
    /// [`POLL`](crate::POLL); the call then fails with
    /// [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted).
    pub stop: Arc<AtomicBool>,
    /// The largest value [`Conn::get_many`](crate::Conn::get_many) and
    /// [`Conn::read_get`](crate::Conn::read_get) read back (a larger one is an error of kind
    /// [`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge) or
    /// [`ErrorKind::Protocol`](crate::ErrorKind::Protocol), before it is read): memcached's
    /// default item size limit unless set from the server's own
    /// ([`Conn::set_max_value`](crate::Conn::set_max_value)).
    pub max_value: usize,
    /// Speak TLS with this configuration (`None`: plain TCP).
    pub tls: Option<Arc<Tls>>,
}

impl Options {
    /// `timeout`, stopped by `stop`, memcached's default value limit, plain TCP.
    pub fn new(timeout: Duration, stop: Arc<AtomicBool>) -> Options {
        Options {
            timeout,
            stop,
            max_value: DEFAULT_MAX_VALUE,
            tls: None,
        }
    }

    /// The same options speaking TLS with `tls` (or plain TCP for `None`).
    pub fn with_tls(self, tls: Option<Arc<Tls>>) -> Options {
        Options { tls, ..self }
    }
}
