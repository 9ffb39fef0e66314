//! The [`Ring`] type: a compiled snapshot of (profile, key hash, servers) and its layout, and
//! what it tells about itself. Lookups are in `search`, builds and changes in `build`.

use alloc::vec::Vec;

use super::entry::Entry;
use super::layout::Layout;
use crate::error::Error;
use crate::hash::Hash;
use crate::options::Options;
use crate::profile::Profile;
use crate::server::Server;

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
    pub(super) profile: &'static Profile,
    pub(super) hash: Hash,
    pub(super) options: Options,
    pub(super) entries: Vec<Entry>,
    pub(super) layout: Layout,
    /// Built by [`Ring::from_points`]: the points are the caller's, so changes are refused.
    pub(super) explicit: bool,
}

impl Ring {
    /// An empty ring for `profile`, with `hash` as key hash (`None`: the profile's default).
    pub fn new(profile: &'static Profile, hash: Option<Hash>) -> Ring {
        let hash = hash.unwrap_or(profile.default_hash);
        Ring {
            profile,
            hash,
            options: Options::new(),
            entries: Vec::new(),
            layout: Layout::empty(profile, hash),
            explicit: false,
        }
    }

    /// The profile this ring reproduces.
    pub fn profile(&self) -> &'static Profile {
        self.profile
    }

    /// The key hash in use.
    pub fn hash(&self) -> Hash {
        self.hash
    }

    /// The placement options in use ([`Options::new`] when none were set).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets the placement options (twemproxy's `hash_tag`, libmemcached's key prefix). They
    /// change only which bytes of a key are hashed, never the servers' points, so nothing is
    /// rebuilt. [`Error::BadOption`] (and the ring unchanged) when the profile's client does
    /// not have one of them.
    pub fn set_options(&mut self, options: Options) -> Result<(), Error> {
        options.check(self.profile.options)?;
        self.options = options;
        Ok(())
    }

    /// This ring with `options` ([`Ring::set_options`]).
    pub fn with_options(mut self, options: Options) -> Result<Ring, Error> {
        self.set_options(options)?;
        Ok(self)
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
    /// [`Ring::spans`] for who owns what). Rings of wider points report their top 32 bits (see
    /// [`Ring::wide_points`]).
    pub fn points(&self) -> impl ExactSizeIterator<Item = (u32, usize)> + '_ {
        let (values, owners): (&[u32], &[u32]) = match self.layout.continuum() {
            Some(c) => (&c.values, &c.owners),
            None => (&[], &[]),
        };
        values.iter().zip(owners).map(|(&v, &o)| (v, o as usize))
    }

    /// The full positions of a ring whose points are wider than 32 bits, parallel to
    /// [`Ring::points`]: `uhashring`'s 128-bit digests; the Jedis profiles' 64-bit hashes in
    /// the top half, their sign bit flipped (so that this unsigned order is Jedis's signed
    /// order). Empty for every other profile.
    pub fn wide_points(&self) -> &[u128] {
        self.layout.wide()
    }

    /// Whether this ring was built by [`Ring::from_points`] (and so refuses changes).
    pub fn is_explicit(&self) -> bool {
        self.explicit
    }
}
