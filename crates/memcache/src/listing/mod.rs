//! Listing every key a server holds: `lru_crawler metadump all`, or `stats cachedump` per
//! slab class where the crawler is missing; streamed to the caller, each distinct key once.
//!
//! The rules, one home each:
//! - **Passes** ([`passes`](self)): a crawl is not a snapshot (items the LRU maintainer moves
//!   between its queues while it runs can be missed), so a listing is repeated, at most
//!   [`MAX_PASSES`] times, until the distinct keys reach `curr_items` (read again after each
//!   pass) or a pass finds nothing new (expired items not yet reclaimed count in
//!   `curr_items` but are never listed). A pass begins at least [`SETTLE`] after the one
//!   before it began: items fetched while in memcached's COLD segment are skipped by the
//!   crawler until its LRU maintainer applies their bumps, up to a second later.
//! - **Memory**: the keys seen are kept by [`ketama_keyset::Distinct`], in memory up to a
//!   limit and in private scratch files past it, so a listing's memory does not grow with
//!   the number of keys ([`ListOptions::sizes`]: less for a caller listing many servers at
//!   once).
//! - **Length**: one pass may have at most [`line_limit`] lines of the item count read before
//!   it; an endless listing is refused ([`ErrorKind::Protocol`](crate::ErrorKind::Protocol)).
//! - **BUSY**: the crawler serves one request at a time; `BUSY` is retried up to
//!   [`BUSY_TRIES`] times, waiting 0.1 s more each time up to 0.5 s (about 13 s in all).
//! - **Bad lines**: a line memcached never sends (not a listing line, a bad `%` escape, a key
//!   memcached cannot hold, a field that is not a number, a line over
//!   [`MAX_LISTING_LINE`](crate::MAX_LISTING_LINE)) is skipped and reported in
//!   [`Listing::bad`] (its number and why); the rest of the listing is kept. A listing with
//!   bad lines is not [complete](Listing::is_complete).
//! - **Deadline**: [`ListOptions::pace`] says whether the whole listing or each reply line gets the
//!   timeout; the time the caller's own callback takes is never the server's.

mod item;
mod lines;
mod passes;
mod summary;

pub use item::ListedKey;
pub use passes::{BUSY_TRIES, MAX_PASSES, SETTLE};
pub use summary::{line_limit, BadLine, ListOptions, Listing, Method, Pace};
