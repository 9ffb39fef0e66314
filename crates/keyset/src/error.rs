//! Why a key set failed: its scratch files, or a stop request.

use std::fmt;
use std::io;
use std::path::Path;

/// A failed key-set operation.
#[derive(Debug)]
pub enum Error {
    /// A scratch file or folder could not be created, written or read (the message names it
    /// and says why).
    Scratch(String),
    /// The stop flag was raised while the set worked on disk.
    Interrupted,
}

impl Error {
    /// A failure on the scratch file `path`.
    pub fn file(path: &Path, e: io::Error) -> Error {
        Error::Scratch(format!("scratch file {}: {e}", path.display()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Scratch(m) => f.write_str(m),
            Error::Interrupted => f.write_str("interrupted while dropping keys listed twice"),
        }
    }
}

impl std::error::Error for Error {}
