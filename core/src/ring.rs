//! The continuum: sorted points with their owners, built from a [`Profile`] and servers,
//! changed incrementally, searched without allocating.

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::alt::{jump, maglev, rendezvous};
use crate::error::Error;
use crate::hash::{md5, Hash};
use crate::index::SearchIndex;
use crate::profile::{
    Failover, KeyRewrite, Order, PointHash, Profile, Removal, Search, StringForm, Ties, ZeroWeight,
};
use crate::server::Server;
use crate::weight::Count;

/// pecl memcache's bucket spacing: `0xFFFFFFFF / 1024`.
const PECL_STEP: u32 = 0xFFFF_FFFF / 1024;
/// Longest key rewrite buffer (pecl memcache truncates to 250 bytes, gomemcache to 256).
const KEY_BUF: usize = 256;
/// The most points one continuum may hold (about 8.4 million: e.g. 1,000 xmemcached servers of
/// weight 52). More is refused with [`Error::TooManyPoints`] rather than exhausting memory.
pub const MAX_POINTS: u64 = 1 << 23;

/// A server on the ring with what the ring derived from it.
#[derive(Clone, Debug)]
struct Entry {
    server: Server,
    /// The node string the client hashes.
    node: String,
    /// How many point strings it currently has on the continuum.
    strings: u32,
    /// Its place in the client's server order (see [`Order`]).
    rank: u32,
    /// 64 bits of MD5 of the node string (rendezvous scores, maglev permutations).
    seed: u64,
}

/// One point before it is stored (`wide` is 0 except for 128-bit rings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Point {
    value: u32,
    wide: u128,
    owner: u32,
}

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
    /// Point positions, ascending (struct of arrays: the search reads only this).
    values: Vec<u32>,
    /// `owners[i]` = entry index owning `values[i]`; among equal positions the winner first.
    owners: Vec<u32>,
    /// Full 128-bit positions, parallel to `values` (uhashring only; empty otherwise).
    wide: Vec<u128>,
    /// xmemcached tie runs: (first position, winning owner), ascending.
    runs: Vec<(u32, u32)>,
    index: SearchIndex,
    /// pecl memcache's 1024 buckets or the maglev table (entry indexes).
    table: Vec<u32>,
    /// Weighted modulo: cumulative slot counts, in the client's server order.
    cumulative: Vec<u64>,
    /// Entry indexes in the client's server order.
    ordered: Vec<u32>,
}

impl Ring {
    /// An empty ring for `profile`, with `hash` as key hash (`None`: the profile's default).
    pub fn new(profile: &'static Profile, hash: Option<Hash>) -> Ring {
        Ring {
            profile,
            hash: hash.unwrap_or(profile.default_hash),
            entries: Vec::new(),
            values: Vec::new(),
            owners: Vec::new(),
            wide: Vec::new(),
            runs: Vec::new(),
            index: SearchIndex::default(),
            table: Vec::new(),
            cumulative: Vec::new(),
            ordered: Vec::new(),
        }
    }

    /// A ring built from `servers` in one pass (same result as adding them one by one).
    pub fn with_servers(
        profile: &'static Profile,
        hash: Option<Hash>,
        servers: impl IntoIterator<Item = Server>,
    ) -> Result<Ring, Error> {
        let mut ring = Ring::new(profile, hash);
        for s in servers {
            let entry = ring.check_new(s)?;
            ring.entries.push(entry);
        }
        rank(profile.order, &mut ring.entries);
        let targets = ring.targets(&ring.entries)?;
        let mut points = Vec::new();
        for (i, t) in targets.iter().enumerate() {
            ring.entries[i].strings = *t;
            ring.generate(i, 0..*t, &mut points)?;
        }
        points.sort_unstable_by(|a, b| ring.order(a, b));
        ring.store(points);
        ring.refresh();
        Ok(ring)
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
        self.entries.iter().map(|e| &e.server)
    }

    /// The server at `index` (as returned by [`Ring::locate_index`]).
    pub fn server(&self, index: usize) -> Option<&Server> {
        self.entries.get(index).map(|e| &e.server)
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
        self.values.len()
    }

    /// The continuum as (position, server index), ascending; among equal positions the
    /// winner comes first. 128-bit rings report the top 32 bits (see [`Ring::wide_points`]).
    pub fn points(&self) -> impl ExactSizeIterator<Item = (u32, usize)> + '_ {
        self.values
            .iter()
            .zip(&self.owners)
            .map(|(&v, &o)| (v, o as usize))
    }

    /// The full 128-bit positions of a `uhashring` ring, parallel to [`Ring::points`]
    /// (empty for every other profile).
    pub fn wide_points(&self) -> &[u128] {
        &self.wide
    }

    /// Adds a server at the end of the server order. Only this server's points are hashed,
    /// plus the few strings other servers gain or lose when relative weights shift.
    /// On error the ring is unchanged.
    pub fn add(&mut self, server: Server) -> Result<(), Error> {
        let entry = self.check_new(server)?;
        let mut entries = self.entries.clone();
        entries.push(entry);
        self.update(entries, None)
    }

    /// Removes the server with this label and returns it. On error the ring is unchanged.
    pub fn remove(&mut self, label: &str) -> Result<Server, Error> {
        let at = self.position(label).ok_or(Error::MissingServer)?;
        let mut entries = self.entries.clone();
        let gone = entries.remove(at);
        self.update(entries, Some(at))?;
        Ok(gone.server)
    }

    /// Changes a server's weight in place (its position in the server order is kept).
    pub fn set_weight(&mut self, label: &str, weight: u32) -> Result<(), Error> {
        let at = self.position(label).ok_or(Error::MissingServer)?;
        self.check_weight(weight)?;
        let mut entries = self.entries.clone();
        entries[at].server.weight = weight;
        self.update(entries, None)
    }

    /// The key hash as this ring computes it (after the client's key rewriting).
    pub fn key_hash(&self, key: &[u8]) -> Result<u32, Error> {
        let mut buf = [0u8; KEY_BUF];
        let key = self.prepare(key, &mut buf)?;
        Ok(self.hash.hash(key))
    }

    /// The continuum point a key lands on and its owner's index: what libketama's
    /// `ketama_get_server` reports as `mcs.point`. `Unsupported` for non-ring profiles.
    pub fn locate_point(&self, key: &[u8]) -> Result<(u32, usize), Error> {
        if self.entries.is_empty() {
            return Err(Error::EmptyRing);
        }
        if !self.profile.is_ring() || self.profile.search == Search::Buckets1024 {
            return Err(Error::Unsupported);
        }
        let mut buf = [0u8; KEY_BUF];
        let key = self.prepare(key, &mut buf)?;
        let p = self.ring_position(key)?;
        Ok((self.values[p], self.owner_at(p)))
    }

    /// The server a key goes to.
    #[inline]
    pub fn locate(&self, key: &[u8]) -> Result<&Server, Error> {
        let i = self.locate_index(key)?;
        self.entries
            .get(i)
            .map(|e| &e.server)
            .ok_or(Error::NoServer)
    }

    /// The index (in server order) of the server a key goes to. Allocates nothing.
    pub fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.entries.is_empty() {
            return Err(Error::EmptyRing);
        }
        let mut buf = [0u8; KEY_BUF];
        let key = self.prepare(key, &mut buf)?;
        if self.profile.single_shortcut && self.entries.len() == 1 {
            return Ok(0);
        }
        match self.profile.search {
            Search::Modula { weighted, high15 } => {
                let mut h = self.hash.hash(key);
                if high15 {
                    h = (h >> 16) & 0x7fff;
                    if h == 0 {
                        h = 1;
                    }
                }
                self.modula(h, weighted)
            }
            Search::Jump => {
                Ok(jump::jump(u64::from(self.hash.hash(key)), self.entries.len() as u32) as usize)
            }
            Search::Rendezvous => self.rendezvous_best(self.hash.hash(key), &[]),
            Search::Maglev => {
                let h = self.hash.hash(key);
                self.table
                    .get((h % maglev::SIZE) as usize)
                    .map(|&o| o as usize)
                    .ok_or(Error::NoServer)
            }
            Search::Buckets1024 => {
                let h = self.hash.hash(key);
                self.table
                    .get((h % 1024) as usize)
                    .map(|&o| o as usize)
                    .ok_or(Error::NoServer)
            }
            _ => self.ring_position(key).map(|p| self.owner_at(p)),
        }
    }

    /// Up to `n` distinct servers for a key, primary first, in the order the client's
    /// structure yields them (ring order for continua, following servers for modulo,
    /// descending score for rendezvous). Fewer when the ring has fewer servers.
    pub fn locate_n(&self, key: &[u8], n: usize) -> Result<Vec<&Server>, Error> {
        let mut out = Vec::new();
        self.locate_n_into(key, n, &mut out)?;
        Ok(out.into_iter().filter_map(|i| self.server(i)).collect())
    }

    /// [`Ring::locate_n`] writing server indexes into a caller's buffer (cleared first).
    pub fn locate_n_into(&self, key: &[u8], n: usize, out: &mut Vec<usize>) -> Result<(), Error> {
        out.clear();
        let first = self.locate_index(key)?;
        let want = n.min(self.entries.len());
        if want == 0 {
            return Ok(());
        }
        out.push(first);
        let push = |i: usize, out: &mut Vec<usize>| {
            if !out.contains(&i) {
                out.push(i);
            }
        };
        if self.profile.is_ring() && !self.values.is_empty() {
            let mut buf = [0u8; KEY_BUF];
            let key = self.prepare(key, &mut buf)?;
            let start = match self.profile.search {
                Search::Buckets1024 => {
                    let b = self.hash.hash(key) % 1024;
                    self.lower_bound(b.wrapping_mul(PECL_STEP)) % self.values.len()
                }
                _ => self.ring_position(key).unwrap_or(0),
            };
            let len = self.values.len();
            let backwards = self.profile.search == Search::Floor;
            for step in 0..len {
                if out.len() >= want {
                    break;
                }
                let p = if backwards {
                    (start + len - step % len) % len
                } else {
                    (start + step) % len
                };
                push(self.owners[p] as usize, out);
            }
        } else if self.profile.search == Search::Rendezvous {
            let mut buf = [0u8; KEY_BUF];
            let h = self.hash.hash(self.prepare(key, &mut buf)?);
            while out.len() < want {
                match self.rendezvous_best(h, out) {
                    Ok(i) => out.push(i),
                    Err(_) => break,
                }
            }
        } else {
            for step in 1..self.entries.len() {
                if out.len() >= want {
                    break;
                }
                push((first + step) % self.entries.len(), out);
            }
        }
        Ok(())
    }

    /// The client's own failover sequence for a key, primary first: for spymemcached and
    /// xmemcached their rehash walks (servers may repeat; spymemcached's `getSequence` yields
    /// 7, xmemcached stops after as many rehashes as servers), for every other client the next
    /// distinct servers as [`Ring::locate_n`].
    pub fn failover(&self, key: &[u8], n: usize) -> Result<Vec<usize>, Error> {
        let mut out = Vec::with_capacity(n);
        let (first_tag, bounded) = match self.profile.failover {
            Failover::Rehash {
                first_tag,
                bounded_by_servers,
            } if self.profile.is_ring() => (first_tag, bounded_by_servers),
            _ => {
                self.locate_n_into(key, n, &mut out)?;
                return Ok(out);
            }
        };
        let n = if bounded {
            n.min(self.entries.len() + 1)
        } else {
            n
        };
        let first = self.locate_index(key)?;
        if n == 0 {
            return Ok(out);
        }
        out.push(first);
        let mut buf = [0u8; KEY_BUF];
        let key = self.prepare(key, &mut buf)?;
        let mut hv = self.hash.hash(key);
        let mut tagged = alloc::vec::Vec::with_capacity(key.len() + 12);
        let mut t = u64::from(first_tag);
        while out.len() < n {
            tagged.clear();
            tagged.extend_from_slice(alloc::format!("{t}").as_bytes());
            tagged.extend_from_slice(key);
            hv = hv.wrapping_add(self.hash.hash(&tagged));
            let len = self.values.len();
            let p = self.lower_bound(hv);
            out.push(self.owner_at(if p == len { 0 } else { p }));
            t += 1;
        }
        Ok(out)
    }

    // ----- building -----

    fn check_weight(&self, weight: u32) -> Result<(), Error> {
        if weight == 0 && self.profile.zero_weight == ZeroWeight::Reject {
            return Err(Error::BadWeight);
        }
        Ok(())
    }

    fn check_new(&self, server: Server) -> Result<Entry, Error> {
        self.check_weight(server.weight)?;
        if self.position(&server.label).is_some() {
            return Err(Error::DuplicateServer);
        }
        let node = self.profile.node.node_string(&server, self.profile.names)?;
        let d = md5::digest(node.as_bytes());
        let seed = (u64::from(md5::word_le(&d, 0)) << 32) | u64::from(md5::word_le(&d, 1));
        Ok(Entry {
            server,
            node,
            strings: 0,
            rank: 0,
            seed,
        })
    }

    /// The weight as the profile counts it.
    fn effective_weight(&self, w: u32) -> u32 {
        if w == 0 && self.profile.zero_weight == ZeroWeight::AsOne {
            1
        } else {
            w
        }
    }

    /// How many strings each entry should have; refused when the points would exceed
    /// [`MAX_POINTS`].
    fn targets(&self, entries: &[Entry]) -> Result<Vec<u32>, Error> {
        if !self.profile.is_ring() {
            return Ok(entries.iter().map(|_| 0).collect());
        }
        let total: u64 = entries
            .iter()
            .map(|e| u64::from(self.effective_weight(e.server.weight)))
            .sum();
        let n = entries.len();
        let targets: Vec<u32> = entries
            .iter()
            .map(|e| {
                let w = self.effective_weight(e.server.weight);
                match self.profile.count {
                    Count::Relative(_) if w == 0 => 0,
                    c => c.strings(w, total, n),
                }
            })
            .collect();
        let per = match self.profile.points {
            PointHash::Md5Words { per } => u64::from(per),
            _ => 1,
        };
        let points: u64 = targets.iter().map(|&t| u64::from(t) * per).sum();
        if points > MAX_POINTS {
            return Err(Error::TooManyPoints);
        }
        Ok(targets)
    }

    /// Appends the points of strings `range` of entry `owner`.
    fn generate(
        &self,
        owner: usize,
        range: core::ops::Range<u32>,
        out: &mut Vec<Point>,
    ) -> Result<(), Error> {
        let entry = &self.entries.get(owner).ok_or(Error::MissingServer)?;
        self.generate_for(entry, owner, range, out)
    }

    fn generate_for(
        &self,
        entry: &Entry,
        owner: usize,
        range: core::ops::Range<u32>,
        out: &mut Vec<Point>,
    ) -> Result<(), Error> {
        use core::fmt::Write;
        let owner = u32::try_from(owner).map_err(|_| Error::TooManyPoints)?;
        let (strings, per) = match self.profile.points {
            PointHash::JavaKetama if self.hash == Hash::Md5 => {
                ((range.start / 4)..range.end.div_ceil(4), 4u8)
            }
            PointHash::Md5Words { per } => (range, per),
            _ => (range, 1),
        };
        let mut s = String::with_capacity(entry.node.len() + 12);
        for i in strings {
            s.clear();
            // Writing into a String cannot fail.
            let _ = match self.profile.strings {
                StringForm::Dash => write!(s, "{}-{}", entry.node, i),
                StringForm::Prefix => write!(s, "{}{}", i, entry.node),
                StringForm::Concat => write!(s, "{}{}", entry.node, i),
                StringForm::Bare => write!(s, "{}", entry.node),
            };
            let bytes = s.as_bytes();
            match self.profile.points {
                PointHash::Md5Wide => {
                    let wide = md5::wide(bytes);
                    out.push(Point {
                        value: (wide >> 96) as u32,
                        wide,
                        owner,
                    });
                }
                PointHash::KeyHash => out.push(Point {
                    value: self.hash.hash(bytes),
                    wide: 0,
                    owner,
                }),
                PointHash::JavaKetama if per == 1 => out.push(Point {
                    value: self.hash.hash(bytes),
                    wide: 0,
                    owner,
                }),
                _ => {
                    let d = md5::digest(bytes);
                    for g in 0..usize::from(per) {
                        out.push(Point {
                            value: md5::word_le(&d, g),
                            wide: 0,
                            owner,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Canonical order: position, then the tie rule (winner first).
    fn order(&self, a: &Point, b: &Point) -> Ordering {
        let rank = |p: &Point| {
            self.entries
                .get(p.owner as usize)
                .map_or(p.owner, |e| e.rank)
        };
        a.value
            .cmp(&b.value)
            .then(a.wide.cmp(&b.wide))
            .then(match self.profile.ties {
                Ties::LaterWins => rank(b).cmp(&rank(a)),
                Ties::EarlierWins | Ties::SortedList => rank(a).cmp(&rank(b)),
            })
    }

    /// Moves from the current entries to `entries` (the old ones minus `removed`, or plus one
    /// at the end), hashing only the strings that appear or disappear.
    fn update(&mut self, mut entries: Vec<Entry>, removed: Option<usize>) -> Result<(), Error> {
        rank(self.profile.order, &mut entries);
        let targets = self.targets(&entries)?;
        let mut add = Vec::new();
        let mut del = Vec::new();
        for (i, entry) in entries.iter_mut().enumerate() {
            let have = entry.strings;
            let want = targets[i];
            let old_index = match removed {
                Some(r) if i >= r => i + 1,
                _ => i,
            };
            if want > have {
                self.generate_for(entry, i, have..want, &mut add)?;
            } else if want < have {
                // Identified by their owner's *old* index, as stored now.
                self.generate_for(entry, old_index, want..have, &mut del)?;
            }
            entry.strings = want;
        }
        // flexihash unsets every position the removed server had, whoever owns it now.
        let mut cleared: Vec<(u32, u128)> = Vec::new();
        if let (Some(r), Removal::ClearsItsPositions) = (removed, self.profile.removal) {
            let wide = |i: usize| self.wide.get(i).copied().unwrap_or(0);
            cleared = (0..self.values.len())
                .filter(|&i| self.owners[i] as usize == r)
                .map(|i| (self.values[i], wide(i)))
                .collect();
            cleared.sort_unstable();
        }
        // Nothing below can fail: the ring changes only now.
        let old = self.take_points();
        del.sort_unstable_by(|a, b| self.order(a, b));
        let mut kept = Vec::with_capacity(old.len() + add.len());
        let mut d = 0;
        for p in old {
            while d < del.len() && self.order(&del[d], &p) == Ordering::Less {
                d += 1;
            }
            if d < del.len() && self.order(&del[d], &p) == Ordering::Equal {
                d += 1;
                continue;
            }
            if !cleared.is_empty() && cleared.binary_search(&(p.value, p.wide)).is_ok() {
                continue;
            }
            if let Some(r) = removed {
                match (p.owner as usize).cmp(&r) {
                    Ordering::Equal => continue,
                    Ordering::Greater => kept.push(Point {
                        owner: p.owner - 1,
                        ..p
                    }),
                    Ordering::Less => kept.push(p),
                }
            } else {
                kept.push(p);
            }
        }
        add.sort_unstable_by(|a, b| self.order(a, b));
        self.entries = entries;
        let merged = merge(kept, add, |a, b| self.order(a, b));
        self.store(merged);
        self.refresh();
        Ok(())
    }

    fn take_points(&mut self) -> Vec<Point> {
        let values = core::mem::take(&mut self.values);
        let owners = core::mem::take(&mut self.owners);
        let wide = core::mem::take(&mut self.wide);
        values
            .into_iter()
            .zip(owners)
            .enumerate()
            .map(|(i, (value, owner))| Point {
                value,
                owner,
                wide: wide.get(i).copied().unwrap_or(0),
            })
            .collect()
    }

    fn store(&mut self, points: Vec<Point>) {
        self.values = points.iter().map(|p| p.value).collect();
        self.owners = points.iter().map(|p| p.owner).collect();
        self.wide = if self.profile.points == PointHash::Md5Wide {
            points.iter().map(|p| p.wide).collect()
        } else {
            Vec::new()
        };
    }

    /// Rebuilds what derives from the points and entries: search index, tie runs, tables.
    fn refresh(&mut self) {
        self.index = SearchIndex::build(&self.values);
        self.runs.clear();
        if self.profile.ties == Ties::SortedList {
            self.collect_runs();
        }
        self.table.clear();
        self.cumulative.clear();
        self.ordered = (0..self.entries.len() as u32).collect();
        self.ordered.sort_by_key(|&i| self.entries[i as usize].rank);
        match self.profile.search {
            Search::Buckets1024 if !self.values.is_empty() => {
                let len = self.values.len();
                self.table = (0..1024u32)
                    .map(|b| self.owners[self.lower_bound(b.wrapping_mul(PECL_STEP)) % len])
                    .collect();
            }
            Search::Maglev => {
                let seeds: Vec<u64> = self.entries.iter().map(|e| e.seed).collect();
                self.table = maglev::table(&seeds);
            }
            Search::Modula { weighted: true, .. } => {
                let mut sum = 0u64;
                self.cumulative = self
                    .ordered
                    .iter()
                    .map(|&i| {
                        sum += u64::from(self.entries[i as usize].server.weight);
                        sum
                    })
                    .collect();
            }
            _ => {}
        }
    }

    /// xmemcached: for every run of equal positions, the owner is the colliding sessions
    /// sorted by node string (Java `compareTo`, UTF-16 order), indexed by `position % len`.
    fn collect_runs(&mut self) {
        let mut i = 0;
        let mut members: Vec<u32> = Vec::new();
        while i < self.values.len() {
            let mut j = i + 1;
            while j < self.values.len() && self.values[j] == self.values[i] {
                j += 1;
            }
            if j - i > 1 {
                members.clear();
                members.extend_from_slice(&self.owners[i..j]);
                members.sort_by(|&a, &b| {
                    let (na, nb) = (
                        &self.entries[a as usize].node,
                        &self.entries[b as usize].node,
                    );
                    na.encode_utf16().cmp(nb.encode_utf16())
                });
                let winner = members[(self.values[i] as usize) % members.len()];
                self.runs.push((i as u32, winner));
            }
            i = j;
        }
    }

    // ----- searching -----

    fn prepare<'k>(&self, key: &'k [u8], buf: &'k mut [u8; KEY_BUF]) -> Result<&'k [u8], Error> {
        let limits = self.profile.key_limits;
        let refused = (key.is_empty()
            && (limits.empty || self.profile.empty_key_rejected.contains(&self.hash)))
            || limits.max_len.is_some_and(|m| key.len() > m);
        if refused {
            return Err(Error::KeyRejected);
        }
        Ok(match self.profile.key {
            KeyRewrite::None => key,
            KeyRewrite::Truncate(n) => &key[..key.len().min(n)],
            KeyRewrite::PeclSanitize => {
                let n = key.len().min(250);
                for (dst, &b) in buf.iter_mut().zip(&key[..n]) {
                    *dst = if b <= 0x20 { b'_' } else { b };
                }
                &buf[..n]
            }
        })
    }

    /// First position with value >= h (may be `len`).
    #[inline]
    fn lower_bound(&self, h: u32) -> usize {
        let (lo, hi) = self.index.range(h);
        lo + self.values[lo..hi].partition_point(|&v| v < h)
    }

    /// First position with value > h (may be `len`).
    #[inline]
    fn upper_bound(&self, h: u32) -> usize {
        let (lo, hi) = self.index.range(h);
        lo + self.values[lo..hi].partition_point(|&v| v <= h)
    }

    /// First position whose 128-bit value is > w.
    fn upper_bound_wide(&self, w: u128) -> usize {
        let h = (w >> 96) as u32;
        let (lo, hi) = self.index.range(h);
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = a + (b - a) / 2;
            if self.wide[mid] <= w {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        a
    }

    /// The continuum position a key lands on.
    fn ring_position(&self, key: &[u8]) -> Result<usize, Error> {
        let len = self.values.len();
        if len == 0 {
            return Err(Error::NoServer);
        }
        let wrap = |p: usize| if p == len { 0 } else { p };
        Ok(match self.profile.search {
            Search::UpperBound if self.profile.points == PointHash::Md5Wide => {
                wrap(self.upper_bound_wide(md5::wide(key)))
            }
            Search::UpperBound => wrap(self.upper_bound(self.hash.hash(key))),
            Search::LowerBoundZeroLast => match self.hash.hash(key) {
                0 => self.first_of_run(len - 1),
                h => wrap(self.lower_bound(h)),
            },
            Search::Floor => {
                let h = self.hash.hash(key);
                match self.upper_bound(h) {
                    0 => {
                        // PHP reads $serverList[count - 1]: a server only if a point equals it.
                        let distinct = self.distinct_positions();
                        let probe = u32::try_from(distinct.saturating_sub(1))
                            .map_err(|_| Error::NoServer)?;
                        let p = self.lower_bound(probe);
                        if p < len && self.values[p] == probe {
                            p
                        } else {
                            return Err(Error::NoServer);
                        }
                    }
                    p => self.first_of_run(p - 1),
                }
            }
            _ => wrap(self.lower_bound(self.hash.hash(key))),
        })
    }

    fn first_of_run(&self, mut p: usize) -> usize {
        while p > 0 && self.values[p - 1] == self.values[p] {
            p -= 1;
        }
        p
    }

    fn distinct_positions(&self) -> usize {
        self.values.windows(2).filter(|w| w[0] != w[1]).count()
            + usize::from(!self.values.is_empty())
    }

    /// The owner at a position that starts a run of equal values.
    #[inline]
    fn owner_at(&self, p: usize) -> usize {
        if !self.runs.is_empty() && self.values.get(p + 1) == Some(&self.values[p]) {
            if let Ok(r) = self
                .runs
                .binary_search_by_key(&(p as u32), |&(first, _)| first)
            {
                return self.runs[r].1 as usize;
            }
        }
        self.owners[p] as usize
    }

    fn modula(&self, h: u32, weighted: bool) -> Result<usize, Error> {
        let at = if weighted {
            let total = self.cumulative.last().copied().unwrap_or(0);
            if total == 0 {
                return Err(Error::NoServer);
            }
            let slot = u64::from(h) % total;
            self.cumulative.partition_point(|&c| c <= slot)
        } else {
            (h as usize) % self.entries.len()
        };
        self.ordered
            .get(at)
            .map(|&i| i as usize)
            .ok_or(Error::NoServer)
    }

    fn rendezvous_best(&self, h: u32, skip: &[usize]) -> Result<usize, Error> {
        let mut best: Option<(f64, usize)> = None;
        for (i, e) in self.entries.iter().enumerate() {
            if skip.contains(&i) {
                continue;
            }
            let s = rendezvous::score(e.seed, e.server.weight, h);
            if s > f64::NEG_INFINITY && best.is_none_or(|(b, _)| s > b) {
                best = Some((s, i));
            }
        }
        best.map(|(_, i)| i).ok_or(Error::NoServer)
    }
}

/// Sets each entry's place in the client's server order.
fn rank(order: Order, entries: &mut [Entry]) {
    match order {
        Order::Given => {
            for (i, e) in entries.iter_mut().enumerate() {
                e.rank = i as u32;
            }
        }
        Order::NodeLengthThenBytes => {
            let mut idx: Vec<usize> = (0..entries.len()).collect();
            idx.sort_by(|&a, &b| {
                let (x, y) = (entries[a].node.as_bytes(), entries[b].node.as_bytes());
                x.len().cmp(&y.len()).then(x.cmp(y)).then(a.cmp(&b))
            });
            for (r, i) in idx.into_iter().enumerate() {
                entries[i].rank = r as u32;
            }
        }
    }
}

/// Merges two sorted vectors.
fn merge(a: Vec<Point>, b: Vec<Point>, cmp: impl Fn(&Point, &Point) -> Ordering) -> Vec<Point> {
    if b.is_empty() {
        return a;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if cmp(&b[j], &a[i]) == Ordering::Less {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}
