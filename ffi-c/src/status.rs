//! The status codes every entry point returns.

use core::ffi::{c_char, c_int, CStr};

use ketama_core::Error;

/// What a call did. `KETAMA_STATUS_OK` (0) is success; every failure has its own value.
///
/// Values are fixed forever: new statuses get new numbers, old numbers are never reused.
/// `ketama_status_str()` gives a static description of each.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ketama_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// The ring has no servers.
    EmptyRing = 2,
    /// The ring has servers, but none owns the key (every server got zero points, or the
    /// `flexihash-seed` class returns null).
    NoServer = 3,
    /// No profile has this name.
    UnknownProfile = 4,
    /// No hash function has this name.
    UnknownHash = 5,
    /// `crc32` is ambiguous without a profile: say `crc` (15-bit) or `crc32a` (full CRC-32).
    AmbiguousHash = 6,
    /// The profile's client does not accept this weight.
    BadWeight = 7,
    /// A server with this label is already on the ring.
    DuplicateServer = 8,
    /// No server with this label is on the ring.
    MissingServer = 9,
    /// The server label cannot be parsed (expected `host:port`, `[ipv6]:port` or `host`).
    BadLabel = 10,
    /// Text that must be UTF-8 (a label, a name, a profile or hash name) is not.
    InvalidUtf8 = 11,
    /// The profile's client refuses this key.
    KeyRejected = 12,
    /// The profile cannot place this server (e.g. `xmemcached-nginx` with a host name).
    Unsupported = 13,
    /// More points than one continuum may hold: the limit is 2^23 = 8,388,608 points (52,428
    /// equal servers on the libketama profiles), refused before anything is hashed.
    TooManyPoints = 14,
    /// An index argument is past the end.
    IndexOutOfRange = 15,
    /// A Rust panic was caught at the C boundary (a bug in ketama; please report it).
    Panic = 16,
    /// An internal error (a lock poisoned by an earlier panic, or an error this version does
    /// not know how to name).
    Internal = 17,
    /// A capacity factor below 1.
    BadFactor = 18,
    /// A ring from `ketama_ring_create_points()` takes no changes: build a new one.
    FixedPoints = 19,
    /// The profile does not place keys on a continuum of 32-bit points (modulo, jump,
    /// rendezvous, maglev, uhashring's 128-bit and Jedis's 64-bit rings, ...), which this call
    /// needs.
    NotAContinuum = 20,
    /// A key hash alone cannot place a key on this profile: its client reads the key itself
    /// (mcrouter, hash rendezvous, jump over xxh3) or a 128-bit or 64-bit hash (uhashring,
    /// Jedis).
    NeedsKey = 21,
    /// The current loads (bounded loads) do not have one entry per server.
    BadLoads = 22,
    /// More servers than the profile's client takes (mcrouter: 2^23).
    TooManyServers = 23,
    /// No bucket function has this name.
    UnknownAlgorithm = 24,
    /// The bucket count is 0.
    ZeroBuckets = 25,
    /// The bucket count is above the bucket function's limit.
    TooManyBuckets = 26,
    /// The reference bucket function returns no bucket for this input.
    NoBucket = 27,
    /// A placement option the profile's client does not have, or a value it refuses
    /// (`hash_tag` is exactly 2 bytes; a key prefix 1..127 bytes without NUL).
    BadOption = 28,
}

impl ketama_status {
    /// Every status, in value order.
    pub const ALL: [ketama_status; 29] = [
        ketama_status::Ok,
        ketama_status::NullArgument,
        ketama_status::EmptyRing,
        ketama_status::NoServer,
        ketama_status::UnknownProfile,
        ketama_status::UnknownHash,
        ketama_status::AmbiguousHash,
        ketama_status::BadWeight,
        ketama_status::DuplicateServer,
        ketama_status::MissingServer,
        ketama_status::BadLabel,
        ketama_status::InvalidUtf8,
        ketama_status::KeyRejected,
        ketama_status::Unsupported,
        ketama_status::TooManyPoints,
        ketama_status::IndexOutOfRange,
        ketama_status::Panic,
        ketama_status::Internal,
        ketama_status::BadFactor,
        ketama_status::FixedPoints,
        ketama_status::NotAContinuum,
        ketama_status::NeedsKey,
        ketama_status::BadLoads,
        ketama_status::TooManyServers,
        ketama_status::UnknownAlgorithm,
        ketama_status::ZeroBuckets,
        ketama_status::TooManyBuckets,
        ketama_status::NoBucket,
        ketama_status::BadOption,
    ];

    /// The core error this status reports, for the statuses that report one.
    pub fn core_error(self) -> Option<Error> {
        Some(match self {
            ketama_status::EmptyRing => Error::EmptyRing,
            ketama_status::NoServer => Error::NoServer,
            ketama_status::UnknownProfile => Error::UnknownProfile,
            ketama_status::UnknownHash => Error::UnknownHash,
            ketama_status::AmbiguousHash => Error::AmbiguousHash,
            ketama_status::BadWeight => Error::BadWeight,
            ketama_status::DuplicateServer => Error::DuplicateServer,
            ketama_status::MissingServer => Error::MissingServer,
            ketama_status::BadLabel => Error::BadLabel,
            ketama_status::KeyRejected => Error::KeyRejected,
            ketama_status::Unsupported => Error::Unsupported,
            ketama_status::TooManyPoints => Error::TooManyPoints,
            ketama_status::BadFactor => Error::BadFactor,
            ketama_status::FixedPoints => Error::FixedPoints,
            ketama_status::NotAContinuum => Error::NotAContinuum,
            ketama_status::NeedsKey => Error::NeedsKey,
            ketama_status::BadLoads => Error::BadLoads,
            ketama_status::TooManyServers => Error::TooManyServers,
            ketama_status::UnknownAlgorithm => Error::UnknownAlgorithm,
            ketama_status::ZeroBuckets => Error::ZeroBuckets,
            ketama_status::TooManyBuckets => Error::TooManyBuckets,
            ketama_status::NoBucket => Error::NoBucket,
            ketama_status::BadOption => Error::BadOption,
            ketama_status::InvalidUtf8 => Error::InvalidUtf8,
            ketama_status::Ok
            | ketama_status::NullArgument
            | ketama_status::IndexOutOfRange
            | ketama_status::Panic
            | ketama_status::Internal => return None,
        })
    }

    /// The NUL-terminated description: core's text for core errors, the C layer's own for
    /// the rest.
    pub fn message(self) -> &'static CStr {
        if let Some(e) = self.core_error() {
            return e.as_c_str();
        }
        match self {
            ketama_status::Ok => c"ok",
            ketama_status::NullArgument => c"a required pointer argument is NULL",
            ketama_status::IndexOutOfRange => c"index out of range",
            ketama_status::Panic => c"internal panic caught at the C boundary (a bug in ketama)",
            _ => c"internal error",
        }
    }
}

impl From<Error> for ketama_status {
    fn from(e: Error) -> ketama_status {
        // The inverse of `core_error`; a core error this version has no status for would
        // become `Internal`, which the test below forbids for every `Error::ALL` variant.
        ketama_status::ALL
            .iter()
            .copied()
            .find(|s| s.core_error() == Some(e))
            .unwrap_or(ketama_status::Internal)
    }
}

/// A static, NUL-terminated English description of a status (never NULL; values this
/// version does not know give "unknown status").
///
/// Takes an `int` rather than the enum so that any value a caller holds is safe to pass.
#[no_mangle]
pub extern "C" fn ketama_status_str(status: c_int) -> *const c_char {
    let text = ketama_status::ALL
        .iter()
        .find(|s| **s as c_int == status)
        .map_or(c"unknown status", |s| s.message());
    text.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_error_has_its_own_status() {
        for &e in Error::ALL {
            let s = ketama_status::from(e);
            assert_eq!(s.core_error(), Some(e), "{e:?} falls back to {s:?}");
            assert_eq!(s.message().to_str().unwrap(), e.as_str());
        }
    }

    #[test]
    fn all_is_every_value_in_order() {
        for (i, s) in ketama_status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i, "{s:?}");
        }
    }
}
