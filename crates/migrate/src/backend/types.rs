//! What travels between the engine and a backend: listed keys, items, requests and replies,
//! versions, identities.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::heat::Heat;

/// An opaque token of one copy of a key, chosen by the backend: equal tokens mean the same
/// bytes written by the same write. `Version(0)` is unknown (a listing that cannot tell).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Version(pub u64);

impl Version {
    /// No version known.
    pub const UNKNOWN: Version = Version(0);

    /// Whether the token is known.
    pub fn is_known(self) -> bool {
        self != Version::UNKNOWN
    }
}

/// A key as a server's listing shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The key's bytes.
    pub key: Vec<u8>,
    /// Absolute expiry, Unix seconds, `-1` for none or unknown.
    pub exp: i64,
    /// The item's version when listed ([`Version::UNKNOWN`] when the listing cannot tell).
    pub version: Version,
    /// The item's size in memory, bytes (0 when unknown).
    pub size: u64,
    /// How recently it was read ([`Heat::Unknown`] when the listing was not asked, or
    /// cannot tell).
    pub heat: Heat,
}

/// What a listing is asked to give besides keys, expiries and sizes (a backend whose
/// listing shows something for free may give it unasked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ask {
    /// Each key's [`Version`].
    pub versions: bool,
    /// Each key's [`Heat`].
    pub heat: bool,
}

/// How a server's listing went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListSummary {
    /// The command that listed the keys, for reports (`lru_crawler metadump all`).
    pub command: &'static str,
    /// Whether the listing's own method may miss keys (memcached's `stats cachedump`).
    pub partial: bool,
    /// Listing lines skipped (a server or proxy sending what the protocol does not): the
    /// first ones, by line number, with the reason.
    pub bad: Vec<(u64, String)>,
    /// How many lines were skipped in all.
    pub bad_count: u64,
    /// The distinct keys listed.
    pub keys: u64,
    /// When heat was asked for: how the server told it (or why it could not).
    pub heat: Option<String>,
}

impl ListSummary {
    /// Whether every key the server holds was listed, as far as the listing can tell: what
    /// an incomplete listing lacks must not be taken for gone.
    pub fn is_complete(&self) -> bool {
        !self.partial && self.bad_count == 0
    }
}

/// An item as read from a server, ready to be written to another of the same kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The item's data as the backend stores it (memcached: the value; Redis: the `DUMP`
    /// payload).
    pub data: Vec<u8>,
    /// memcached's client flags (0 elsewhere).
    pub flags: u32,
    /// When the item expires, on this machine's monotonic clock (`None`: never): the time
    /// the read was sent plus the remaining TTL the server gave, so never later than the
    /// source's own expiry. A copy is written with what remains of it then (memcached: in
    /// seconds, rounded up; Redis: in ms, as an absolute time on the NEW server's clock).
    pub expires: Option<Instant>,
    /// The version of the item read.
    pub version: Version,
}

impl Item {
    /// Whether the item has expired (it is not copied).
    pub fn expired(&self) -> bool {
        self.expires.is_some_and(|t| t <= Instant::now())
    }

    /// What remains of its time to live now (`None`: no expiry; zero: expired).
    pub fn remaining(&self) -> Option<Duration> {
        self.expires
            .map(|t| t.saturating_duration_since(Instant::now()))
    }
}

/// One request of a round.
#[derive(Clone, Copy, Debug)]
pub enum Request<'a> {
    /// Read an item: [`Reply::Item`].
    Read(&'a [u8]),
    /// The version of a key's item, without its data: [`Reply::Version`].
    Version(&'a [u8]),
    /// Write an item only if the key is absent: [`Reply::Written`].
    Add(&'a [u8], &'a Item),
    /// Replace a copy only if it is still at `expect`: [`Reply::Written`].
    Update {
        /// The key.
        key: &'a [u8],
        /// The new item.
        item: &'a Item,
        /// The version the copy must still have.
        expect: Version,
    },
    /// Delete a key, only if it is still at `expect` when one is given: [`Reply::Deleted`].
    Delete {
        /// The key.
        key: &'a [u8],
        /// The version the item must still have (`None`: whatever it holds).
        expect: Option<Version>,
    },
}

/// The reply to one [`Request`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// To [`Request::Read`]: the item, `None` when the key is absent.
    Item(Option<Item>),
    /// To [`Request::Read`] received with a byte limit
    /// ([`Connection::receive_within`](super::Connection::receive_within)): the item's data
    /// has this many bytes, more than the round could still keep; it was not kept.
    Later(u64),
    /// To [`Request::Version`]: the version, `None` when the key is absent.
    Version(Option<Version>),
    /// To [`Request::Add`] and [`Request::Update`].
    Written(Written),
    /// To [`Request::Delete`].
    Deleted(Deleted),
}

/// What a write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Written; the copy's version.
    Stored(Version),
    /// Add: the key was there already (newer): nothing written.
    Exists,
    /// Update: the copy changed since (a client wrote it): nothing written.
    Changed,
    /// Update: the copy is gone: nothing written.
    Gone,
    /// The server refused this item (e.g. larger than its item size limit); the connection
    /// stays usable.
    Refused,
    /// Written with an expiry that had passed when the server applied it: nothing stays.
    Expired,
}

/// What a delete did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deleted {
    /// Deleted.
    Deleted,
    /// No such key.
    Gone,
    /// The item changed since (its version is not the one given): kept.
    Changed,
}

/// Which server process answers a connection.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    /// The address the connection reached.
    pub peer: SocketAddr,
    /// The process, as the backend knows it (memcached: its pid; Redis: its run id).
    pub process: String,
    /// When the process started, Unix seconds on its own clock: a restart changes it (and
    /// may void the versions given before).
    pub started: i64,
}

impl Identity {
    /// Whether two start times (as [`Identity::started`] gives them) are one start: within a
    /// second, since a start time is read as the server's clock minus its uptime, two whole
    /// numbers of seconds read at different instants (Redis: `TIME` and `INFO` apart).
    pub fn started_alike(a: i64, b: i64) -> bool {
        (a - b).abs() <= 1
    }

    /// Whether `other` is the same server process: the same process, started alike.
    pub fn same_process(&self, other: &Identity) -> bool {
        self.process == other.process && Identity::started_alike(self.started, other.started)
    }
}
