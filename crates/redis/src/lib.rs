//! A Redis (and Valkey) client that a misbehaving server cannot hang or flood: what
//! `ketama audit`, `ketama migrate` and `ketama simulate --live` ask of a Redis fleet.
//!
//! - **Connect and log in** ([`Conn::connect`]): TCP or TLS (`rediss`), `AUTH [user]
//!   password` (an ACL user, or the default one), `SELECT db`, then who answers
//!   ([`ServerInfo`]: product and version, run id, process, start, clock). A Redis Cluster
//!   node is refused (Redis Cluster places keys itself), and so is a server older than
//!   [`MIN_VERSION`].
//! - **One key listing** ([`Conn::list_keys`], [`listing`]): `SCAN` with a cursor, each key
//!   handed on once, with its remaining TTL in ms, `MEMORY USAGE` and, when asked, its
//!   version and how it was accessed ([`access`]: idle time or LFU counter).
//! - **The copy's operations** ([`Conn::queue_dump`], [`Conn::queue_restore`],
//!   [`Conn::queue_digest`], [`Conn::queue_delete`]): a key's `PTTL` and `DUMP` payload
//!   read at one instant; a payload written with `RESTORE` only if the key is absent
//!   (`BUSYKEY`: newer data, left alone) or only if the key is still the version the caller
//!   knows (`RESTORE ... REPLACE`), with its absolute expiry (`ABSTTL`); a delete only if
//!   unchanged. Each comparison and the write it guards run in one Lua script, atomically
//!   on the server ([`scripts`]). A version is the first 64 bits of the SHA-1 of the `DUMP`
//!   payload ([`digest`]).
//! - **Plain commands** for experiments: pipelined `SET`, `GET`, `DEL`, and `DBSIZE`.
//!
//! RESP is the `redis` crate's (commands encoded by its `Cmd`, replies parsed by its
//! `Parser`); the byte stream is `ketama-memcache`'s ([`ketama_memcache::Conn`]): the same
//! rules as every connection ketama makes:
//! - **One deadline per round.** The connect, the TLS handshake and the login share one
//!   deadline of the timeout; then each round of pipelined commands gets a fresh one (a
//!   listing can keep one for all, [`Conn::renew_each_round`]).
//! - **Stop within [`ketama_memcache::POLL`].** No wait blocks longer without checking the
//!   caller's stop flag; the call then fails with [`ErrorKind::Interrupted`].
//! - **Bounded memory.** Each reply is read within a byte bound ([`MAX_REPLY`], and
//!   [`MAX_PAYLOAD`] for a payload); a listing keeps its distinct keys in bounded memory.
//! - **Errors say what happened, where.** An [`Error`] has a kind and one sentence that
//!   names the server; the password never appears in one (nor in `Debug` output).

#![deny(missing_docs)]

pub mod access;
mod conn;
pub mod digest;
mod error;
mod info;
mod limits;
pub mod listing;
mod ops;
mod options;
mod plain;
mod reply;
pub mod scripts;

pub use access::{Access, Tracking};
pub use conn::Conn;
pub use error::{Error, ErrorKind};
pub use info::{unix_ms, ServerInfo};
pub use ketama_memcache::{ListOptions, Pace, Sizes};
pub use limits::{MAX_KEY, MAX_PAYLOAD, MAX_REPLY, MIN_VERSION, SCAN_COUNT};
pub use listing::{Ask, ListedKey, Listing};
pub use ops::{Dump, Dumped, Removed, Restored};
pub use options::{Options, Password};
