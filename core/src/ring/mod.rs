//! The ring: a compiled, immutable snapshot of (profile, servers), searched without allocating.
//!
//! A [`Ring`] is built once from a [`crate::profile::Profile`] and servers; a change ([`Ring::add`],
//! [`Ring::remove`], [`Ring::set_weight`]) builds the next snapshot aside, hashing only the
//! strings that appear, and merging them into the sorted arrays, then replaces the old one (a
//! failed change leaves the ring as it was). Stepwise changes equal a fresh build by
//! construction: both order points by the same total order (`order`'s tie rules over the new
//! server order).
//!
//! The module's files each own one idea; each imports only the files listed before it:
//! - `scratch`: a retired snapshot's arrays, passed to the next change ([`Scratch`]);
//! - `tag`: each client's hash-tag rule (the part of a key it hashes);
//! - `key`: a client's key refusals and rewriting, and the key point the search compares;
//! - `entry`: a server with what the ring derived from it (node string, rank, node hash);
//! - `points`: how many point strings each server gets and how they are hashed;
//! - `order`: the canonical order of points (position, then the tie rule);
//! - `radix`: the sort of point keys;
//! - `continuum`: the sorted points and every comparison on them ([`crate::profile::Bound`]);
//! - `tie_runs`: xmemcached's owners of shared positions;
//! - `pecl`: pecl memcache's 1,024-bucket table over a continuum;
//! - `slots`: modulo placements (and phpredis's range partition);
//! - `scaled`: Cache::Memcached::Fast's compatible continuum of one scaled point per server;
//! - `layout`: the data shape a ring's lookups read, with its rule resolved at build;
//! - `compiled`: the [`Ring`] type and its accessors;
//! - `search`: lookups (`locate`, `locate_n`) over every layout;
//! - `mixed`: go-redis's rendezvous over mixed 64-bit hashes;
//! - `failover`: each client's failover sequence, shown to a visitor that may stop it;
//! - `build`: fresh builds;
//! - `change`: the next snapshot after a change, merged from the old one's points;
//! - `explicit`: a ring from the caller's own (position, server) points, and searches by a
//!   key hash the caller computed;
//! - `raw`: a continuum over raw byte-string addresses (any bytes, repeats allowed), for the
//!   libketama drop-in;
//! - `batch`: many keys at once, MD5 keys hashed in SIMD lanes;
//! - `spans`: each server's owned arcs of the hash space, derived from `search`;
//! - `bounded`: bounded loads on top of any ring;
//! - `shared` (feature `std`): a handle whose readers never wait for a writer.

mod scratch;

mod tag;

mod key;

mod entry;
mod points;

mod order;
mod radix;

mod continuum;

mod pecl;
mod scaled;
mod slots;
mod tie_runs;

mod layout;

mod compiled;

mod failover;
mod mixed;
mod scored;
mod search;

mod build;
mod change;

mod explicit;
mod raw;

mod batch;
mod spans;

pub mod bounded;
#[cfg(feature = "std")]
mod shared;

pub use bounded::BoundedLoads;
pub use build::BuildError;
pub use compiled::Ring;
pub use layout::Shape;
pub use points::MAX_POINTS;
pub use raw::{RawContinuum, RawCount};
pub use scratch::Scratch;
#[cfg(feature = "std")]
pub use shared::{carry, SharedRing, Snapshot};
pub use spans::{Span, Spans, Unit};
