//! The distinct keys of a server's listing, in memory that does not grow with their number.
//!
//! A listing may show a key more than once (a memcached crawl repeated until it has seen
//! every item; a Redis `SCAN`, which may return a key twice). [`Distinct`] hands each key on
//! the first time it is offered, keeping 64-bit fingerprints in memory up to a limit and on
//! disk past it, in a private scratch folder ([`scratch`]) removed when the set is dropped.
//! What waits on disk is a [`Record`]: each listing's own type (key and metadata).
//!
//! Every file this crate makes is created afresh (never an existing file or a planted link)
//! and readable by this user only: listings hold a fleet's keys. Work on disk looks at the
//! caller's stop flag and ends with [`Error::Interrupted`] when it is raised.
#![deny(missing_docs)]

mod distinct;
mod error;
mod filter;
mod record;
pub mod scratch;
mod seen;

pub use distinct::{Distinct, Sizes, FAN, FAN_BITS, FILTER_BITS, MEMORY_KEYS};
pub use error::Error;
pub use record::{read_keyed, write_keyed, Record};
