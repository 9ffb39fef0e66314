//! Why a servers file was refused, or its fleet could not be built into a ring: the kind of
//! refusal ([`ErrorKind`]) and where ([`Error`]: the file, and the line when one is to blame).
//! Every message of the servers file is written here.

use std::fmt;

/// What is wrong, without the file's name or the line ([`Error`] adds them).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The line is not valid UTF-8.
    NotUtf8,
    /// The line holds a UTF-8 byte-order mark (U+FEFF); `at_start`: it opens the file.
    ByteOrderMark {
        /// The mark is the file's first character (an editor's "UTF-8 with BOM").
        at_start: bool,
    },
    /// A fourth field on a line (the field, as written).
    ExtraField(String),
    /// A weight that is not an integer from 0 to `u32::MAX` (the field, as written).
    BadWeight(String),
    /// A label that is not a server.
    BadServer {
        /// The label, as written.
        label: String,
        /// Why the core refused it.
        error: ketama_core::Error,
    },
    /// A server whose endpoint an earlier line already names (`[::1]:11211` and
    /// `[0:0::1]:11211` are one server).
    Duplicate {
        /// The label, as written on the later line.
        label: String,
        /// The earlier line.
        first: usize,
    },
    /// No server in the file (only blanks and comments, or nothing).
    Empty,
    /// The profile cannot build a ring of the fleet.
    Ring {
        /// The server to blame, when one is (its label).
        label: Option<String>,
        /// Why the core refused.
        error: ketama_core::Error,
        /// The profile's name.
        profile: &'static str,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NotUtf8 => f.write_str("not valid UTF-8"),
            ErrorKind::ByteOrderMark { at_start } => {
                let where_ = if *at_start {
                    "the file starts with"
                } else {
                    "the line contains"
                };
                write!(
                    f,
                    "{where_} a UTF-8 byte-order mark (U+FEFF); save the file without it"
                )
            }
            ErrorKind::ExtraField(extra) => write!(
                f,
                "unexpected field '{extra}' (expected `host:port [weight] [name]`)"
            ),
            ErrorKind::BadWeight(w) => write!(
                f,
                "bad weight '{w}' (expected an integer from 0 to {})",
                u32::MAX
            ),
            ErrorKind::BadServer { label, error } => write!(f, "bad server '{label}': {error}"),
            ErrorKind::Duplicate { label, first } => {
                write!(f, "duplicate server '{label}' (already on line {first})")
            }
            ErrorKind::Empty => f.write_str("no servers in file"),
            ErrorKind::Ring {
                label,
                error,
                profile,
            } => {
                if let Some(label) = label {
                    write!(f, "server '{label}': ")?;
                }
                write!(f, "{} (profile {profile})", explain(*error))
            }
        }
    }
}

/// The core's refusal of a ring, in the words of a servers file.
fn explain(e: ketama_core::Error) -> String {
    match e {
        ketama_core::Error::BadWeight => "weight 0 is not accepted by this client".into(),
        ketama_core::Error::Unsupported => {
            "this client needs an IP address here, not a host name".into()
        }
        e => e.to_string(),
    }
}

/// A refused servers file: `FILE:LINE: what is wrong`, or `FILE: what is wrong` when no line
/// is to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The file name as given (or what names an in-memory fleet).
    pub path: String,
    /// The 1-based line to blame, if one is.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "{}:{n}: {}", self.path, self.kind),
            None => write!(f, "{}: {}", self.path, self.kind),
        }
    }
}

impl std::error::Error for Error {}
