//! Modulo placements: `hash % slots` over the servers in the client's order, each server
//! filling `weight` consecutive slots when weighted; and phpredis's range partition, where
//! the hash picks its server by proportion rather than remainder.

use alloc::vec::Vec;

use super::entry::Entry;
use super::key::KeyPoint;
use crate::error::Error;

/// How the key point becomes the number reduced modulo the slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reduce {
    /// The unsigned 32-bit key hash; `high15`: pecl memcache standard's
    /// `(h >> 16) & 0x7fff`, 0 becoming 1.
    Unsigned { high15: bool },
    /// The Java clients: `|h|` of the key hash as a signed `long` (the 32-bit hash
    /// sign-extended; `old_compat`: whalin's 64-bit `33 h + u` over the key instead).
    JavaAbs { old_compat: bool },
    /// Not a remainder: the server at `(h * n) / (2^32 - 1)` (phpredis `RedisArray`).
    Proportional,
}

/// Entry indexes in the client's order and, when weighted, the cumulative slot counts.
#[derive(Clone, Debug)]
pub(super) struct Slots {
    /// Entry indexes in the client's server order.
    ordered: Vec<u32>,
    /// Cumulative weights along `ordered` (empty when unweighted).
    cumulative: Vec<u64>,
    weighted: bool,
    pub(super) reduce: Reduce,
}

impl Slots {
    /// The slots of `entries` (each filling `weight` slots when `weighted`).
    pub(super) fn new(entries: &[Entry], weighted: bool, reduce: Reduce) -> Slots {
        let mut ordered: Vec<u32> = (0..entries.len() as u32).collect();
        ordered.sort_by_key(|&i| entries[i as usize].rank);
        let mut sum = 0u64;
        let cumulative = if weighted {
            ordered
                .iter()
                .map(|&i| {
                    sum += u64::from(entries[i as usize].server.weight);
                    sum
                })
                .collect()
        } else {
            Vec::new()
        };
        Slots {
            ordered,
            cumulative,
            weighted,
            reduce,
        }
    }

    /// Whether keys are hashed by whalin's old-compat rule (not the ring's key hash).
    pub(super) fn old_compat(&self) -> bool {
        self.reduce == Reduce::JavaAbs { old_compat: true }
    }

    /// The entry index of a key point.
    #[inline]
    pub(super) fn locate(&self, k: KeyPoint) -> Result<usize, Error> {
        let mut h: u64 = match (k, self.reduce) {
            (KeyPoint::Long(h), _) => h.unsigned_abs(),
            (k, Reduce::JavaAbs { .. }) => i64::from(k.narrow() as i32).unsigned_abs(),
            (k, Reduce::Unsigned { .. }) => u64::from(k.narrow()),
            (k, Reduce::Proportional) => {
                // 2^32 - 1 lands one past the last server, which the client reads out of
                // bounds: no server.
                let at = u64::from(k.narrow()) * self.ordered.len() as u64 / u64::from(u32::MAX);
                let at = usize::try_from(at).map_err(|_| Error::NoServer)?;
                return self
                    .ordered
                    .get(at)
                    .map(|&i| i as usize)
                    .ok_or(Error::NoServer);
            }
        };
        if self.reduce == (Reduce::Unsigned { high15: true }) {
            h = (h >> 16) & 0x7fff;
            if h == 0 {
                h = 1;
            }
        }
        let at = if self.weighted {
            let total = self.cumulative.last().copied().unwrap_or(0);
            if total == 0 {
                return Err(Error::NoServer);
            }
            let slot = h % total;
            self.cumulative.partition_point(|&c| c <= slot)
        } else {
            (h % self.ordered.len().max(1) as u64) as usize
        };
        self.ordered
            .get(at)
            .map(|&i| i as usize)
            .ok_or(Error::NoServer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::server::Server;

    /// phpredis: `(h * n) / (2^32 - 1)` picks a range of the hash space per server; the top
    /// hash falls past the last server.
    #[test]
    fn proportional_ranges() {
        let profile = Profile::by_name("phpredis-array").unwrap();
        let entries: Vec<Entry> = (0..3)
            .map(|i| {
                let s = Server::parse(&alloc::format!("10.0.0.{}:6379", i + 1), 1).unwrap();
                let mut e = Entry::new(profile, s, i).unwrap();
                e.rank = i as u32;
                e
            })
            .collect();
        let s = Slots::new(&entries, false, Reduce::Proportional);
        let at = |h: u32| s.locate(KeyPoint::Narrow(h));
        assert_eq!(at(0), Ok(0));
        assert_eq!(at(0x5555_5554), Ok(0));
        assert_eq!(at(0x5555_5555), Ok(1));
        assert_eq!(at(0xFFFF_FFFE), Ok(2));
        assert_eq!(at(u32::MAX), Err(Error::NoServer));
    }
}
