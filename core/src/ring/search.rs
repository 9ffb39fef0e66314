//! Lookups over every layout: a key's server (`locate`) and the next distinct servers
//! (`locate_n`). Each layout carries the rule it is searched by; the comparisons themselves
//! are in `continuum`.

use alloc::vec::Vec;

use super::compiled::Ring;
use super::continuum::Continuum;
use super::key::{prepare, KeyBuf, KeyPoint, Prepared};
use super::layout::Layout;
use crate::alt::{jump, maglev, rendezvous};
use crate::error::Error;
use crate::hash::{furc, xxh3_64};
use crate::profile::Bound;
use crate::server::Server;

impl Ring {
    /// The key hash as this ring computes it (after the client's key rewriting).
    pub fn key_hash(&self, key: &[u8]) -> Result<u32, Error> {
        let mut buf = KeyBuf::new();
        Ok(self.prepare(key, &mut buf)?.hash(self.hash))
    }

    /// The key as the client hashes it (refusals, rewriting, this ring's options).
    #[inline]
    pub(super) fn prepare<'k>(
        &self,
        key: &'k [u8],
        buf: &'k mut KeyBuf,
    ) -> Result<Prepared<'k>, Error> {
        prepare(self.profile, self.hash, &self.options, key, buf)
    }

    /// What the search compares for a prepared key.
    #[inline]
    pub(super) fn point_of(&self, key: Prepared<'_>) -> KeyPoint {
        if key.zero {
            KeyPoint::Narrow(0)
        } else {
            self.layout.key_point(self.hash, key.bytes)
        }
    }

    /// The continuum position a key point lands on, for layouts searched by a bound
    /// (sorted, 128-bit and tie-run continua).
    pub(super) fn ring_position(&self, k: KeyPoint) -> Result<(&Continuum, usize), Error> {
        self.layout.position(k)
    }

    /// The server index for a key point (a key already rewritten and hashed): the whole
    /// search rule of every layout.
    #[inline]
    pub(super) fn locate_point_of(&self, k: KeyPoint) -> Result<usize, Error> {
        match &self.layout {
            // The common shapes: owner and position found together.
            Layout::Sorted(c, Bound::LowerBound) => c.owner_after::<false>(k.narrow()),
            Layout::Sorted(c, Bound::UpperBound) => c.owner_after::<true>(k.narrow()),
            Layout::Sorted(c, b @ Bound::LowerBoundSigned) => {
                c.owner_after::<false>(k.narrow() ^ b.flip())
            }
            Layout::Sorted(c, bound) => Ok(c.owners[c.position(*bound, k.narrow())?] as usize),
            Layout::TieRuns(c, bound, runs) => Ok(runs.owner(c, c.position(*bound, k.narrow())?)),
            Layout::Wide(..) => {
                let (c, p) = self.ring_position(k)?;
                Ok(c.owners[p] as usize)
            }
            Layout::Buckets(t) => t.owner(k.narrow()).ok_or(Error::NoServer),
            Layout::Slots(s) => s.locate(k),
            Layout::Scaled(s) => s.locate(k.narrow()),
            // Placed from the key itself in `locate_index`; a hash alone cannot place it.
            Layout::Furc(_) | Layout::Scored(..) | Layout::JumpXxh3 | Layout::Mixed(_) => {
                Err(Error::NeedsKey)
            }
            Layout::Jump => {
                Ok(jump::jump(u64::from(k.narrow()), self.entries.len() as u32) as usize)
            }
            Layout::Rendezvous => self.rendezvous_best(k.narrow(), &[]),
            Layout::Maglev(table) => table
                .get((k.narrow() % maglev::SIZE) as usize)
                .map(|&o| o as usize)
                .ok_or(Error::NoServer),
        }
    }

    /// The continuum point a key lands on and its owner's index: what libketama's
    /// `ketama_get_server` reports as `mcs.point`. [`Error::NotAContinuum`] for profiles that are not a
    /// searched continuum (modulo, jump, rendezvous, maglev, pecl's bucket table).
    pub fn locate_point(&self, key: &[u8]) -> Result<(u32, usize), Error> {
        if self.entries.is_empty() {
            return Err(Error::EmptyRing);
        }
        if !matches!(
            self.layout,
            Layout::Sorted(..) | Layout::Wide(..) | Layout::TieRuns(..)
        ) {
            return Err(Error::NotAContinuum);
        }
        let mut buf = KeyBuf::new();
        let key = self.prepare(key, &mut buf)?;
        let (c, p) = self.ring_position(self.point_of(key))?;
        Ok((c.values[p], self.layout.owner_at(c, p)))
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
        let key = self.prepare(key, &mut buf)?;
        if self.profile.single_shortcut && self.entries.len() == 1 {
            return Ok(0);
        }
        self.locate_prepared(key)
    }

    /// The server index for a key already rewritten by the client (its bytes as hashed).
    /// Inlined into each caller with the search, so the prepared key stays in registers.
    #[inline(always)]
    pub(super) fn locate_prepared(&self, key: Prepared<'_>) -> Result<usize, Error> {
        match &self.layout {
            Layout::Furc(_) | Layout::Scored(..) | Layout::JumpXxh3 => {
                self.locate_by_key(key.bytes)
            }
            Layout::Mixed(nodes) => self.mixed_best(nodes, self.hash.hash64(key.bytes), &[]),
            _ => self.locate_point_of(self.point_of(key)),
        }
    }

    /// The layouts that place a key from its bytes rather than from one hash of it.
    #[inline(never)]
    fn locate_by_key(&self, key: &[u8]) -> Result<usize, Error> {
        match &self.layout {
            Layout::Furc(weights) => furc_locate(key, self.entries.len(), weights),
            Layout::Scored(join, ties) => self.scored_best(*join, *ties, key, &[]),
            Layout::JumpXxh3 => Ok(jump::jump(xxh3_64(key), self.entries.len() as u32) as usize),
            _ => Err(Error::NeedsKey),
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
        let mut buf = KeyBuf::new();
        let prepared = self.prepare(key, &mut buf)?;
        let key = prepared.bytes;
        match &self.layout {
            Layout::Buckets(t) if t.continuum.len() > 0 => {
                let start = t.start(prepared.hash(self.hash));
                self.walk_continuum(&t.continuum, start, want, out);
            }
            Layout::Sorted(c, _) | Layout::Wide(c, ..) | Layout::TieRuns(c, _, _)
                if c.len() > 0 =>
            {
                let start = self
                    .ring_position(self.point_of(prepared))
                    .map_or(0, |(_, p)| p);
                self.walk_continuum(c, start, want, out);
            }
            Layout::Rendezvous => {
                let h = prepared.hash(self.hash);
                while out.len() < want {
                    match self.rendezvous_best(h, out) {
                        Ok(i) => out.push(i),
                        Err(_) => break,
                    }
                }
            }
            Layout::Scored(join, ties) => {
                while out.len() < want {
                    match self.scored_best(*join, *ties, key, out) {
                        Ok(i) => out.push(i),
                        Err(_) => break,
                    }
                }
            }
            Layout::Mixed(nodes) => {
                let h = self.hash.hash64(key);
                while out.len() < want {
                    match self.mixed_best(nodes, h, out) {
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
                    let i = (first + step) % self.entries.len();
                    if !out.contains(&i) {
                        out.push(i);
                    }
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
        let backwards = self.layout.bound().is_some_and(Bound::walks_backwards);
        c.walk(start, backwards, self.profile.ties, want, out);
    }

    /// The highest-scoring server not in `skip`.
    fn rendezvous_best(&self, h: u32, skip: &[usize]) -> Result<usize, Error> {
        let mut best: Option<(f64, usize)> = None;
        for (i, e) in self.entries.iter().enumerate() {
            if skip.contains(&i) {
                continue;
            }
            let s = rendezvous::score(e.node_hash, e.server.weight, h);
            if s > f64::NEG_INFINITY && best.is_none_or(|(b, _)| s > b) {
                best = Some((s, i));
            }
        }
        best.map(|(_, i)| i).ok_or(Error::NoServer)
    }
}

/// mcrouter: CH3 (`furc_hash(key, n)`) when `weights` is empty, else WeightedCh3. mcrouter
/// throws for more than 2^23 servers: [`Error::TooManyServers`].
fn furc_locate(key: &[u8], n: usize, weights: &[f64]) -> Result<usize, Error> {
    if n > furc::FURC_MAX_POOL as usize {
        return Err(Error::TooManyServers);
    }
    if weights.is_empty() {
        return Ok(furc::furc_hash(key, n as u32) as usize);
    }
    furc::weighted_ch3(key, weights).ok_or(Error::NoServer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcrouter_refuses_more_servers_than_it_takes() {
        let over = furc::FURC_MAX_POOL as usize + 1;
        assert_eq!(furc_locate(b"k", over, &[]), Err(Error::TooManyServers));
        assert!(furc_locate(b"k", over - 1, &[]).is_ok());
    }
}
