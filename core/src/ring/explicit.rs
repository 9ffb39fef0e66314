//! A ring from explicit points: the caller gives every (position, server) pair, for clients
//! whose point strings we do not generate (a custom hasher, a client not shipped yet); the
//! profile gives only the rules: the search, the tie rule among equal positions, the key
//! rewriting and the server order.
//!
//! The points go into the same sorted columns a generated ring has, so lookups, walks,
//! [`Ring::points`] and [`Ring::spans`] behave exactly as on any ring of that profile. Such a
//! ring cannot follow a change (it does not know which points a new server would get):
//! [`Ring::add`], [`Ring::remove`] and [`Ring::set_weight`] return [`Error::FixedPoints`]
//! and leave it as it is; build a new one instead.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::build::BuildError;
use super::compiled::Ring;
use super::continuum::Columns;
use super::entry::{rank, Entry};
use super::key::KeyPoint;
use super::layout::Layout;
use super::order::sort_key;
use super::points::{Point, MAX_POINTS};
use super::scratch::Scratch;
use crate::error::Error;
use crate::hash::Hash;
use crate::profile::{Bound, Profile};
use crate::server::Server;

/// A refusal that no single server is to blame for.
fn whole(error: Error) -> BuildError {
    BuildError {
        error,
        server: None,
    }
}

impl Ring {
    /// A ring whose continuum is exactly `points`: `(position, owner)` pairs, where `owner`
    /// is an index into `servers` (in the order given). `profile` supplies the rules (search,
    /// ties, key rewriting, server order) and `hash` the key hash (`None`: the profile's);
    /// positions are 32-bit values as the client compares them (for a signed search such as
    /// folsom's, the signed value's bit pattern). Equal positions are ordered by the
    /// profile's tie rule; repeated pairs are kept. Server weights are stored but place
    /// nothing.
    ///
    /// Refused, with a typed error and nothing built: no servers or no points
    /// ([`Error::EmptyRing`]); an owner index past the servers ([`Error::MissingServer`]); more
    /// than [`MAX_POINTS`] points ([`Error::TooManyPoints`]); a profile that is not a 32-bit
    /// continuum (modulo, jump, rendezvous, maglev, uhashring's 128-bit ring:
    /// [`Error::NotAContinuum`]); a duplicate label or a server the profile cannot name
    /// (blamed by its index in `servers`).
    ///
    /// ```
    /// use ketama_core::{Profile, Ring, Server};
    /// let servers = ["a:1", "b:1"].map(|l| Server::parse(l, 1).unwrap());
    /// let points = [(1_000_000_000, 0), (3_000_000_000, 1)];
    /// let ring = Ring::from_points(Profile::by_name("libketama")?, None, servers, &points)?;
    /// assert_eq!(ring.locate_hash(5)?, 0); // first point >= 5
    /// assert_eq!(ring.locate_hash(2_000_000_000)?, 1);
    /// assert_eq!(ring.locate_hash(4_000_000_000)?, 0); // wraps
    /// # Ok::<(), ketama_core::Error>(())
    /// ```
    pub fn from_points(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
        points: &[(u32, usize)],
    ) -> Result<Ring, BuildError> {
        if !profile.is_ring() || Layout::is_wide(profile) {
            return Err(whole(Error::NotAContinuum));
        }
        let mut ring = Ring::new(profile, hash);
        ring.explicit = true;
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for (i, s) in servers.into_iter().enumerate() {
            let blame = |error| BuildError {
                error,
                server: Some(i),
            };
            if !seen.insert(s.label.clone()) {
                return Err(blame(Error::DuplicateServer));
            }
            let place = ring.entries.len();
            ring.entries
                .push(Entry::new(profile, s, place).map_err(blame)?);
        }
        if ring.entries.is_empty() || points.is_empty() {
            return Err(whole(Error::EmptyRing));
        }
        if points.len() as u64 > MAX_POINTS {
            return Err(whole(Error::TooManyPoints));
        }
        rank(profile.order, &mut ring.entries);
        let ranks: Vec<u32> = ring.entries.iter().map(|e| e.rank).collect();
        let flip = profile.placement.bound().map_or(0, Bound::flip);
        let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(points.len());
        for &(value, owner) in points {
            let owner = u32::try_from(owner)
                .ok()
                .filter(|&o| (o as usize) < ring.entries.len())
                .ok_or(whole(Error::MissingServer))?;
            let p = Point {
                value: value ^ flip,
                wide: 0,
                owner,
            };
            keyed.push((sort_key(profile.ties, &ranks, &p), owner));
        }
        keyed.sort_unstable();
        let mut cols = Columns::with_capacity(keyed.len(), false, &mut Scratch::default());
        for (k, owner) in keyed {
            cols.values.push((k >> 32) as u32);
            cols.owners.push(owner);
        }
        ring.layout = Layout::derive(profile, ring.hash, &ring.entries, cols);
        Ok(ring)
    }

    /// The next snapshot: this ring plus `servers` at the end of the server order, built in
    /// one pass (the same ring as adding them one by one with [`Ring::with_added`]). All or
    /// nothing. A refused server is blamed by its index in `servers`; a ring from
    /// [`Ring::from_points`] refuses with [`Error::FixedPoints`] (no server to blame), as it
    /// refuses every change.
    ///
    /// ```
    /// use ketama_core::{Error, Profile, Ring, Server};
    /// let p = Profile::by_name("libketama")?;
    /// let ring = Ring::with_servers(p, None, [Server::parse("a:1", 1)?])?;
    /// let added = [Server::parse("b:1", 1)?, Server::parse("a:1", 1)?];
    /// let bad = ring.with_added_many(added).unwrap_err();
    /// assert_eq!((bad.error, bad.server), (Error::DuplicateServer, Some(1)));
    /// assert_eq!(ring.with_added_many([Server::parse("b:1", 1)?]).unwrap().len(), 2);
    /// # Ok::<(), ketama_core::Error>(())
    /// ```
    pub fn with_added_many(
        &self,
        servers: impl IntoIterator<Item = Server>,
    ) -> Result<Ring, BuildError> {
        self.with_added_many_in(servers, &mut Scratch::default())
    }

    /// [`Ring::with_added_many`], writing the points into `scratch`'s memory where it has
    /// some.
    pub fn with_added_many_in(
        &self,
        servers: impl IntoIterator<Item = Server>,
        scratch: &mut Scratch,
    ) -> Result<Ring, BuildError> {
        if self.explicit {
            return Err(whole(Error::FixedPoints));
        }
        let base = self.len();
        let all = self.servers().cloned().chain(servers);
        let mut next =
            Ring::build_in(self.profile, Some(self.hash), all, scratch).map_err(|e| {
                BuildError {
                    error: e.error,
                    server: e.server.and_then(|i| i.checked_sub(base)),
                }
            })?;
        // the options belong to the ring, not to its points: they carry over
        next.options = self.options;
        Ok(next)
    }

    /// The server index for a key hash computed by the caller (a hasher of its own), by this
    /// ring's search and tie rules; `h` is compared as the ring's points are (for a signed
    /// search, as the signed value's bit pattern). [`Error::NeedsKey`] where a hash alone
    /// cannot place a key (uhashring's 128-bit ring; mcrouter's CH3, which reads the key
    /// itself).
    pub fn locate_hash(&self, h: u32) -> Result<usize, Error> {
        if self.entries.is_empty() {
            return Err(Error::EmptyRing);
        }
        if self.profile.single_shortcut && self.entries.len() == 1 {
            return Ok(0);
        }
        match self.layout {
            Layout::Wide(..) => Err(Error::NeedsKey),
            _ => self.locate_point_of(KeyPoint::Narrow(h)),
        }
    }

    /// Up to `n` distinct servers for a caller's key hash, primary first, walking the
    /// continuum as [`Ring::locate_n_into`] does (for rings without a continuum, the
    /// primary only). `out` is cleared first.
    pub fn locate_n_hash(&self, h: u32, n: usize, out: &mut Vec<usize>) -> Result<(), Error> {
        out.clear();
        let first = self.locate_hash(h)?;
        let want = n.min(self.entries.len());
        if want == 0 {
            return Ok(());
        }
        out.push(first);
        match &self.layout {
            Layout::Sorted(..) | Layout::TieRuns(..) => {
                let (c, start) = self.ring_position(KeyPoint::Narrow(h))?;
                self.walk_continuum(c, start, want, out);
            }
            Layout::Buckets(t) => self.walk_continuum(&t.continuum, t.start(h), want, out),
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn servers(n: usize) -> Vec<Server> {
        (0..n)
            .map(|i| Server::parse(&alloc::format!("10.0.0.{}:11211", i + 1), 1).unwrap())
            .collect()
    }

    fn profile(name: &str) -> &'static Profile {
        Profile::by_name(name).unwrap()
    }

    #[test]
    fn generated_points_given_back_make_the_same_ring() {
        for name in [
            "libketama",
            "libmemcached",
            "flexihash",
            "spymemcached",
            "dalli",
        ] {
            let p = profile(name);
            let Ok(built) = Ring::with_servers(p, None, servers(4)) else {
                continue;
            };
            let pts: Vec<(u32, usize)> = built.points().collect();
            let flip = p.placement.bound().map_or(0, Bound::flip);
            let given: Vec<(u32, usize)> = pts.iter().map(|&(v, o)| (v ^ flip, o)).collect();
            let ring = Ring::from_points(p, None, servers(4), &given).unwrap();
            assert_eq!(ring.points().collect::<Vec<_>>(), pts, "{name}");
            assert_eq!(ring.spans(), built.spans(), "{name}");
            for i in 0..500u32 {
                let key = alloc::format!("key:{i}");
                assert_eq!(
                    ring.locate_index(key.as_bytes()),
                    built.locate_index(key.as_bytes()),
                    "{name} {key}"
                );
                assert_eq!(
                    ring.locate_n(key.as_bytes(), 3),
                    built.locate_n(key.as_bytes(), 3),
                    "{name} {key}"
                );
                let h = built.key_hash(key.as_bytes()).unwrap();
                assert_eq!(ring.locate_hash(h), built.locate_index(key.as_bytes()));
            }
        }
    }

    #[test]
    fn search_and_ties_follow_the_profile() {
        let pts = [(100, 0), (200, 1), (200, 0), (300, 2)];
        // libketama: first point >= h, earlier server wins a tie.
        let lk = Ring::from_points(profile("libketama"), None, servers(3), &pts).unwrap();
        assert_eq!(lk.locate_hash(150), Ok(0));
        assert_eq!(lk.locate_hash(200), Ok(0));
        assert_eq!(lk.locate_hash(250), Ok(2));
        assert_eq!(lk.locate_hash(301), Ok(0));
        // flexihash: first point > h, later server wins a tie.
        let fh = Ring::from_points(profile("flexihash"), None, servers(3), &pts).unwrap();
        assert_eq!(fh.locate_hash(150), Ok(1));
        assert_eq!(fh.locate_hash(200), Ok(2));
        assert_eq!(fh.locate_hash(300), Ok(0));
        let mut out = Vec::new();
        fh.locate_n_hash(150, 3, &mut out).unwrap();
        // 200 (server 1 wins the tie: flexihash's map holds only its point there), 300 (2),
        // then 100 (0): a walk never reports a tie's loser.
        assert_eq!(out, vec![1, 2, 0]);
        // dalli: largest point <= h, wrapping below the first.
        let da = Ring::from_points(profile("dalli"), None, servers(3), &pts).unwrap();
        assert_eq!(da.locate_hash(250), da.locate_hash(200));
        assert_eq!(da.locate_hash(50), Ok(2));
    }

    #[test]
    fn bad_input_is_refused_with_a_typed_error() {
        let p = profile("libketama");
        let err = |r: Result<Ring, BuildError>| r.unwrap_err();
        assert_eq!(
            err(Ring::from_points(p, None, servers(2), &[])).error,
            Error::EmptyRing
        );
        assert_eq!(
            err(Ring::from_points(p, None, Vec::new(), &[(1, 0)])).error,
            Error::EmptyRing
        );
        assert_eq!(
            err(Ring::from_points(p, None, servers(2), &[(1, 0), (2, 2)])).error,
            Error::MissingServer
        );
        assert_eq!(
            err(Ring::from_points(p, None, servers(2), &[(1, usize::MAX)])).error,
            Error::MissingServer
        );
        let mut dup = servers(2);
        dup.push(dup[0].clone());
        assert_eq!(
            err(Ring::from_points(p, None, dup, &[(1, 0)])),
            BuildError {
                error: Error::DuplicateServer,
                server: Some(2)
            }
        );
        let too_many = vec![(7u32, 0usize); MAX_POINTS as usize + 1];
        assert_eq!(
            err(Ring::from_points(p, None, servers(1), &too_many)).error,
            Error::TooManyPoints
        );
        for name in ["uhashring", "libmemcached-modula", "jump", "rendezvous"] {
            if let Ok(q) = Profile::by_name(name) {
                assert_eq!(
                    err(Ring::from_points(q, None, servers(1), &[(1, 0)])).error,
                    Error::NotAContinuum,
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn changes_are_refused_and_leave_the_ring_as_it_was() {
        let p = profile("libketama");
        let mut ring = Ring::from_points(p, None, servers(2), &[(5, 0), (9, 1)]).unwrap();
        assert!(ring.is_explicit());
        let before: Vec<_> = ring.points().collect();
        let extra = Server::parse("10.9.9.9:1", 1).unwrap();
        assert_eq!(ring.add(extra), Err(Error::FixedPoints));
        assert_eq!(
            ring.remove("10.0.0.1:11211").err(),
            Some(Error::FixedPoints)
        );
        assert_eq!(
            ring.set_weight("10.0.0.1:11211", 3),
            Err(Error::FixedPoints)
        );
        let extra = Server::parse("10.9.9.9:1", 1).unwrap();
        assert_eq!(
            ring.with_added(extra.clone()).err(),
            Some(Error::FixedPoints)
        );
        let many = ring.with_added_many([extra]).unwrap_err();
        assert_eq!((many.error, many.server), (Error::FixedPoints, None));
        assert_eq!(
            ring.with_added_many([]).unwrap_err().error,
            Error::FixedPoints
        );
        assert_eq!(
            ring.with_removed("10.0.0.1:11211").err(),
            Some(Error::FixedPoints)
        );
        assert_eq!(
            ring.with_weight("10.0.0.1:11211", 3).err(),
            Some(Error::FixedPoints)
        );
        assert_eq!(ring.points().collect::<Vec<_>>(), before);
        assert!(!Ring::with_servers(p, None, servers(2))
            .unwrap()
            .is_explicit());
    }

    #[test]
    fn added_many_equals_added_one_by_one_and_blames_by_input_index() {
        let p = profile("libketama"); // refuses weight 0
        let all = servers(5);
        let base = Ring::with_servers(p, None, all[..2].iter().cloned()).unwrap();
        let many = base.with_added_many(all[2..].iter().cloned()).unwrap();
        let mut one = base.clone();
        for s in &all[2..] {
            one.add(s.clone()).unwrap();
        }
        assert_eq!(
            many.points().collect::<Vec<_>>(),
            one.points().collect::<Vec<_>>()
        );
        assert_eq!(
            many.servers().collect::<Vec<_>>(),
            one.servers().collect::<Vec<_>>()
        );
        // A duplicate of a server already there, and a bad weight: blamed by their index in
        // the added list; nothing changes.
        let dup = base
            .with_added_many([all[3].clone(), all[0].clone()])
            .unwrap_err();
        assert_eq!((dup.error, dup.server), (Error::DuplicateServer, Some(1)));
        let zero = Server::parse("10.9.9.9:1", 0).unwrap();
        let bad = base
            .with_added_many([all[3].clone(), all[4].clone(), zero])
            .unwrap_err();
        assert_eq!(bad.server, Some(2));
        assert_eq!(base.len(), 2);
    }
}
