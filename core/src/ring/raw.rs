//! A continuum over raw node names: byte strings exactly as the caller spells them, for
//! clients that take any bytes as a server's name (libketama reads `ip:port` from a file and
//! never parses it; flexihash and uhashring take any string) and give every entry its own
//! points, repeated names included.
//!
//! The points are counted, spelled, hashed, sorted and searched by the same code as a
//! [`Ring`](super::Ring)'s (`points`, `order`, `radix`, `continuum`, `layout`); only the
//! servers differ: no label parsing, no duplicate check, and the node string is the name
//! itself. Servers are known by their index in the list the continuum was built from.

use alloc::vec::Vec;

use super::build::{sorted_columns, BuildError, Keys};
use super::continuum::{Columns, Continuum};
use super::entry::order_ranks;
use super::key::{prepare, KeyBuf, KeyPoint};
use super::layout::Layout;
use super::order::order;
use super::points::{counts, generate_jobs, point_total, Job, Point, MAX_POINTS};
use super::scratch::Scratch;
use crate::error::Error;
use crate::hash::md5::lanes::Lanes;
use crate::hash::Hash;
use crate::options::Options;
use crate::profile::{Bound, Placement, Profile, Ties, ZeroWeight};

/// What the number beside each name means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawCount {
    /// A weight: the profile's count rule turns it into point strings (relative to the
    /// list's total where the client counts that way), and a weight its client refuses is
    /// refused.
    Weight,
    /// The number of point strings itself (each yields the profile's points per string):
    /// for clients whose count the caller knows (flexihash's `round(replicas * weight)`,
    /// uhashring's `vnodes * weight`). 0 gives the server no point.
    Strings,
}

/// Sorted points over raw names, each owned by the index of its server in the list it was
/// built from.
///
/// ```
/// use ketama_core::ring::RawContinuum;
/// use ketama_core::Profile;
/// // The same name twice: each entry is its own server, with its own points.
/// let servers: [(&[u8], u32); 3] = [(b"10.0.0.1:11211", 100), (b"10.0.0.1:11211", 100), (b"\xff", 50)];
/// let c = RawContinuum::build(Profile::by_name("libketama").expect("a profile"), &servers)?;
/// assert_eq!(c.len(), 4 * (48 + 48 + 24));
/// let p = c.position(ketama_core::Hash::Md5.hash(b"user:1")).unwrap();
/// assert!(c.owners()[p] < 3);
/// assert_eq!(c.locate(b"user:1"), Ok(c.owners()[p] as usize));
/// # Ok::<(), ketama_core::BuildError>(())
/// ```
#[derive(Clone, Debug)]
pub struct RawContinuum {
    /// [`Layout::Sorted`] or [`Layout::Wide`] (the only shapes built here).
    layout: Layout,
    profile: &'static Profile,
    hash: Hash,
    servers: usize,
}

impl RawContinuum {
    /// The continuum of `servers`, `(name, weight)` in list order, by `profile`'s rules and
    /// key hash: [`RawContinuum::build_with`] with the profile's default hash and
    /// [`RawCount::Weight`].
    pub fn build(
        profile: &'static Profile,
        servers: &[(&[u8], u32)],
    ) -> Result<RawContinuum, BuildError> {
        RawContinuum::build_with(profile, None, RawCount::Weight, servers)
    }

    /// The continuum of `servers`, `(name, count)` in list order, by `profile`'s rules: its
    /// point count (`count` read as `kind` says), point strings of the name, point hash, tie
    /// rule (over the list order, or the profile's server order) and search; keys and points
    /// hashed with `hash` (`None`: the profile's default) where the profile hashes them with
    /// the key hash. Repeated names each get their own points.
    ///
    /// Refused, with nothing built: an empty list ([`Error::EmptyRing`]); a weight the
    /// profile's client refuses ([`Error::BadWeight`], blamed on that server); more than
    /// [`super::MAX_POINTS`] points ([`Error::TooManyPoints`]); a profile that is not a
    /// searched continuum with one owner per point (modulo, jump, rendezvous, maglev, pecl's bucket table, xmemcached's
    /// tie runs: [`Error::NotAContinuum`]).
    pub fn build_with(
        profile: &'static Profile,
        hash: Option<Hash>,
        kind: RawCount,
        servers: &[(&[u8], u32)],
    ) -> Result<RawContinuum, BuildError> {
        let whole = |error| BuildError {
            error,
            server: None,
        };
        let wide = Layout::is_wide(profile);
        let bound = match profile.placement {
            Placement::Ring(b) if profile.ties != Ties::SortedList => b,
            _ => return Err(whole(Error::NotAContinuum)),
        };
        let hash = hash.unwrap_or(profile.default_hash);
        if servers.is_empty() {
            return Err(whole(Error::EmptyRing));
        }
        let counts = match kind {
            RawCount::Weight => {
                if let Some(i) = servers
                    .iter()
                    .position(|s| s.1 == 0 && profile.zero_weight == ZeroWeight::Reject)
                {
                    return Err(BuildError {
                        error: Error::BadWeight,
                        server: Some(i),
                    });
                }
                counts(profile, servers.iter().map(|s| s.1)).map_err(whole)?
            }
            RawCount::Strings => servers.iter().map(|s| s.1).collect(),
        };
        let total = point_total(profile, &counts);
        let strings: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if strings > MAX_POINTS || total as u64 > MAX_POINTS {
            return Err(whole(Error::TooManyPoints));
        }
        let ranks = order_ranks(profile.order, servers.len(), |i| servers[i].0);
        let jobs: Vec<Job<'_>> = servers
            .iter()
            .zip(&counts)
            .enumerate()
            .map(|(i, (s, &n))| (s.0, i as u32, 0..n))
            .collect();
        let mut cols = Columns::with_capacity(total, wide, &mut Scratch::default());
        if wide {
            let mut points: Vec<Point> = Vec::with_capacity(total);
            generate_jobs(profile, hash, &jobs, Lanes::detect(), &mut points);
            points.sort_unstable_by(|a, b| order(profile.ties, &ranks, a, b));
            for p in &points {
                cols.push(p, true);
            }
        } else {
            let mut keys = Keys::new(total, profile.ties, &ranks);
            generate_jobs(profile, hash, &jobs, Lanes::detect(), &mut keys);
            sorted_columns(profile.ties, &ranks, keys.into_keys(), &mut cols);
        }
        let (continuum, wide_points) = Continuum::from_columns(cols);
        let layout = match Layout::wide_key(profile) {
            Some(key) => Layout::Wide(continuum, wide_points, key),
            None => Layout::Sorted(continuum, bound),
        };
        Ok(RawContinuum {
            layout,
            profile,
            hash,
            servers: servers.len(),
        })
    }

    /// The continuum's positions and owners (both shapes built here have them).
    fn columns(&self) -> (&[u32], &[u32]) {
        self.layout
            .continuum()
            .map_or((&[], &[]), |c| (&c.values, &c.owners))
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.columns().0.len()
    }

    /// Whether there are no points (every server got none).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of servers (entries of the list built from, points or not).
    pub fn server_count(&self) -> usize {
        self.servers
    }

    /// The key hash keys are hashed with.
    pub fn hash(&self) -> Hash {
        self.hash
    }

    /// The points' positions, ascending (on a 128-bit continuum, the top 32 bits of each).
    pub fn points(&self) -> &[u32] {
        self.columns().0
    }

    /// The 128-bit positions of a 128-bit continuum (uhashring), parallel to
    /// [`RawContinuum::points`]; empty otherwise.
    pub fn wide_points(&self) -> &[u128] {
        self.layout.wide()
    }

    /// The server (its index in the list built from) of each point, parallel to
    /// [`RawContinuum::points`]; among equal positions the tie rule's winner first.
    pub fn owners(&self) -> &[u32] {
        self.columns().1
    }

    /// The index (into [`RawContinuum::points`]) of the point a 32-bit key hash lands on by
    /// the profile's search rule (a 128-bit continuum compares the top 32 bits of its
    /// points); `None` when there are no points.
    #[inline]
    pub fn position(&self, hash: u32) -> Option<usize> {
        self.layout
            .position(KeyPoint::Narrow(hash))
            .ok()
            .map(|(_, p)| p)
    }

    /// The index (into [`RawContinuum::points`]) of the point `key` lands on, the key
    /// refused, rewritten and hashed as the profile's client does (a 128-bit continuum
    /// compares the key's whole MD5 digest). Errors: [`Error::KeyRejected`],
    /// [`Error::NoServer`] (no points).
    pub fn key_position(&self, key: &[u8]) -> Result<usize, Error> {
        let mut buf = KeyBuf::new();
        let prepared = prepare(self.profile, self.hash, &Options::new(), key, &mut buf)?;
        let point = if prepared.zero {
            KeyPoint::Narrow(0)
        } else {
            self.layout.key_point(self.hash, prepared.bytes)
        };
        Ok(self.layout.position(point)?.1)
    }

    /// The server (index in the list built from) `key` goes to: the owner of
    /// [`RawContinuum::key_position`].
    pub fn locate(&self, key: &[u8]) -> Result<usize, Error> {
        let p = self.key_position(key)?;
        Ok(self.owners()[p] as usize)
    }

    /// Writes into `out` (cleared first) up to `n` distinct servers for `key`: its server,
    /// then the next distinct owners walking the continuum the way the profile's search goes
    /// (backwards for the floor searches), each server once; fewer when fewer servers have
    /// points. Errors as [`RawContinuum::key_position`].
    pub fn locate_n_into(&self, key: &[u8], n: usize, out: &mut Vec<usize>) -> Result<(), Error> {
        out.clear();
        let start = self.key_position(key)?;
        let backwards = self.layout.bound().is_some_and(Bound::walks_backwards);
        if let Some(c) = self.layout.continuum() {
            c.walk(
                start,
                backwards,
                self.profile.ties,
                n.min(self.servers),
                out,
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{FLEXIHASH, LIBKETAMA, UHASHRING};
    use crate::{Ring, Server};

    fn ring_of(profile: &'static Profile, hash: Option<Hash>, servers: &[(&str, u32)]) -> Ring {
        let servers = servers.iter().map(|&(l, w)| Server::parse(l, w).unwrap());
        Ring::build(profile, hash, servers).unwrap()
    }

    #[test]
    fn labels_a_ring_accepts_place_keys_as_the_ring_does() {
        let list = [("10.0.0.1:11211", 3), ("10.0.0.2:11211", 1), ("cache3", 2)];
        let raw: Vec<(&[u8], u32)> = list.iter().map(|&(l, w)| (l.as_bytes(), w)).collect();
        for (profile, hash) in [
            (&LIBKETAMA, None),
            (&UHASHRING, None),
            (&FLEXIHASH, Some(Hash::Md5Be)),
        ] {
            let ring = ring_of(profile, hash, &list);
            let c = RawContinuum::build_with(profile, hash, RawCount::Weight, &raw).unwrap();
            assert_eq!(c.len(), ring.point_count(), "{}", profile.name);
            for k in 0..2000 {
                let key = alloc::format!("key:{k}");
                let want = ring.locate_index(key.as_bytes()).unwrap();
                assert_eq!(c.locate(key.as_bytes()), Ok(want), "{} {key}", profile.name);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                ring.locate_n_into(key.as_bytes(), 2, &mut a).unwrap();
                c.locate_n_into(key.as_bytes(), 2, &mut b).unwrap();
                assert_eq!(a, b, "{} {key}", profile.name);
            }
        }
    }

    #[test]
    fn string_counts_repeats_and_refusals() {
        // flexihash: 64 strings per unit of weight, so 64 x 3 strings = weight 3.
        let w: [(&[u8], u32); 2] = [(b"a b", 3), (b"c", 1)];
        let s: [(&[u8], u32); 2] = [(b"a b", 192), (b"c", 64)];
        let by_weight = RawContinuum::build_with(&FLEXIHASH, None, RawCount::Weight, &w).unwrap();
        let by_strings = RawContinuum::build_with(&FLEXIHASH, None, RawCount::Strings, &s).unwrap();
        assert_eq!(by_weight.points(), by_strings.points());
        assert_eq!(by_weight.owners(), by_strings.owners());
        // A server with no strings has no point; every server with none: no lookup.
        let none: [(&[u8], u32); 1] = [(b"x", 0)];
        let c = RawContinuum::build_with(&FLEXIHASH, None, RawCount::Strings, &none).unwrap();
        assert!(c.is_empty());
        assert_eq!(c.locate(b"k"), Err(Error::NoServer));
        let err = |r: Result<RawContinuum, BuildError>| r.unwrap_err();
        assert_eq!(
            err(RawContinuum::build(&LIBKETAMA, &[])).error,
            Error::EmptyRing
        );
        let zero: [(&[u8], u32); 2] = [(b"a", 1), (b"b", 0)];
        assert_eq!(
            err(RawContinuum::build(&LIBKETAMA, &zero)),
            BuildError {
                error: Error::BadWeight,
                server: Some(1)
            }
        );
        let huge: [(&[u8], u32); 2] = [(b"a", u32::MAX), (b"b", u32::MAX)];
        assert_eq!(
            err(RawContinuum::build_with(
                &FLEXIHASH,
                None,
                RawCount::Strings,
                &huge
            ))
            .error,
            Error::TooManyPoints
        );
        let modula = Profile::by_name("modula").unwrap();
        assert_eq!(
            err(RawContinuum::build(modula, &w)).error,
            Error::NotAContinuum
        );
    }

    #[test]
    fn a_wide_continuum_keeps_its_128_bit_points() {
        let s: [(&[u8], u32); 2] = [(b"node one", 1), (b"node one", 1)];
        let c = RawContinuum::build(&UHASHRING, &s).unwrap();
        assert_eq!(c.len(), 320);
        assert_eq!(c.wide_points().len(), 320);
        assert!(c.wide_points().windows(2).all(|w| w[0] <= w[1]));
        let top: Vec<u32> = c.wide_points().iter().map(|&w| (w >> 96) as u32).collect();
        assert_eq!(top, c.points());
        // Equal points: uhashring's later writer wins, so the second copy owns them.
        assert!(c.owners().chunks(2).all(|p| p == [1, 0]));
        assert_eq!(c.locate(b"k"), Ok(1));
    }
}
