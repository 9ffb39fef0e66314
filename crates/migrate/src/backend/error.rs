//! A server's failure, as the engine sees it: what kind (to decide), and one sentence (to
//! say).

use std::fmt;

/// What kind of failure a server had, for the engine's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerErrorKind {
    /// The server lacks what the engine needs (memcached before 1.6 has no meta protocol):
    /// nothing can be done with it; a run refuses to start.
    Unsupported,
    /// The caller's stop flag was raised.
    Interrupted,
    /// Scratch files on this machine failed (not the server's fault).
    Local,
    /// The server did not answer, or answered what it must not: it is counted as failed and
    /// the run goes on without it.
    Failed,
}

/// A failed call to one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerError {
    /// The server's label.
    pub server: String,
    /// What kind of failure.
    pub kind: ServerErrorKind,
    /// One sentence that names the server and says what happened.
    pub message: String,
}

impl ServerError {
    /// A failure of `server` of this kind.
    pub fn new(server: &str, kind: ServerErrorKind, message: impl Into<String>) -> ServerError {
        ServerError {
            server: server.to_string(),
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ServerError {}
