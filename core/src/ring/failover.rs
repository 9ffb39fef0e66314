//! Each client's failover sequence: the servers it tries for a key, in order, while the
//! earlier ones are down (see [`Failover`]).
//!
//! Every sequence is produced one server at a time to a visitor that may stop it, so
//! [`Ring::locate_alive`] ends at the first live server as the client does, and
//! [`Ring::failover`] collects the first `n`. A client whose rehashes may never reach every
//! server (whalin over some bucket lists) therefore costs only as many rehashes as it takes
//! to reach a live one.

use alloc::vec::Vec;
use core::ops::ControlFlow;

use super::compiled::Ring;
use super::continuum::Continuum;
use super::key::{KeyBuf, KeyPoint, Prepared};
use crate::decimal::push_decimal;
use crate::error::Error;
use crate::profile::Failover;

/// spymemcached's `getSequence`: the primary and 6 rehashes.
const SPY_SEQUENCE: usize = 7;

/// The most rehashes [`Failover::RehashKeyUntried`] makes for one key before it stops looking
/// for the servers it has not met.
const UNTRIED_REHASH_CAP: u64 = 1 << 20;

/// What the rehash of try `t` (from 0) hashes.
#[derive(Clone, Copy)]
enum Retag {
    /// `str(t) + key` (dalli).
    TryThenKey,
    /// `key + "-" + str(t)` (pecl memcache).
    KeyDashTry,
    /// `str(previous hash) + str(t)` (python-memcached).
    HashThenTry,
    /// `str(t + 1) + key`, its hash added to the previous hash (Cache::Memcached).
    SumNextTryThenKey,
    /// `str(t) + key`, its hash doubled (Enyim's ketama locator).
    DoubledTryThenKey,
}

/// A failover visitor: shown each server of the sequence in order, it says whether to go on.
type Visit<'v> = &'v mut dyn FnMut(usize) -> ControlFlow<()>;

impl Ring {
    /// The client's own failover sequence for a key, primary first, at most `n` entries:
    /// the servers the client tries, in order, while the earlier ones are down (see
    /// [`Failover`]). spymemcached and xmemcached rehash-walk the continuum (servers may
    /// repeat; spymemcached's `getSequence` yields 7, xmemcached stops after as many rehashes
    /// as servers), dalli, pecl memcache and python-memcached rehash up to their retry
    /// limits, whalin rehashes until it meets servers it has not tried, emcache stays on its
    /// pick, every other client takes the next distinct servers as [`Ring::locate_n`].
    pub fn failover(&self, key: &[u8], n: usize) -> Result<Vec<usize>, Error> {
        let mut out = Vec::with_capacity(n.min(64));
        self.failover_each(key, n, &mut |i| {
            out.push(i);
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    /// How many servers the client tries for one key before it gives up.
    pub fn failover_limit(&self) -> usize {
        match self.profile.failover {
            Failover::Walk | Failover::RehashKeyUntried => self.entries.len(),
            Failover::RehashDoubled => self.entries.len() + 1,
            Failover::Rehash {
                bounded_by_servers: true,
                ..
            } => self.entries.len() + 1,
            Failover::Rehash { .. } => SPY_SEQUENCE,
            Failover::RehashKey { tries }
            | Failover::RehashKeyDash { tries }
            | Failover::RehashHash { tries }
            | Failover::RehashSum { tries } => tries as usize,
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
        let mut alive = None;
        self.failover_each(key, self.failover_limit(), &mut |i| {
            if dead.contains(&i) {
                ControlFlow::Continue(())
            } else {
                alive = Some(i);
                ControlFlow::Break(())
            }
        })?;
        alive.ok_or(Error::NoServer)
    }

    /// Shows `visit` the key's failover sequence, at most `n` servers, until it breaks.
    fn failover_each(&self, key: &[u8], n: usize, visit: Visit<'_>) -> Result<(), Error> {
        let first = self.locate_index(key)?;
        if n == 0 || visit(first).is_break() {
            return Ok(());
        }
        match (self.profile.failover, self.layout.continuum()) {
            (
                Failover::Rehash {
                    first_tag,
                    bounded_by_servers,
                },
                Some(c),
            ) => {
                let n = if bounded_by_servers {
                    n.min(self.entries.len() + 1)
                } else {
                    n
                };
                self.rehash_walk(key, n - 1, first_tag, c, visit)
            }
            (Failover::RehashKey { tries }, _) => {
                self.rehash_tries(key, n.min(tries as usize), Retag::TryThenKey, visit)
            }
            (Failover::RehashKeyDash { tries }, _) => {
                self.rehash_tries(key, n.min(tries as usize), Retag::KeyDashTry, visit)
            }
            (Failover::RehashHash { tries }, _) => {
                self.rehash_tries(key, n.min(tries as usize), Retag::HashThenTry, visit)
            }
            (Failover::RehashSum { tries }, _) => {
                self.rehash_tries(key, n.min(tries as usize), Retag::SumNextTryThenKey, visit)
            }
            (Failover::RehashDoubled, _) => {
                let n = n.min(self.entries.len() + 1);
                self.rehash_tries(key, n, Retag::DoubledTryThenKey, visit)
            }
            (Failover::RehashKeyUntried, _) => self.rehash_untried(key, first, n, visit),
            (Failover::Stay, _) => Ok(()),
            _ => {
                let mut next = Vec::new();
                self.locate_n_into(key, n, &mut next)?;
                for &i in next.iter().skip(1) {
                    if visit(i).is_break() {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// spymemcached / xmemcached: `hv = (hv + H(str(t) + key)) mod 2^32` walked on the
    /// continuum, `rehashes` times after the key's own server.
    fn rehash_walk(
        &self,
        key: &[u8],
        rehashes: usize,
        first_tag: u32,
        c: &Continuum,
        visit: Visit<'_>,
    ) -> Result<(), Error> {
        let mut buf = KeyBuf::new();
        let prepared = self.prepare(key, &mut buf)?;
        let key = prepared.bytes;
        let mut hv = prepared.hash(self.hash);
        let mut tagged = Vec::with_capacity(key.len() + 20);
        for t in (u64::from(first_tag)..).take(rehashes) {
            tagged.clear();
            push_decimal(&mut tagged, t);
            tagged.extend_from_slice(key);
            hv = hv.wrapping_add(self.hash.hash(&tagged));
            let p = c.lower_bound(hv);
            let owner = self
                .layout
                .owner_at(c, if p == c.values.len() { 0 } else { p });
            if visit(owner).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// dalli, pecl memcache, python-memcached and Cache::Memcached: `n` lookups in all, each
    /// rehash placed as a key hash is (see [`Retag`]).
    fn rehash_tries(
        &self,
        key: &[u8],
        n: usize,
        retag: Retag,
        visit: Visit<'_>,
    ) -> Result<(), Error> {
        if self.profile.single_shortcut && self.entries.len() == 1 {
            return Ok(());
        }
        let mut buf = KeyBuf::new();
        let prepared = self.prepare(key, &mut buf)?;
        let key = prepared.bytes;
        let mut h = prepared.hash(self.hash);
        let mut tagged = Vec::with_capacity(key.len() + 20);
        for t in 0..(n as u64).saturating_sub(1) {
            tagged.clear();
            match retag {
                Retag::TryThenKey => {
                    push_decimal(&mut tagged, t);
                    tagged.extend_from_slice(key);
                }
                Retag::KeyDashTry => {
                    tagged.extend_from_slice(key);
                    tagged.push(b'-');
                    push_decimal(&mut tagged, t);
                }
                Retag::HashThenTry => {
                    push_decimal(&mut tagged, u64::from(h));
                    push_decimal(&mut tagged, t);
                }
                Retag::SumNextTryThenKey => {
                    push_decimal(&mut tagged, t + 1);
                    tagged.extend_from_slice(key);
                }
                Retag::DoubledTryThenKey => {
                    push_decimal(&mut tagged, t);
                    tagged.extend_from_slice(key);
                }
            }
            h = match retag {
                Retag::SumNextTryThenKey => h.wrapping_add(self.hash.hash(&tagged)),
                Retag::DoubledTryThenKey => self.hash.hash(&tagged).wrapping_mul(2),
                _ => self.hash.hash(&tagged),
            };
            if visit(self.locate_point_of(KeyPoint::Narrow(h))?).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// whalin: after the key's own server `first`, `str(t) + key` for t = 0, 1, ... placed as
    /// a key, showing only servers not yet shown, until `n` (at most every server) have been.
    /// The client itself has no bound (a server that owns no bucket would keep it searching
    /// forever); the search stops after [`UNTRIED_REHASH_CAP`] rehashes, which the servers
    /// never reach when each owns a share.
    fn rehash_untried(
        &self,
        key: &[u8],
        first: usize,
        n: usize,
        visit: Visit<'_>,
    ) -> Result<(), Error> {
        let want = n.min(self.entries.len());
        let mut shown = Vec::with_capacity(want.min(64));
        shown.push(first);
        let mut buf = KeyBuf::new();
        let key = self.prepare(key, &mut buf)?.bytes;
        let mut tagged = Vec::with_capacity(key.len() + 20);
        let mut t = 0u64;
        while shown.len() < want && t < UNTRIED_REHASH_CAP {
            tagged.clear();
            push_decimal(&mut tagged, t);
            tagged.extend_from_slice(key);
            let i = self.locate_prepared(Prepared::bytes(&tagged))?;
            if !shown.contains(&i) {
                shown.push(i);
                if visit(i).is_break() {
                    break;
                }
            }
            t += 1;
        }
        Ok(())
    }
}
