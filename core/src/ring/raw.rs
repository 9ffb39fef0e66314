//! A continuum over raw addresses: byte strings exactly as a server list spells them, for
//! clients that take any bytes as a server's name (libketama reads `ip:port` from a file and
//! never parses it) and give every line its own points, repeated addresses included.
//!
//! The points are counted, spelled, hashed, sorted and searched by the same code as a
//! [`Ring`](super::Ring)'s (`points`, `order`, `radix`, `continuum`); only the servers differ:
//! no label parsing, no duplicate check, and the node string is the address itself.

use alloc::vec::Vec;

use super::build::{sorted_columns, BuildError, Keys};
use super::continuum::{Columns, Continuum};
use super::entry::order_ranks;
use super::layout::Layout;
use super::points::{counts, generate_jobs, point_total, Job};
use super::scratch::Scratch;
use crate::error::Error;
use crate::hash::md5::lanes::Lanes;
use crate::profile::{Bound, Placement, Profile, Ties, ZeroWeight};

/// Sorted points over raw addresses, each owned by the index of its server in the list it
/// was built from.
///
/// ```
/// use ketama_core::ring::RawContinuum;
/// use ketama_core::Profile;
/// // The same address twice: each line is its own server, with its own points.
/// let servers: [(&[u8], u32); 3] = [(b"10.0.0.1:11211", 100), (b"10.0.0.1:11211", 100), (b"\xff", 50)];
/// let c = RawContinuum::build(Profile::by_name("libketama").expect("a profile"), &servers)?;
/// assert_eq!(c.len(), 4 * (48 + 48 + 24));
/// let p = c.position(ketama_core::Hash::Md5.hash(b"user:1")).unwrap();
/// assert!(c.owners()[p] < 3);
/// # Ok::<(), ketama_core::BuildError>(())
/// ```
#[derive(Clone, Debug)]
pub struct RawContinuum {
    continuum: Continuum,
    bound: Bound,
}

impl RawContinuum {
    /// The continuum of `servers`, `(address, weight)` in list order, by `profile`'s rules:
    /// its point count (weights relative to the list's total, as the profile counts them),
    /// point strings of the address, point hash, tie rule (over the list order, or the
    /// profile's server order) and search. Repeated addresses each get their own points.
    ///
    /// Refused, with nothing built: an empty list ([`Error::EmptyRing`]); a weight the
    /// profile's client refuses ([`Error::BadWeight`], blamed on that server); more than
    /// [`super::MAX_POINTS`] points ([`Error::TooManyPoints`]); a profile that is not a
    /// searched 32-bit continuum with one owner per point (modulo, jump, rendezvous,
    /// maglev, pecl's bucket table, uhashring's 128-bit ring, xmemcached's tie runs:
    /// [`Error::NotAContinuum`]).
    pub fn build(profile: &Profile, servers: &[(&[u8], u32)]) -> Result<RawContinuum, BuildError> {
        let whole = |error| BuildError {
            error,
            server: None,
        };
        let bound = match profile.placement {
            Placement::Ring(b) if !Layout::is_wide(profile) && profile.ties != Ties::SortedList => {
                b
            }
            _ => return Err(whole(Error::NotAContinuum)),
        };
        if servers.is_empty() {
            return Err(whole(Error::EmptyRing));
        }
        if let Some(i) = servers
            .iter()
            .position(|s| s.1 == 0 && profile.zero_weight == ZeroWeight::Reject)
        {
            return Err(BuildError {
                error: Error::BadWeight,
                server: Some(i),
            });
        }
        let counts = counts(profile, servers.iter().map(|s| s.1)).map_err(whole)?;
        let ranks = order_ranks(profile.order, servers.len(), |i| servers[i].0);
        let total = point_total(profile, &counts);
        let jobs: Vec<Job<'_>> = servers
            .iter()
            .zip(&counts)
            .enumerate()
            .map(|(i, (s, &n))| (s.0, i as u32, 0..n))
            .collect();
        let mut keys = Keys::new(total, profile.ties, &ranks);
        generate_jobs(
            profile,
            profile.default_hash,
            &jobs,
            Lanes::detect(),
            &mut keys,
        );
        let mut cols = Columns::with_capacity(total, false, &mut Scratch::default());
        sorted_columns(profile.ties, &ranks, keys.into_keys(), &mut cols);
        let (continuum, _) = Continuum::from_columns(cols);
        Ok(RawContinuum { continuum, bound })
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.continuum.len()
    }

    /// Whether there are no points (every server got none).
    pub fn is_empty(&self) -> bool {
        self.continuum.len() == 0
    }

    /// The points' positions, ascending.
    pub fn points(&self) -> &[u32] {
        &self.continuum.values
    }

    /// The server (its index in the list built from) of each point, parallel to
    /// [`RawContinuum::points`]; among equal positions the tie rule's winner first.
    pub fn owners(&self) -> &[u32] {
        &self.continuum.owners
    }

    /// The index (into [`RawContinuum::points`]) of the point a key hash lands on by the
    /// profile's search rule; `None` when there are no points.
    #[inline]
    pub fn position(&self, hash: u32) -> Option<usize> {
        self.continuum.position(self.bound, hash).ok()
    }
}
