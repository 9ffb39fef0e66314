//! The one error type of the core.

use core::ffi::CStr;
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
    /// A server with this label (or this endpoint: IPv6 literals compare in canonical form,
    /// `[::1]:11211` = `[0:0::1]:11211`) is already on the ring.
    DuplicateServer,
    /// No server with this label is on the ring.
    MissingServer,
    /// The server label cannot be parsed (empty, bad port, unbalanced IPv6 brackets, ...).
    BadLabel,
    /// The profile's client refuses this key (xmemcached: the empty key with `KETAMA_HASH`,
    /// `CRC32_HASH` or `ELECTION_HASH`).
    KeyRejected,
    /// The profile cannot place this server: its client needs something the server's label
    /// does not have (`xmemcached-nginx` needs an IP address, not a host name).
    Unsupported,
    /// More points than one continuum may hold ([`crate::MAX_POINTS`], 2^23 = 8,388,608):
    /// refused before anything is hashed.
    TooManyPoints,
    /// A capacity factor (bounded loads) below 1 or with a zero denominator.
    BadFactor,
    /// A ring built from explicit points ([`crate::Ring::from_points`]) takes no changes: it
    /// does not know which points a change would bring. Build a new one.
    FixedPoints,
    /// The profile does not place keys on a continuum of 32-bit points (modulo, jump,
    /// rendezvous, maglev, uhashring's 128-bit ring, ...), which this call needs.
    NotAContinuum,
    /// A key hash alone cannot place a key on this profile: its client reads the key itself
    /// (mcrouter, hash rendezvous, jump over xxh3) or a 128-bit hash (uhashring).
    NeedsKey,
    /// The current loads given to bounded loads do not have one entry per server.
    BadLoads,
    /// More servers than the profile's client or the algorithm takes (mcrouter: 2^23 =
    /// 8,388,608; anchor: its capacity in buckets; memento: 2^31 - 1).
    TooManyServers,
    /// No bucket function has this name.
    UnknownAlgorithm,
    /// The bucket count is 0: there is nothing to choose from.
    ZeroBuckets,
    /// The bucket count is above the bucket function's limit
    /// ([`crate::alt::bucket::Bucket::max_buckets`]).
    TooManyBuckets,
    /// The reference bucket function returns no bucket for this input (go-mpchash's degenerate
    /// case, where all 21 probes sit at distance 2^64 - 1; Go returns the empty string).
    NoBucket,
    /// A placement option the profile's client does not have, or a value its client refuses
    /// (twemproxy's `hash_tag` is exactly 2 bytes; libmemcached's key prefix 1..=127 bytes
    /// without NUL).
    BadOption,
    /// Text that must be Unicode is not: bytes that are not UTF-8 (a label, a name, a profile
    /// or hash name given as bytes), or a string holding an unpaired surrogate (Java, JavaScript
    /// and Python strings can). Core's API takes `&str` for text and bytes for keys; the
    /// bindings refuse such text with this error instead of replacing what they cannot encode.
    InvalidUtf8,
}

impl Error {
    /// Every variant, once: bindings test that each maps to its own status, exception or
    /// message without falling back to a generic one.
    pub const ALL: &'static [Error] = &[
        Error::EmptyRing,
        Error::NoServer,
        Error::UnknownProfile,
        Error::UnknownHash,
        Error::AmbiguousHash,
        Error::BadWeight,
        Error::DuplicateServer,
        Error::MissingServer,
        Error::BadLabel,
        Error::KeyRejected,
        Error::Unsupported,
        Error::TooManyPoints,
        Error::BadFactor,
        Error::FixedPoints,
        Error::NotAContinuum,
        Error::NeedsKey,
        Error::BadLoads,
        Error::TooManyServers,
        Error::UnknownAlgorithm,
        Error::ZeroBuckets,
        Error::TooManyBuckets,
        Error::NoBucket,
        Error::BadOption,
        Error::InvalidUtf8,
    ];

    /// The variant's name (`"EmptyRing"`, ...), stable: bindings derive their names from it.
    pub fn name(self) -> &'static str {
        match self {
            Error::EmptyRing => "EmptyRing",
            Error::NoServer => "NoServer",
            Error::UnknownProfile => "UnknownProfile",
            Error::UnknownHash => "UnknownHash",
            Error::AmbiguousHash => "AmbiguousHash",
            Error::BadWeight => "BadWeight",
            Error::DuplicateServer => "DuplicateServer",
            Error::MissingServer => "MissingServer",
            Error::BadLabel => "BadLabel",
            Error::KeyRejected => "KeyRejected",
            Error::Unsupported => "Unsupported",
            Error::TooManyPoints => "TooManyPoints",
            Error::BadFactor => "BadFactor",
            Error::FixedPoints => "FixedPoints",
            Error::NotAContinuum => "NotAContinuum",
            Error::NeedsKey => "NeedsKey",
            Error::BadLoads => "BadLoads",
            Error::TooManyServers => "TooManyServers",
            Error::UnknownAlgorithm => "UnknownAlgorithm",
            Error::ZeroBuckets => "ZeroBuckets",
            Error::TooManyBuckets => "TooManyBuckets",
            Error::NoBucket => "NoBucket",
            Error::BadOption => "BadOption",
            Error::InvalidUtf8 => "InvalidUtf8",
        }
    }

    /// The description as a static NUL-terminated string (what the C library returns); the
    /// one place these texts are written.
    pub fn as_c_str(self) -> &'static CStr {
        match self {
            Error::EmptyRing => c"the ring has no servers",
            Error::NoServer => c"no server owns this key",
            Error::UnknownProfile => c"unknown profile name",
            Error::UnknownHash => c"unknown hash name",
            Error::AmbiguousHash => {
                c"ambiguous hash name 'crc32': use 'crc' (15-bit, libhashkit/Java/twemproxy) or 'crc32a' (full CRC-32, PHP/pecl/Go)"
            }
            Error::BadWeight => c"weight not accepted by this profile",
            Error::DuplicateServer => c"a server with this label is already on the ring",
            Error::MissingServer => c"no server with this label is on the ring",
            Error::BadLabel => c"bad server label (expected host:port, [ipv6]:port or host)",
            Error::KeyRejected => c"this client refuses the key",
            Error::Unsupported => c"this profile cannot place this server",
            Error::TooManyPoints => {
                c"too many points for one continuum (the limit is 8388608 = 2^23 points)"
            }
            Error::BadFactor => c"the capacity factor must be a fraction >= 1 (e.g. 125/100)",
            Error::FixedPoints => {
                c"a ring from explicit points takes no changes: build a new one"
            }
            Error::NotAContinuum => {
                c"this profile does not place keys on a continuum of 32-bit points"
            }
            Error::NeedsKey => {
                c"this profile places keys from the key itself: a key hash alone cannot place one"
            }
            Error::BadLoads => c"the loads must have one entry per server",
            Error::TooManyServers => {
                c"too many servers (mcrouter takes at most 8388608 = 2^23; anchor at most its capacity; memento at most 2147483647)"
            }
            Error::UnknownAlgorithm => {
                c"unknown bucket algorithm (expected jump, guava, jumpback, fliphash, maglev-go or mpchash-go)"
            }
            Error::ZeroBuckets => c"the bucket count must be at least 1",
            Error::TooManyBuckets => {
                c"too many buckets for this algorithm (jump, guava, jumpback, fliphash: 2147483647; maglev-go: 65537; mpchash-go: 65536)"
            }
            Error::NoBucket => c"the reference implementation returns no bucket for this input",
            Error::BadOption => {
                c"option not accepted: hash_tag (twemproxy and Jedis profiles) is exactly 2 bytes, prefix_key (libmemcached profiles) 1..127 bytes without NUL"
            }
            Error::InvalidUtf8 => {
                c"text is not valid Unicode (bytes that are not UTF-8, or a string with an unpaired surrogate)"
            }
        }
    }

    /// A short, stable, human-readable description.
    pub fn as_str(self) -> &'static str {
        // Every text above is ASCII, so this never takes the fallback.
        self.as_c_str().to_str().unwrap_or("error")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_variant_once() {
        // `name` is an exhaustive match: a new variant must be named there, and then here.
        let mut names: std::vec::Vec<&str> = Error::ALL.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Error::ALL.len());
        for e in Error::ALL {
            assert!(e.as_str().is_ascii() && e.as_str() != "error", "{e:?}");
        }
        assert!(Error::TooManyPoints
            .as_str()
            .contains(&std::format!("{}", crate::MAX_POINTS)));
    }
}
