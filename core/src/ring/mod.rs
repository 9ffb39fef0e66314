//! The ring: a compiled, immutable snapshot of (profile, servers), searched without allocating.
//!
//! A [`Ring`] is built once from a [`Profile`] and servers; a change ([`Ring::add`],
//! [`Ring::remove`], [`Ring::set_weight`]) builds the next snapshot aside, hashing only the
//! strings that appear, and merging them into the sorted arrays, then replaces the old one (a
//! failed change leaves the ring as it was). Stepwise changes equal a fresh build by
//! construction: both order points by the same total order ([`search`]'s tie rules over the new
//! server order).
//!
//! The module's files each own one idea:
//! - `entry`: a server with what the ring derived from it (node string, rank, seed);
//! - `points`: how many point strings each server gets and how they are hashed;
//! - `layout`: the data shape a profile's lookups read ([`Layout`]: sorted points, 128-bit
//!   points, tie runs, a bucket table, modulo slots, jump / rendezvous / maglev);
//! - `build`: fresh builds and the merge that applies a change;
//! - `explicit`: a ring from the caller's own (position, server) points, and searches by a
//!   key hash the caller computed;
//! - `search`: every search and tie rule, exactly once;
//! - `batch`: many keys at once, MD5 keys hashed in SIMD lanes;
//! - `spans`: each server's owned arcs of the hash space, derived from `search`;
//! - `scratch`: a retired snapshot's arrays, reused by the next change;
//! - `shared` (feature `std`): a handle whose readers never wait for a writer.

use alloc::vec::Vec;

use crate::error::Error;
use crate::hash::Hash;
use crate::profile::Profile;
use crate::server::Server;

mod batch;
mod build;
mod entry;
mod explicit;
mod key;
mod layout;
mod points;
mod radix;
mod scored;
mod scratch;
mod search;
#[cfg(feature = "std")]
mod shared;
mod spans;

pub use build::BuildError;
use entry::Entry;
use layout::Layout;
pub use points::MAX_POINTS;
#[cfg(feature = "std")]
pub use shared::{SharedRing, Snapshot};
pub use spans::{Span, Spans, Unit};

/// A consistent-hashing ring (or a modulo/jump/rendezvous/maglev table) for one profile.
///
/// ```
/// use ketama_core::{Profile, Ring, Server};
/// let mut ring = Ring::new(Profile::by_name("libmemcached-weighted")?, None);
/// ring.add(Server::parse("10.0.0.1:11211", 1)?)?;
/// ring.add(Server::parse("10.0.0.2:11211", 1)?)?;
/// let server = ring.locate(b"user:42")?;
/// assert!(server.label.starts_with("10.0.0."));
/// # Ok::<(), ketama_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Ring {
    profile: &'static Profile,
    hash: Hash,
    entries: Vec<Entry>,
    layout: Layout,
    /// Built by [`Ring::from_points`]: the points are the caller's, so changes are refused.
    explicit: bool,
}

impl Ring {
    /// An empty ring for `profile`, with `hash` as key hash (`None`: the profile's default).
    pub fn new(profile: &'static Profile, hash: Option<Hash>) -> Ring {
        let hash = hash.unwrap_or(profile.default_hash);
        Ring {
            profile,
            hash,
            entries: Vec::new(),
            layout: Layout::empty(profile),
            explicit: false,
        }
    }

    /// A ring built from `servers` in one pass (the same ring as adding them one by one).
    pub fn with_servers(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
    ) -> Result<Ring, Error> {
        Ring::build(profile, hash, servers).map_err(|e| e.error)
    }

    /// As [`Ring::with_servers`], but a failure says which server (by its place in
    /// `servers`) was refused, when one server is to blame.
    pub fn build(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
    ) -> Result<Ring, BuildError> {
        build::fresh(Ring::new(profile, hash), servers)
    }

    /// The profile this ring reproduces.
    pub fn profile(&self) -> &'static Profile {
        self.profile
    }

    /// The key hash in use.
    pub fn hash(&self) -> Hash {
        self.hash
    }

    /// The servers, in the order they were given.
    pub fn servers(&self) -> impl ExactSizeIterator<Item = &Server> + '_ {
        self.entries.iter().map(|e| &*e.server)
    }

    /// The server at `index` (as returned by [`Ring::locate_index`]).
    pub fn server(&self, index: usize) -> Option<&Server> {
        self.entries.get(index).map(|e| &*e.server)
    }

    /// The node string the client hashes for the server at `index`.
    pub fn node_string(&self, index: usize) -> Option<&str> {
        self.entries.get(index).map(|e| e.node.as_str())
    }

    /// Number of servers.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the ring has no servers.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Index of the server with this label.
    pub fn position(&self, label: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.server.label == label)
    }

    /// Number of points on the continuum (0 for non-ring profiles).
    pub fn point_count(&self) -> usize {
        self.layout.continuum().map_or(0, |c| c.values.len())
    }

    /// The continuum as (position, server index), ascending; among equal positions the
    /// winner comes first (for xmemcached's sorted-list ties, the first *listed*; see
    /// [`Ring::spans`] for who owns what). 128-bit rings report the top 32 bits (see
    /// [`Ring::wide_points`]).
    pub fn points(&self) -> impl ExactSizeIterator<Item = (u32, usize)> + '_ {
        let (values, owners): (&[u32], &[u32]) = match self.layout.continuum() {
            Some(c) => (&c.values, &c.owners),
            None => (&[], &[]),
        };
        values.iter().zip(owners).map(|(&v, &o)| (v, o as usize))
    }

    /// The full 128-bit positions of a `uhashring` ring, parallel to [`Ring::points`]
    /// (empty for every other profile).
    pub fn wide_points(&self) -> &[u128] {
        self.layout.wide()
    }

    /// The next snapshot: this ring plus `server` at the end of the server order (this ring
    /// is left as it is). See [`Ring::add`].
    pub fn with_added(&self, server: Server) -> Result<Ring, Error> {
        build::with_added(self, server)
    }

    /// The next snapshot: this ring without the server labelled `label`, and that server.
    /// See [`Ring::remove`].
    pub fn with_removed(&self, label: &str) -> Result<(Ring, Server), Error> {
        build::with_removed(self, label)
    }

    /// The next snapshot: this ring with one server's weight changed. See
    /// [`Ring::set_weight`].
    pub fn with_weight(&self, label: &str, weight: u32) -> Result<Ring, Error> {
        build::with_weight(self, label, weight)
    }

    /// Adds a server at the end of the server order (a ring from [`Ring::from_points`]
    /// refuses every change with [`Error::Unsupported`]). Only this server's points are hashed,
    /// plus the few strings other servers gain or lose when relative weights shift; they are
    /// merged into the sorted continuum. On error the ring is unchanged.
    pub fn add(&mut self, server: Server) -> Result<(), Error> {
        *self = build::with_added(self, server)?;
        Ok(())
    }

    /// Removes the server with this label and returns it. Its points are dropped without
    /// being hashed again. On error the ring is unchanged.
    pub fn remove(&mut self, label: &str) -> Result<Server, Error> {
        let (next, gone) = build::with_removed(self, label)?;
        *self = next;
        Ok(gone)
    }

    /// Changes a server's weight in place (its position in the server order is kept).
    /// On error the ring is unchanged.
    pub fn set_weight(&mut self, label: &str, weight: u32) -> Result<(), Error> {
        *self = build::with_weight(self, label, weight)?;
        Ok(())
    }
}
