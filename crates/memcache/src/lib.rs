//! A memcached client that a misbehaving server cannot hang or flood: what `ketama audit`,
//! `ketama migrate` and `ketama simulate --live` need, in one client over plain TCP or TLS.
//!
//! - the **text protocol** (`version`, pipelined `set`, multi-key `get` and `delete`),
//! - the **meta protocol** of memcached 1.6+ (`mg`, `ms`, `md`, `mn`; queued, sent with one
//!   [`Conn::flush`], replies read in order, each matched to its request by its opaque token
//!   and key, [`ErrorKind::Mismatch`] when it is not), with [`Conn::check_meta`] to refuse an
//!   older server ([`ErrorKind::NoMeta`]),
//! - bounded **`stats`** ([`Conn::stats`], [`Conn::item_count`], [`Conn::server_time`],
//!   [`Conn::identity`], [`Conn::item_size_max`]),
//! - one **key listing** ([`Conn::list_keys`]): metadump, the `stats cachedump` fallback,
//!   repeated passes, BUSY retries, bad lines, bounded memory (see [`listing`]).
//!
//! The rules every call follows:
//! - **One deadline per connection.** [`Conn::connect`] sets it to now +
//!   [`Options::timeout`]; it covers the connect, the TLS handshake and every read and write
//!   after it, however the server trickles its bytes. [`Conn::set_deadline`] and
//!   [`Conn::renew_deadline`] move it (a long job gives each step its own budget; a meta
//!   round gets one at each [`Conn::flush`]).
//! - **Stop within [`POLL`].** No wait blocks longer than [`POLL`] without checking
//!   [`Options::stop`], the caller's flag (a signal handler raises it; this crate installs
//!   none).
//! - **Bounded memory.** Every line is bounded ([`MAX_LINE`], [`MAX_LISTING_LINE`]), `stats`
//!   replies in lines and bytes, values by [`Options::max_value`] (the server's item size
//!   limit, read with [`Conn::item_size_max`]; larger is [`ErrorKind::TooLarge`], refused
//!   before a byte is kept) and by what the caller can keep ([`Fetched::Over`]), and a key
//!   listing is streamed to the caller, never collected.
//! - **Only what memcached can send.** Keys are 1 to 250 bytes without spaces or control
//!   bytes ([`key_ok`]); anything else in a reply is an [`ErrorKind::Protocol`] error, and in
//!   a listing a skipped, reported line ([`BadLine`]).
//! - **Errors say what happened, where.** An [`Error`] has a kind and one sentence naming the
//!   server, the command and the cause ("timed out after 10 s waiting for the reply to
//!   `stats` from 127.0.0.1:11211"; "the TLS handshake with 10.0.0.1:11211 failed:
//!   certificate not trusted ...").
//! - **TLS is verified.** With [`Options::tls`] every connection checks the server's
//!   certificate and name ([`tls`]); skipping that takes an explicit setting.
#![deny(missing_docs)]

mod conn;
mod error;
mod key;
mod limits;
pub mod listing;
mod meta;
mod meta_reply;
mod options;
mod stats;
mod text;
pub mod tls;
mod transport;
mod wire;

pub use conn::Conn;
pub use error::{printable, Error, ErrorKind};
pub use ketama_keyset::Sizes;
pub use key::{key_ok, sendable, uri_decode};
pub use limits::{
    DEFAULT_MAX_VALUE, DEFAULT_TIMEOUT, MAX_ITEM, MAX_LINE, MAX_LISTING_LINE, MAX_STATS_BYTES,
    MAX_STATS_LINES, POLL, RELATIVE_TTL_MAX,
};
pub use listing::{
    line_limit, BadLine, ListOptions, ListedKey, Listing, Method, Pace, BUSY_TRIES, MAX_PASSES,
    SETTLE,
};
pub use meta::{exp_token, Mode};
pub use meta_reply::{DeleteReply, Fetched, Got, SetReply};
pub use options::Options;
pub use stats::Identity;
