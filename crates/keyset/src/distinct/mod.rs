//! The distinct keys of a listing that may show a key more than once (a crawl repeated until
//! it has seen every item, a Redis `SCAN`), in memory that does not grow with the number of
//! keys.
//!
//! A key is known by a 64-bit fingerprint (a keyed hash, random per listing). Up to a limit
//! ([`Sizes::memory_keys`]) the fingerprints are kept in memory and each new key is
//! handed on at once. Past the limit the set moves to a private scratch folder, in [`FAN`]
//! parts by the first [`FAN_BITS`] bits of the fingerprint, each a file of the fingerprints
//! known; a fixed-size Bloom filter of every fingerprint stays in memory. A key the filter
//! has certainly not seen is new: it is handed on at once and its fingerprint appended to
//! its part. A key the filter may have seen (a key listed twice, or, as the filter fills, a
//! new one) waits in its part's file of records for the pass, and when the pass ends each
//! part's waiting records are compared with its known fingerprints (`settle`): the records'
//! fingerprints in memory, the known ones streamed past them; a part with more records than
//! the limit is first split by the next bits into [`FAN`] parts, and so on. So memory stays
//! within the limit and the filter whatever the number of keys, and a key is never dropped
//! unless its fingerprint was truly seen.
//!
//! Two keys sharing a fingerprint count as one: one of them is not handed on. Among `n`
//! keys that happens with a chance of about n² / 2^65 (one in 370,000 for 10 million keys).

mod files;
mod set;
mod settle;
mod sizes;

pub use set::Distinct;
pub use sizes::{Sizes, FAN, FAN_BITS, FILTER_BITS, MEMORY_KEYS};
