//! # ketama-core
//!
//! Places memcached keys (and the keys of Redis clients that shard on the client side) on
//! servers exactly the way each popular client does, bit for bit: libketama, libmemcached /
//! php-memcached, pecl memcache, twemproxy, spymemcached, xmemcached, uhashring, hash_ring,
//! node-hashring, go-ketama, groupcache, flexihash, Predis, phpredis, redis-rb, Jedis,
//! go-redis, plain modulo and many more (the [`profile`] table), and beyond the ring jump,
//! rendezvous and maglev hashing.
//!
//! Each client is a row of data, a [`Profile`] (point strings, point counts and the client's
//! exact float arithmetic for weights, points per digest, key hash, search and tie rules);
//! a [`Ring`] is built from a profile and [`Server`]s; every key hash is a variant of [`Hash`].
//!
//! ```
//! use ketama_core::{Hash, Profile, Ring, Server};
//!
//! let servers = ["10.0.1.1:11211", "10.0.1.2:11211", "10.0.1.3:11211"]
//!     .map(|label| Server::parse(label, 1))
//!     .into_iter()
//!     .collect::<Result<Vec<_>, _>>()?;
//! let ring = Ring::with_servers(Profile::by_name("libketama")?, None, servers)?;
//! let server = ring.locate(b"user:1234")?;
//! println!("user:1234 -> {}", server.label);
//! assert_eq!(Hash::from_name("KETAMA_HASH")?.hash(b"apple"), 3195025439);
//! # Ok::<(), ketama_core::Error>(())
//! ```
//!
//! The profiles are listed with their clients in the [`profile`] module docs; the hash
//! functions and their names in [`hash`]. `docs/client-notes.md` explains every client's quirks.
//!
//! ## Crate features
//!
//! - `alloc`: the [`Ring`], [`Server`] and profiles that build points. Without it only the
//!   hash functions ([`Hash`]) are available, with no allocator at all.
//! - `std` (default): implies `alloc`; adds [`SharedRing`], a ring many threads read without
//!   locks while one changes it (through the `arc-swap` crate). The core never does I/O.
//!
//! ## Panics
//!
//! No input makes the core panic: bad names, labels, weights and keys come back as [`Error`].
#![no_std]
#![deny(missing_docs)]
// `unsafe` only in the measured hot paths (the SIMD lanes of `hash::md5::lanes`, the prefetch of
// `index`), each block with its SAFETY note.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod error;
pub mod hash;

#[cfg(feature = "alloc")]
pub mod alt;
#[cfg(feature = "alloc")]
mod decimal;
#[cfg(feature = "alloc")]
mod index;
#[cfg(feature = "alloc")]
pub mod options;
#[cfg(feature = "alloc")]
pub mod profile;
#[cfg(feature = "alloc")]
pub mod ring;
#[cfg(feature = "alloc")]
pub mod server;
#[cfg(feature = "alloc")]
pub mod servers_file;
#[cfg(feature = "alloc")]
pub mod weight;

/// The `arc-swap` crate [`SharedRing`] publishes snapshots with (its `Guard` type appears in
/// [`SharedRing::load`]).
#[cfg(feature = "std")]
pub use arc_swap;
pub use error::Error;
pub use hash::Hash;
#[cfg(feature = "alloc")]
pub use options::Options;
#[cfg(feature = "alloc")]
pub use profile::Profile;
#[cfg(feature = "alloc")]
pub use ring::{BuildError, Ring, Scratch, Span, Spans, Unit, MAX_POINTS};
#[cfg(feature = "std")]
pub use ring::{SharedRing, Snapshot};
#[cfg(feature = "alloc")]
pub use server::Server;

/// This crate's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
