//! What every command shares: the one-line failure ([`Fail`]), writing the output ([`emit`]),
//! and why a key has no server ([`key_error`]).

use std::io::Write;

use ketama_core::Error;

/// A failure to report: one line, exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail(pub String);

impl Fail {
    /// A failure with this message.
    pub fn new(msg: impl Into<String>) -> Fail {
        Fail(msg.into())
    }
}

impl From<ketama_servers::Error> for Fail {
    fn from(e: ketama_servers::Error) -> Fail {
        Fail(e.to_string())
    }
}

impl From<ketama_memcache::Error> for Fail {
    fn from(e: ketama_memcache::Error) -> Fail {
        Fail(e.message)
    }
}

/// Writes the output to stdout; returns the exit status (a closed pipe is not an error).
pub(crate) fn emit(out: &str) -> i32 {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("ketama: cannot write output: {e}");
            2
        }
    }
}

/// Prints a failure on stderr; returns its exit status (2).
pub(crate) fn report(Fail(msg): Fail) -> i32 {
    eprintln!("ketama: {msg}");
    2
}

/// Why a key has no server, for messages.
pub(crate) fn key_error(e: Error) -> &'static str {
    match e {
        Error::KeyRejected => "the client refuses this key",
        Error::NoServer => "no server owns this key",
        Error::EmptyRing => "the ring has no servers",
        _ => e.as_str(),
    }
}
