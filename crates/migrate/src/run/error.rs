//! Why a run did not start, or stopped before its end.

use std::fmt;

use crate::backend::ServerError;
use crate::same::SameServer;
use crate::state::StateError;

/// A run that could not be done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// Options that cannot work (the message names the option).
    Options(String),
    /// A server lacks what the run needs (memcached before 1.6): nothing was done.
    Unsupported(ServerError),
    /// NEW servers that did not answer before anything was copied (each error names one):
    /// nothing was copied.
    Down(Vec<ServerError>),
    /// The state file cannot be read or written.
    State(StateError),
    /// A scratch file on this machine failed.
    Local(String),
    /// A servers file names one server twice (under two labels): nothing was done.
    SameServer(SameServer),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Options(m) | RunError::Local(m) => f.write_str(m),
            RunError::Unsupported(e) => write!(f, "{e}"),
            RunError::Down(down) => {
                let each: Vec<&str> = down.iter().map(|e| e.message.as_str()).collect();
                write!(
                    f,
                    "every NEW server must answer before anything is copied; nothing was \
                     copied: {}",
                    each.join("; ")
                )
            }
            RunError::State(e) => write!(f, "{e}"),
            RunError::SameServer(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<String> for RunError {
    fn from(m: String) -> RunError {
        RunError::Local(m)
    }
}

impl From<SameServer> for RunError {
    fn from(e: SameServer) -> RunError {
        RunError::SameServer(e)
    }
}

impl From<StateError> for RunError {
    fn from(e: StateError) -> RunError {
        RunError::State(e)
    }
}
