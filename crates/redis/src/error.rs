//! Failures: what kind, which server, and a sentence that says it.

use std::fmt;

/// What went wrong, for callers that react differently (the message says it to people).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The connection failed: the name did not resolve, the connect was refused, the server
    /// closed it, a read or write failed, or the TLS handshake failed (the message says
    /// which).
    Connection,
    /// The deadline passed.
    Timeout,
    /// The stop flag was raised.
    Interrupted,
    /// The server sent something that is not RESP, or a reply the command never has.
    Protocol,
    /// The server refused the login: a wrong user or password, or one required and not
    /// given (`WRONGPASS`, `NOAUTH`, `NOPERM` on `AUTH`).
    Auth,
    /// The server answered a command with an error (`-ERR ...`, `-NOPERM ...`, `-OOM ...`).
    Refused,
    /// The server cannot serve ketama: a Redis Cluster node (Redis Cluster places keys
    /// itself), or a version without the commands needed.
    Unsupported,
    /// A scratch file of a key listing (on this machine) could not be written or read.
    Scratch,
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

impl Error {
    /// A failure of `server`.
    pub fn new(server: &str, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            server: server.to_string(),
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<ketama_memcache::Error> for Error {
    /// A failure of the byte stream (connect, TLS, deadline, stop): its message is kept.
    fn from(e: ketama_memcache::Error) -> Error {
        use ketama_memcache::ErrorKind as M;
        let kind = match e.kind {
            M::Timeout => ErrorKind::Timeout,
            M::Interrupted => ErrorKind::Interrupted,
            M::Scratch => ErrorKind::Scratch,
            M::Protocol => ErrorKind::Protocol,
            _ => ErrorKind::Connection,
        };
        Error {
            server: e.server,
            kind,
            message: e.message,
        }
    }
}

impl From<(&str, ketama_keyset::Error)> for Error {
    fn from((server, e): (&str, ketama_keyset::Error)) -> Error {
        match e {
            ketama_keyset::Error::Interrupted => Error::new(
                server,
                ErrorKind::Interrupted,
                format!("interrupted while listing the keys of {server}"),
            ),
            ketama_keyset::Error::Scratch(m) => Error::new(
                server,
                ErrorKind::Scratch,
                format!("listing the keys of {server}: {m}"),
            ),
        }
    }
}
