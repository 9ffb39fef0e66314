//! A memcached text-protocol client that a misbehaving server cannot hang or flood: what
//! `audit`, `migrate` and `simulate --live` need (`set`, multi-key `get`, `delete`, `stats`,
//! `lru_crawler metadump all`, `stats cachedump`, `version`), over plain TCP or TLS, built on
//! a small pipelining core ([`Conn::write_request`], [`Conn::read_line`],
//! [`Conn::read_data`]) that other commands can use.
//!
//! The rules every call follows:
//! - **One deadline per connection.** [`Conn::connect`] sets it to now + [`Options::timeout`];
//!   it covers the connect, the TLS handshake and every read and write after it, however the
//!   server trickles its bytes (only the time the caller's own callback takes in
//!   [`Conn::list_keys`] is added back). [`Conn::set_deadline`] moves it (a long job can give
//!   each step its own budget).
//! - **Stop within [`POLL`].** No wait blocks longer than [`POLL`] without checking
//!   [`Options::stop`] (the flag Ctrl-C and SIGTERM raise, see [`crate::stop`]).
//! - **Bounded memory.** Every line is bounded ([`MAX_LINE`], [`MAX_LISTING_LINE`]), `stats`
//!   replies in lines and bytes, values by [`Options::max_value`], and a key listing is
//!   streamed to the caller, never collected (only an 8-byte fingerprint per key is kept,
//!   to drop the duplicates of repeated listing passes); a listing longer than the server's
//!   own item count allows is refused.
//! - **Only what memcached can send.** Keys are 1 to 250 bytes without spaces or control
//!   bytes ([`key_ok`]); `%` escapes in a metadump are two hex digits. A listing line that
//!   breaks these rules is reported ([`BadLine`]: its number and why) and skipped; the rest of
//!   the listing is kept.
//! - **Errors say what happened, where.** An [`Error`] names the server, the command and the
//!   cause ("timed out after 10 s waiting for the reply to `stats` from 127.0.0.1:11211"; "the
//!   TLS handshake with 10.0.0.1:11211 failed: certificate not trusted ...").
//! - **TLS is verified.** With [`Options::tls`] every connection checks the server's
//!   certificate and name ([`tls`]); skipping that takes an explicit setting.

mod args;
mod conn;
mod error;
mod listing;
mod options;
mod requests;
mod stats;
pub mod tls;
mod transport;

use std::time::Duration;

pub use args::TlsArgs;
pub use conn::Conn;
pub use error::{printable, Error, ErrorKind};
pub use listing::{line_limit, too_long, uri_decode, BadLine, KeyListing, Listed};
pub use options::Options;

/// The longest any single wait lasts before the stop flag and the deadline are checked again.
pub const POLL: Duration = Duration::from_millis(100);
/// The default of [`Options::timeout`] (and of `--timeout`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest reply line accepted outside listings: status, `VALUE` and `STAT` lines.
pub const MAX_LINE: usize = 4096;
/// The longest listing line accepted (`lru_crawler metadump` writes a key of at most 250
/// bytes, at most 750 once `%`-encoded, and a few numeric fields).
pub const MAX_LISTING_LINE: usize = 2048;
/// The most `STAT` lines one `stats` reply may have (memcached sends a few hundred, `stats
/// items` about 20 per slab class).
pub const MAX_STATS_LINES: usize = 100_000;
/// The most bytes one `stats` reply may have.
pub const MAX_STATS_BYTES: usize = 4 << 20;
/// The default of [`Options::max_value`]: memcached's default item size limit (`-I 1m`).
pub const DEFAULT_MAX_VALUE: usize = 1 << 20;

/// Whether a key can be sent in the text protocol (and so whether memcached can hold it):
/// 1 to 250 bytes, no space or control byte.
pub fn key_ok(key: &[u8]) -> bool {
    !key.is_empty() && key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f)
}

#[cfg(test)]
#[path = "../../tests/common/fake.rs"]
mod fake;

#[cfg(test)]
mod tests;
