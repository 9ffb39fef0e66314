//! The server side of a migration: what the engine asks of a server, behind two traits
//! ([`Backend`] opens [`Connection`]s), the memcached implementation ([`Memcached`]), the
//! Redis one ([`Redis`]), and either, chosen at run time ([`AnyBackend`]).
//!
//! The engine needs five things of a server, whatever it is:
//! - **list** its keys with their metadata ([`Connection::list`]: key, expiry, size, and the
//!   [`Version`] of the item when the listing knows it);
//! - **read** an item ([`Request::Read`]: its data, remaining TTL and version);
//! - **write only if absent** ([`Request::Add`]): a key already there is newer (a client on
//!   the new placement wrote it) and is left alone;
//! - **update or delete only if unchanged** since the tool read or wrote it
//!   ([`Request::Update`], [`Request::Delete`] with the [`Version`] it got), so a copy a
//!   client changed since is left alone;
//! - the **version** of a copy without its data ([`Request::Version`]: has a copy changed,
//!   is a key held at all).
//!
//! A [`Version`] is an opaque token the backend chooses, one per copy of a key: equal tokens
//! mean the same bytes written by the same write (memcached: the item's CAS; Redis: a digest
//! of the `DUMP` payload, compared atomically in a script). [`Connection::identity`] says
//! which server process answers (for one server under two labels, and for a restart, after
//! which a version may mean something else).
//!
//! Requests are pipelined: [`Connection::send`] sends a round's requests without waiting,
//! the engine sends to every server of the round, then [`Connection::receive`] reads each
//! server's replies, one per request, in order.

mod any;
mod error;
mod memcached;
mod redis;
mod server;
mod types;

pub use any::{AnyBackend, AnyConn};
pub use error::{ServerError, ServerErrorKind};
pub use memcached::{Memcached, MemcachedConn};
pub use redis::{Redis, RedisConn};
pub use server::{Backend, Connection, Endpoint, Purpose, Side};
pub use types::{
    Ask, Deleted, Identity, Item, ListSummary, Listed, Reply, Request, Version, Written,
};
