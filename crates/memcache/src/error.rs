//! Failures: what kind, which server, and a sentence that says it.

use std::fmt;
use std::io::ErrorKind as IoKind;
use std::time::Duration;

/// What went wrong, for callers that react differently (the message says it to people).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The name did not resolve.
    Resolve,
    /// The connection was refused or failed.
    Connect,
    /// The deadline passed.
    Timeout,
    /// The stop flag was raised.
    Interrupted,
    /// The server closed the connection (between replies or inside one).
    Closed,
    /// A read or write failed otherwise.
    Io,
    /// The server sent something memcached does not send (too long, malformed, unexpected).
    Protocol,
    /// The server answered with an error line (`SERVER_ERROR ...`, `NOT_STORED`, ...).
    Refused,
    /// The TLS handshake or a TLS record failed: an untrusted certificate, a name mismatch,
    /// a server that does not speak TLS, a client certificate the server wants or refuses.
    Tls,
    /// The server has no meta protocol (`mg`, `ms`, `md`, `mn`: memcached before 1.6).
    NoMeta,
    /// A scratch file of a key listing (on this machine) could not be written or read.
    Scratch,
    /// A meta reply that is not the reply to its request (another opaque token or key): the
    /// server or a proxy answers out of order.
    Mismatch,
    /// A value announced larger than the server's item size limit: refused before it is
    /// read.
    TooLarge,
}

/// A failed call: which server, what kind, and a sentence that says it. It prints as the
/// sentence, which names the server once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The server, as the caller named it.
    pub server: String,
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The whole message (it names the server).
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The error of a key listing's scratch files (or of a stop raised while they were
    /// worked on) on `server`.
    pub fn listing(server: &str, e: ketama_keyset::Error) -> Error {
        match e {
            ketama_keyset::Error::Interrupted => error(
                server,
                ErrorKind::Interrupted,
                format!("interrupted while listing the keys of {server}"),
            ),
            ketama_keyset::Error::Scratch(m) => error(
                server,
                ErrorKind::Scratch,
                format!("listing the keys of {server}: {m}"),
            ),
        }
    }
}

pub(crate) fn error(server: &str, kind: ErrorKind, message: String) -> Error {
    Error {
        server: server.to_string(),
        kind,
        message,
    }
}

/// `10 s`, `1.5 s`.
pub(crate) fn secs(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// A read or write that only ran out of its time slice (try again).
pub(crate) fn is_wait(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        IoKind::WouldBlock | IoKind::TimedOut | IoKind::Interrupted
    )
}

/// The peer went away (a TLS peer that closes without `close_notify` reads as an unexpected
/// end of file).
pub(crate) fn is_closed(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        IoKind::ConnectionReset
            | IoKind::ConnectionAborted
            | IoKind::BrokenPipe
            | IoKind::UnexpectedEof
    )
}

/// An io error without the `(os error N)` tail.
pub(crate) fn io_text(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

/// Server bytes for a message: printable ASCII as is, the rest as `\xNN`, at most 80 bytes.
pub fn printable(b: &[u8]) -> String {
    let mut s = String::new();
    for &c in b.iter().take(80) {
        if (0x20..0x7f).contains(&c) && c != b'\\' {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02x}"));
        }
    }
    if b.len() > 80 {
        s.push_str(&format!("... ({} bytes)", b.len()));
    }
    s
}
