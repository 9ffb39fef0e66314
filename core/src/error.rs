//! The one error type of the core.

use core::fmt;

/// Everything that can go wrong; input never makes the core panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The ring has no servers.
    EmptyRing,
    /// The ring has servers, but none owns the key (every server got zero points, or the
    /// `flexihash-seed` class falls off its list and returns null).
    NoServer,
    /// No profile has this name.
    UnknownProfile,
    /// No hash function has this name.
    UnknownHash,
    /// `crc32` names two different functions: say `crc` (15-bit, libhashkit/Java/twemproxy) or
    /// `crc32a` (full IEEE CRC-32, PHP/pecl/Go), or pick a profile that resolves it.
    AmbiguousHash,
    /// The weight is not allowed by this profile's client (e.g. 0 where the client rejects it).
    BadWeight,
    /// A server with this label is already on the ring.
    DuplicateServer,
    /// No server with this label is on the ring.
    MissingServer,
    /// The server label cannot be parsed (empty, bad port, unbalanced IPv6 brackets, ...).
    BadLabel,
    /// The profile's client refuses this key (xmemcached: the empty key with `KETAMA_HASH`,
    /// `CRC32_HASH` or `ELECTION_HASH`).
    KeyRejected,
    /// The profile needs something this server does not have (e.g. `xmemcached-nginx` needs an
    /// IP address, not a host name).
    Unsupported,
    /// More points than the continuum can index (2^32).
    TooManyPoints,
}

impl Error {
    /// A short, stable, human-readable description.
    pub fn as_str(self) -> &'static str {
        match self {
            Error::EmptyRing => "the ring has no servers",
            Error::NoServer => "no server owns this key",
            Error::UnknownProfile => "unknown profile name",
            Error::UnknownHash => "unknown hash name",
            Error::AmbiguousHash => {
                "ambiguous hash name 'crc32': use 'crc' (15-bit, libhashkit/Java/twemproxy) or 'crc32a' (full CRC-32, PHP/pecl/Go)"
            }
            Error::BadWeight => "weight not accepted by this profile",
            Error::DuplicateServer => "a server with this label is already on the ring",
            Error::MissingServer => "no server with this label is on the ring",
            Error::BadLabel => "bad server label (expected host:port, [ipv6]:port or host)",
            Error::KeyRejected => "this client refuses the key",
            Error::Unsupported => "this profile cannot place this server",
            Error::TooManyPoints => "too many points for one continuum",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::error::Error for Error {}
