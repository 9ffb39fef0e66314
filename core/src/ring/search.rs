//! Every search and tie rule, exactly once: how a key hash finds its position, who owns a
//! position several servers share, and the walks (`locate_n`, failover) that follow.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::entry::Entry;
use super::key::{prepare, KeyBuf};
use super::layout::{Continuum, Layout};
use super::points::Point;
use super::Ring;
use crate::alt::{jump, maglev, rendezvous};
use crate::error::Error;
use crate::hash::{furc, md5, whalin, xxh3_64};
use crate::index;
use crate::profile::{Failover, Search, Ties};
use crate::server::Server;

/// pecl memcache's bucket spacing: `0xFFFFFFFF / 1024`.
pub(super) const PECL_STEP: u32 = 0xFFFF_FFFF / 1024;
/// pecl memcache's bucket count.
pub(super) const PECL_BUCKETS: u32 = 1024;

// ----- tie rules -----

/// The canonical order of points: position (128-bit where the ring has it), then the tie
/// rule over the owners' ranks (`ranks[owner]`), winner first. A total order on distinct
/// (position, owner) pairs, so a merge of sorted parts equals a sort of the whole.
pub(super) fn order(ties: Ties, ranks: &[u32], a: &Point, b: &Point) -> Ordering {
    let rank = |p: &Point| ranks.get(p.owner as usize).copied().unwrap_or(u32::MAX);
    a.value
        .cmp(&b.value)
        .then(a.wide.cmp(&b.wide))
        .then(match ties {
            Ties::LaterWins => rank(b).cmp(&rank(a)),
            Ties::EarlierWins | Ties::SortedList => rank(a).cmp(&rank(b)),
        })
}

/// [`order`] as one integer, for layouts without 128-bit positions: the position in the high
/// half, the tie rule's rank (winner smallest) in the low half.
#[inline]
pub(super) fn sort_key(ties: Ties, ranks: &[u32], p: &Point) -> u64 {
    let rank = ranks.get(p.owner as usize).copied().unwrap_or(u32::MAX);
    let tie = match ties {
        Ties::LaterWins => u32::MAX - rank,
        Ties::EarlierWins | Ties::SortedList => rank,
    };
    (u64::from(p.value) << 32) | u64::from(tie)
}

/// The rank a [`sort_key`]'s low half encodes.
#[inline]
pub(super) fn rank_of_tie(ties: Ties, tie: u32) -> u32 {
    match ties {
        Ties::LaterWins => u32::MAX - tie,
        Ties::EarlierWins | Ties::SortedList => tie,
    }
}

/// xmemcached: for every run of equal positions, the owner is `list[position % len]` of the
/// colliding sessions sorted by node string (Java `compareTo`, UTF-16 order).
pub(super) fn tie_runs(c: &Continuum, entries: &[Entry]) -> Vec<(u32, u32)> {
    let mut runs = Vec::new();
    let mut members: Vec<u32> = Vec::new();
    let v = &c.values;
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && v[j] == v[i] {
            j += 1;
        }
        if j - i > 1 {
            members.clear();
            members.extend_from_slice(&c.owners[i..j]);
            members.sort_by(|&a, &b| {
                let node = |x: u32| entries.get(x as usize).map_or("", |e| e.node.as_str());
                node(a).encode_utf16().cmp(node(b).encode_utf16())
            });
            runs.push((i as u32, members[(v[i] as usize) % members.len()]));
        }
        i = j;
    }
    runs
}

/// pecl memcache's table: `bucket[b]` = owner of the first point >= `b * PECL_STEP`
/// (wrapping).
pub(super) fn pecl_table(c: &Continuum) -> Vec<u32> {
    if c.values.is_empty() {
        return Vec::new();
    }
    (0..PECL_BUCKETS)
        .map(|b| c.owners[lower_bound(c, b.wrapping_mul(PECL_STEP)) % c.values.len()])
        .collect()
}

// ----- searches on a continuum -----

/// First position with value >= h (may be `len`).
#[inline]
pub(super) fn lower_bound(c: &Continuum, h: u32) -> usize {
    c.index.search::<false>(&c.values, h)
}

/// First position with value > h (may be `len`).
#[inline]
fn upper_bound(c: &Continuum, h: u32) -> usize {
    c.index.search::<true>(&c.values, h)
}

/// The owner of the first point `>= h` (`UPPER`: `> h`), wrapping past the last point to the
/// first: [`lower_bound`] / [`upper_bound`] then `owners[p]` for a continuum whose tie winner
/// is stored first ([`Layout::Sorted`]). In the common case (a bucket of fewer than
/// [`index::WINDOW`] points) the owners of the window are read together with its values,
/// so the owner's load does not wait for the comparisons.
#[inline]
fn sorted_owner<const UPPER: bool>(c: &Continuum, h: u32) -> Result<usize, Error> {
    let (lo, hi) = c.index.range(h);
    if let (Some(w), Some(o)) = (
        index::window(&c.values, lo, hi),
        c.owners.get(lo..lo + index::WINDOW),
    ) {
        // Fewer than WINDOW values of the window are below h (the bucket is smaller).
        let n = index::below::<UPPER>(w, h) & (index::WINDOW - 1);
        return Ok(o[n] as usize);
    }
    let p = c.index.search::<UPPER>(&c.values, h);
    let p = if p == c.values.len() { 0 } else { p };
    c.owners.get(p).map(|&o| o as usize).ok_or(Error::NoServer)
}

/// First position whose 128-bit value is > w.
fn upper_bound_wide(c: &Continuum, wide: &[u128], w: u128) -> usize {
    let (lo, hi) = c.index.range((w >> 96) as u32);
    lo + wide[lo..hi].partition_point(|&x| x <= w)
}

fn first_of_run(c: &Continuum, mut p: usize) -> usize {
    while p > 0 && c.values[p - 1] == c.values[p] {
        p -= 1;
    }
    p
}

fn distinct_positions(c: &Continuum) -> usize {
    c.values.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(!c.values.is_empty())
}

/// A key's hash in the form the search compares: 32 bits, or 128 on uhashring's ring.
#[derive(Clone, Copy, Debug)]
pub(super) enum KeyPoint {
    Narrow(u32),
    /// A signed 64-bit key hash (the whalin Java client's `long`).
    Long(i64),
    Wide(u128),
}

impl Ring {
    /// The key hash as this ring computes it (after the client's key rewriting).
    pub fn key_hash(&self, key: &[u8]) -> Result<u32, Error> {
        let mut buf = KeyBuf::new();
        Ok(self
            .hash
            .hash(prepare(self.profile, self.hash, key, &mut buf)?))
    }

    /// What the search compares for a (prepared) key.
    fn key_point(&self, key: &[u8]) -> KeyPoint {
        match self.layout {
            Layout::Wide(..) => KeyPoint::Wide(md5::wide(key)),
            _ if matches!(
                self.profile.search,
                Search::JavaAbsModulo {
                    old_compat: true,
                    ..
                }
            ) =>
            {
                KeyPoint::Long(whalin::old_compat(key))
            }
            _ => KeyPoint::Narrow(self.hash.hash(key)),
        }
    }

    /// The continuum position a key point lands on, by the profile's search rule.
    pub(super) fn ring_position(&self, c: &Continuum, k: KeyPoint) -> Result<usize, Error> {
        let len = c.values.len();
        if len == 0 {
            return Err(Error::NoServer);
        }
        let wrap = |p: usize| if p == len { 0 } else { p };
        let h = match k {
            KeyPoint::Wide(w) => return Ok(wrap(upper_bound_wide(c, self.layout.wide(), w))),
            KeyPoint::Narrow(h) => h,
            KeyPoint::Long(h) => h as u32,
        };
        Ok(match self.profile.search {
            Search::LowerBoundSigned => wrap(lower_bound(c, h ^ 0x8000_0000)),
            Search::UpperBound => wrap(upper_bound(c, h)),
            Search::LowerBoundZeroLast => match h {
                0 => first_of_run(c, len - 1),
                h => wrap(lower_bound(c, h)),
            },
            Search::Floor => match upper_bound(c, h) {
                0 => {
                    // PHP reads $serverList[count - 1]: a server only if a point equals it.
                    let probe = u32::try_from(distinct_positions(c).saturating_sub(1))
                        .map_err(|_| Error::NoServer)?;
                    let p = lower_bound(c, probe);
                    if p < len && c.values[p] == probe {
                        p
                    } else {
                        return Err(Error::NoServer);
                    }
                }
                p => first_of_run(c, p - 1),
            },
            Search::FloorWrap => match upper_bound(c, h) {
                0 => first_of_run(c, len - 1),
                p => first_of_run(c, p - 1),
            },
            Search::LowerBound | Search::Buckets1024 => wrap(lower_bound(c, h)),
            Search::Modula { .. }
            | Search::JavaAbsModulo { .. }
            | Search::Jump
            | Search::Furc { .. }
            | Search::Rendezvous
            | Search::HashRendezvous { .. }
            | Search::JumpXxh3
            | Search::Maglev => return Err(Error::Unsupported),
        })
    }

    /// The owner of a position that may start a run of equal values.
    #[inline]
    pub(super) fn owner_at(&self, c: &Continuum, p: usize) -> usize {
        if let Layout::TieRuns(_, runs) = &self.layout {
            if c.values.get(p + 1) == Some(&c.values[p]) {
                if let Ok(r) = runs.binary_search_by_key(&(p as u32), |&(first, _)| first) {
                    return runs[r].1 as usize;
                }
            }
        }
        c.owners[p] as usize
    }

    /// The server index for a key hash (already rewritten and hashed): the whole search rule
    /// of every layout. For 128-bit rings `k` carries the full digest.
    pub(super) fn locate_point_of(&self, k: KeyPoint) -> Result<usize, Error> {
        let narrow = |k: KeyPoint| match k {
            KeyPoint::Narrow(h) => h,
            KeyPoint::Wide(w) => (w >> 96) as u32,
            KeyPoint::Long(h) => h as u32,
        };
        match &self.layout {
            // The common shapes without a tie table: owner and position found together.
            Layout::Sorted(c) => match (k, self.profile.search) {
                (KeyPoint::Narrow(h), Search::LowerBound) => sorted_owner::<false>(c, h),
                (KeyPoint::Narrow(h), Search::UpperBound) => sorted_owner::<true>(c, h),
                (KeyPoint::Narrow(h), Search::LowerBoundSigned) => {
                    sorted_owner::<false>(c, h ^ 0x8000_0000)
                }
                _ => {
                    let p = self.ring_position(c, k)?;
                    Ok(self.owner_at(c, p))
                }
            },
            Layout::Wide(c, _) | Layout::TieRuns(c, _) => {
                let p = self.ring_position(c, k)?;
                Ok(self.owner_at(c, p))
            }
            Layout::Buckets(_, table) => table
                .get((narrow(k) % PECL_BUCKETS) as usize)
                .map(|&o| o as usize)
                .ok_or(Error::NoServer),
            Layout::Slots {
                ordered,
                cumulative,
            } => {
                let (weighted, high15, java) = match self.profile.search {
                    Search::Modula { weighted, high15 } => (weighted, high15, false),
                    Search::JavaAbsModulo { weighted, .. } => (weighted, false, true),
                    _ => (false, false, false),
                };
                // The value reduced modulo the slots: the 32-bit hash, or for the Java
                // clients |h| of the hash as a signed long.
                let v: u64 = match k {
                    KeyPoint::Long(h) => h.unsigned_abs(),
                    _ if java => i64::from(narrow(k) as i32).unsigned_abs(),
                    _ => u64::from(narrow(k)),
                };
                let mut h = v;
                if high15 {
                    h = (h >> 16) & 0x7fff;
                    if h == 0 {
                        h = 1;
                    }
                }
                let at = if weighted {
                    let total = cumulative.last().copied().unwrap_or(0);
                    if total == 0 {
                        return Err(Error::NoServer);
                    }
                    let slot = h % total;
                    cumulative.partition_point(|&c| c <= slot)
                } else {
                    (h % ordered.len().max(1) as u64) as usize
                };
                ordered.get(at).map(|&i| i as usize).ok_or(Error::NoServer)
            }
            // Placed from the key itself in `locate_index`; a hash alone cannot place it.
            Layout::Furc(_) | Layout::Scored | Layout::JumpXxh3 => Err(Error::Unsupported),
            Layout::Jump => {
                Ok(jump::jump(u64::from(narrow(k)), self.entries.len() as u32) as usize)
            }
            Layout::Rendezvous => self.rendezvous_best(narrow(k), &[]),
            Layout::Maglev(table) => table
                .get((narrow(k) % maglev::SIZE) as usize)
                .map(|&o| o as usize)
                .ok_or(Error::NoServer),
        }
    }

    /// The continuum point a key lands on and its owner's index: what libketama's
    /// `ketama_get_server` reports as `mcs.point`. `Unsupported` for profiles that are not a
    /// searched continuum (modulo, jump, rendezvous, maglev, pecl's bucket table).
    pub fn locate_point(&self, key: &[u8]) -> Result<(u32, usize), Error> {
        if self.entries.is_empty() {
            return Err(Error::EmptyRing);
        }
        let c = match &self.layout {
            Layout::Sorted(c) | Layout::Wide(c, _) | Layout::TieRuns(c, _) => c,
            _ => return Err(Error::Unsupported),
        };
        let mut buf = KeyBuf::new();
        let key = prepare(self.profile, self.hash, key, &mut buf)?;
        let p = self.ring_position(c, self.key_point(key))?;
        Ok((c.values[p], self.owner_at(c, p)))
    }

    /// The server a key goes to.
    #[inline]
    pub fn locate(&self, key: &[u8]) -> Result<&Server, Error> {
        let i = self.locate_index(key)?;
        self.server(i).ok_or(Error::NoServer)
    }

    /// The index (in server order) of the server a key goes to. Allocates nothing.
    pub fn locate_index(&self, key: &[u8]) -> Result<usize, Error> {
        if self.entries.is_empty() {
            return Err(Error::EmptyRing);
        }
        let mut buf = KeyBuf::new();
        let key = prepare(self.profile, self.hash, key, &mut buf)?;
        if self.profile.single_shortcut && self.entries.len() == 1 {
            return Ok(0);
        }
        match &self.layout {
            Layout::Furc(weights) => furc_locate(key, self.entries.len(), weights),
            Layout::Scored => self.scored_best(key, &[]),
            Layout::JumpXxh3 => Ok(jump::jump(xxh3_64(key), self.entries.len() as u32) as usize),
            _ => self.locate_point_of(self.key_point(key)),
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
        let mut buf = KeyBuf::new();
        let key = prepare(self.profile, self.hash, key, &mut buf)?;
        match &self.layout {
            Layout::Sorted(c)
            | Layout::Wide(c, _)
            | Layout::TieRuns(c, _)
            | Layout::Buckets(c, _)
                if !c.values.is_empty() =>
            {
                let start = match self.layout {
                    Layout::Buckets(..) => {
                        let b = self.hash.hash(key) % PECL_BUCKETS;
                        lower_bound(c, b.wrapping_mul(PECL_STEP)) % c.values.len()
                    }
                    _ => self.ring_position(c, self.key_point(key)).unwrap_or(0),
                };
                self.walk_continuum(c, start, want, out);
            }
            Layout::Rendezvous => {
                let h = self.hash.hash(key);
                while out.len() < want {
                    match self.rendezvous_best(h, out) {
                        Ok(i) => out.push(i),
                        Err(_) => break,
                    }
                }
            }
            Layout::Scored => {
                while out.len() < want {
                    match self.scored_best(key, out) {
                        Ok(i) => out.push(i),
                        Err(_) => break,
                    }
                }
            }
            _ => {
                for step in 1..self.entries.len() {
                    if out.len() >= want {
                        break;
                    }
                    push((first + step) % self.entries.len(), out);
                }
            }
        }
        Ok(())
    }

    /// Appends the distinct owners met walking the continuum from position `start` (forwards,
    /// or backwards for the floor searches) until `out` holds `want` servers.
    pub(super) fn walk_continuum(
        &self,
        c: &Continuum,
        start: usize,
        want: usize,
        out: &mut Vec<usize>,
    ) {
        let len = c.values.len();
        let backwards = matches!(self.profile.search, Search::Floor | Search::FloorWrap);
        for step in 0..len {
            if out.len() >= want {
                break;
            }
            let p = if backwards {
                (start + len - step % len) % len
            } else {
                (start + step) % len
            };
            let owner = c.owners[p] as usize;
            if !out.contains(&owner) {
                out.push(owner);
            }
        }
    }

    /// The client's own failover sequence for a key, primary first, at most `n` entries:
    /// the servers the client tries, in order, while the earlier ones are down (see
    /// [`Failover`]). spymemcached and xmemcached rehash-walk the continuum (servers may
    /// repeat; spymemcached's `getSequence` yields 7, xmemcached stops after as many rehashes
    /// as servers), dalli and python-memcached rehash up to their retry limits, emcache stays
    /// on its pick, every other client takes the next distinct servers as [`Ring::locate_n`].
    pub fn failover(&self, key: &[u8], n: usize) -> Result<Vec<usize>, Error> {
        let mut out = Vec::with_capacity(n.min(64));
        match (self.profile.failover, self.layout.continuum()) {
            (
                Failover::Rehash {
                    first_tag,
                    bounded_by_servers,
                },
                Some(c),
            ) => self.rehash_walk(key, n, first_tag, bounded_by_servers, c, &mut out)?,
            (Failover::RehashKey { tries }, _) => {
                self.rehash_tries(key, n.min(tries as usize), true, &mut out)?
            }
            (Failover::RehashHash { tries }, _) => {
                self.rehash_tries(key, n.min(tries as usize), false, &mut out)?
            }
            (Failover::Stay, _) => {
                let first = self.locate_index(key)?;
                if n > 0 {
                    out.push(first);
                }
            }
            _ => self.locate_n_into(key, n, &mut out)?,
        }
        Ok(out)
    }

    /// How many servers the client tries for one key before it gives up.
    pub fn failover_limit(&self) -> usize {
        match self.profile.failover {
            Failover::Walk => self.entries.len(),
            Failover::Rehash {
                bounded_by_servers: true,
                ..
            } => self.entries.len() + 1,
            Failover::Rehash { .. } => SPY_SEQUENCE,
            Failover::RehashKey { tries } | Failover::RehashHash { tries } => tries as usize,
            Failover::Stay => 1,
        }
    }

    /// The server a key goes to while the servers at the indexes in `dead` are down: the
    /// first of the client's failover sequence ([`Ring::failover`], up to
    /// [`Ring::failover_limit`] tries) that is up. [`Error::NoServer`] when the client gives
    /// up (every server it would try is down).
    pub fn locate_alive(&self, key: &[u8], dead: &[usize]) -> Result<usize, Error> {
        if dead.is_empty() {
            return self.locate_index(key);
        }
        self.failover(key, self.failover_limit())?
            .into_iter()
            .find(|i| !dead.contains(i))
            .ok_or(Error::NoServer)
    }

    /// spymemcached / xmemcached: `hv = (hv + H(str(t) + key)) mod 2^32` walked on the
    /// continuum.
    fn rehash_walk(
        &self,
        key: &[u8],
        n: usize,
        first_tag: u32,
        bounded: bool,
        c: &Continuum,
        out: &mut Vec<usize>,
    ) -> Result<(), Error> {
        let n = if bounded {
            n.min(self.entries.len() + 1)
        } else {
            n
        };
        let first = self.locate_index(key)?;
        if n == 0 {
            return Ok(());
        }
        out.push(first);
        let mut buf = KeyBuf::new();
        let key = prepare(self.profile, self.hash, key, &mut buf)?;
        let mut hv = self.hash.hash(key);
        let mut tagged = Vec::with_capacity(key.len() + 20);
        let mut t = u64::from(first_tag);
        while out.len() < n {
            tagged.clear();
            push_decimal(&mut tagged, t);
            tagged.extend_from_slice(key);
            hv = hv.wrapping_add(self.hash.hash(&tagged));
            let p = lower_bound(c, hv);
            out.push(self.owner_at(c, if p == c.values.len() { 0 } else { p }));
            t += 1;
        }
        Ok(())
    }

    /// dalli (`of_key`: lookup t hashes `str(t - 1) + key`) and python-memcached (lookup
    /// t + 1 hashes `str(h(t)) + str(t)`): `n` lookups, each placed as a key hash is.
    fn rehash_tries(
        &self,
        key: &[u8],
        n: usize,
        of_key: bool,
        out: &mut Vec<usize>,
    ) -> Result<(), Error> {
        let first = self.locate_index(key)?;
        if n == 0 {
            return Ok(());
        }
        out.push(first);
        if self.profile.single_shortcut && self.entries.len() == 1 {
            return Ok(());
        }
        let mut buf = KeyBuf::new();
        let key = prepare(self.profile, self.hash, key, &mut buf)?;
        let mut h = self.hash.hash(key);
        let mut tagged = Vec::with_capacity(key.len() + 20);
        for t in 0..(n as u64).saturating_sub(1) {
            tagged.clear();
            if of_key {
                push_decimal(&mut tagged, t);
                tagged.extend_from_slice(key);
            } else {
                push_decimal(&mut tagged, u64::from(h));
                push_decimal(&mut tagged, t);
            }
            h = self.hash.hash(&tagged);
            out.push(self.locate_point_of(KeyPoint::Narrow(h))?);
        }
        Ok(())
    }

    /// The highest-scoring server not in `skip`.
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

/// mcrouter: CH3 (`furc_hash(key, n)`) when `weights` is empty, else WeightedCh3. mcrouter
/// throws for more than 2^23 servers: [`Error::Unsupported`].
fn furc_locate(key: &[u8], n: usize, weights: &[f64]) -> Result<usize, Error> {
    if n > furc::FURC_MAX_POOL as usize {
        return Err(Error::Unsupported);
    }
    if weights.is_empty() {
        return Ok(furc::furc_hash(key, n as u32) as usize);
    }
    furc::weighted_ch3(key, weights).ok_or(Error::NoServer)
}

/// spymemcached's `getSequence`: the primary and 6 rehashes.
const SPY_SEQUENCE: usize = 7;

/// Appends `t` in decimal (no allocation beyond `out`).
fn push_decimal(out: &mut Vec<u8>, mut t: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (t % 10) as u8;
        t /= 10;
        if t == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}
