//! How a connection logs in and which database it uses, beside the byte stream's options
//! (timeout, stop flag, TLS).

use std::fmt;

/// A password, kept out of `Debug` output and messages.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// The password `text`.
    pub fn new(text: impl Into<String>) -> Password {
        Password(text.into())
    }

    /// The password's text, for the `AUTH` command only.
    pub(crate) fn text(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

/// How connections to a Redis fleet are made.
#[derive(Clone, Debug)]
pub struct Options {
    /// The byte stream: the deadline of each round trip, the stop flag, TLS.
    pub net: ketama_memcache::Options,
    /// The logical database (`SELECT`), 0 by default.
    pub db: u32,
    /// The ACL user (`AUTH user password`; without one, `AUTH password` logs in as the
    /// default user).
    pub user: Option<String>,
    /// The password (`None`: no `AUTH`).
    pub password: Option<Password>,
}

impl Options {
    /// Database 0, no login, over `net`.
    pub fn new(net: ketama_memcache::Options) -> Options {
        Options {
            net,
            db: 0,
            user: None,
            password: None,
        }
    }
}
