//! Consistent hashing with bounded loads (Mirrokni, Thorup, Zadimoghaddam, 2018): every
//! server takes at most `ceil(c * (keys + 1) / n)` keys; a key whose ring owner is full walks on
//! to the next server with room. Stateful: it remembers where each placed key went.

use alloc::vec;
use alloc::vec::Vec;

use super::compiled::Ring;
use crate::error::Error;

/// A load-bounded view of a [`Ring`]: assign keys, release them, read loads.
#[derive(Clone, Debug)]
pub struct BoundedLoads<'r> {
    ring: &'r Ring,
    /// Capacity factor `c` as a fraction: capacity = ceil(num * (keys + 1) / (den * n)).
    num: u64,
    den: u64,
    loads: Vec<u64>,
    total: u64,
    walk: Vec<usize>,
}

impl<'r> BoundedLoads<'r> {
    /// A bounded view with capacity factor `c = num / den` (must be >= 1, e.g. 125/100).
    pub fn new(ring: &'r Ring, num: u32, den: u32) -> Result<BoundedLoads<'r>, Error> {
        if den == 0 || num < den {
            return Err(Error::BadFactor);
        }
        if ring.is_empty() {
            return Err(Error::EmptyRing);
        }
        Ok(BoundedLoads {
            ring,
            num: u64::from(num),
            den: u64::from(den),
            loads: vec![0; ring.len()],
            total: 0,
            walk: Vec::new(),
        })
    }

    /// A bounded view with HAProxy's `hash-balance-factor` (a percentage, at least 100):
    /// capacity factor `c = percent / 100`, so 125 lets a server take 25% over the average.
    pub fn from_balance_factor(ring: &'r Ring, percent: u32) -> Result<BoundedLoads<'r>, Error> {
        BoundedLoads::new(ring, percent, 100)
    }

    /// A bounded view starting from the current loads (for example open connections or
    /// in-flight requests per server, in the ring's server order). [`Error::BadLoads`] when
    /// `loads` does not have one entry per server.
    pub fn with_loads(
        ring: &'r Ring,
        num: u32,
        den: u32,
        loads: &[u64],
    ) -> Result<BoundedLoads<'r>, Error> {
        let mut b = BoundedLoads::new(ring, num, den)?;
        if loads.len() != b.loads.len() {
            return Err(Error::BadLoads);
        }
        b.loads.copy_from_slice(loads);
        b.total = loads.iter().fold(0u64, |t, &l| t.saturating_add(l));
        Ok(b)
    }

    /// Sets server `index`'s current load (work that started or ended elsewhere); an index
    /// past the end is ignored.
    pub fn set_load(&mut self, index: usize, load: u64) {
        if let Some(l) = self.loads.get_mut(index) {
            self.total = self.total.saturating_sub(*l).saturating_add(load);
            *l = load;
        }
    }

    /// Where [`BoundedLoads::assign`] would place `key` now, without placing it.
    pub fn peek(&self, key: &[u8]) -> Result<usize, Error> {
        let cap = self.capacity();
        let mut walk = Vec::new();
        self.ring.locate_n_into(key, self.loads.len(), &mut walk)?;
        walk.into_iter()
            .find(|&i| self.loads[i] < cap)
            .ok_or(Error::NoServer)
    }

    /// The most keys any one server may hold once one more key is placed.
    pub fn capacity(&self) -> u64 {
        let n = self.loads.len() as u64;
        (self.num * (self.total + 1)).div_ceil(self.den * n)
    }

    /// Places a key: its ring owner if it has room, else the next server in ring order that has.
    pub fn assign(&mut self, key: &[u8]) -> Result<usize, Error> {
        let cap = self.capacity();
        let mut walk = core::mem::take(&mut self.walk);
        let found = self.ring.locate_n_into(key, self.loads.len(), &mut walk);
        let pick = found.and_then(|()| {
            walk.iter()
                .copied()
                .find(|&i| self.loads[i] < cap)
                .ok_or(Error::NoServer)
        });
        self.walk = walk;
        let i = pick?;
        self.loads[i] += 1;
        self.total += 1;
        Ok(i)
    }

    /// Forgets one key placed on server `index`.
    pub fn release(&mut self, index: usize) {
        if let Some(l) = self.loads.get_mut(index).filter(|l| **l > 0) {
            *l -= 1;
            self.total -= 1;
        }
    }

    /// Keys per server, in server order.
    pub fn loads(&self) -> &[u64] {
        &self.loads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::server::Server;

    #[test]
    fn no_server_exceeds_the_bound() {
        let servers =
            (0..7).map(|i| Server::parse(&alloc::format!("10.0.0.{i}:11211"), 1).unwrap());
        let ring =
            Ring::with_servers(Profile::by_name("libketama").unwrap(), None, servers).unwrap();
        let mut b = BoundedLoads::new(&ring, 110, 100).unwrap();
        for k in 0..7000 {
            b.assign(alloc::format!("k{k}").as_bytes()).unwrap();
        }
        let cap = (110u64 * 7000).div_ceil(700);
        assert!(b.loads().iter().all(|&l| l <= cap), "{:?}", b.loads());
        assert_eq!(b.loads().iter().sum::<u64>(), 7000);
        assert!(BoundedLoads::new(&ring, 99, 100).is_err());
    }

    fn ring(n: usize) -> Ring {
        let servers =
            (0..n).map(|i| Server::parse(&alloc::format!("10.0.1.{i}:11211"), 1).unwrap());
        Ring::with_servers(Profile::by_name("libketama").unwrap(), None, servers).unwrap()
    }

    #[test]
    fn current_loads_and_balance_factor() {
        let ring = ring(4);
        assert_eq!(
            BoundedLoads::with_loads(&ring, 125, 100, &[1, 2]).err(),
            Some(Error::BadLoads)
        );
        // Server 0 is far over the bound: nothing new goes there.
        let mut b = BoundedLoads::with_loads(&ring, 125, 100, &[100, 0, 0, 0]).unwrap();
        for k in 0..50 {
            let key = alloc::format!("k{k}");
            let peeked = b.peek(key.as_bytes()).unwrap();
            assert_eq!(b.assign(key.as_bytes()).unwrap(), peeked);
            assert_ne!(peeked, 0);
        }
        b.set_load(0, 0);
        assert_eq!(b.loads()[0], 0);
        assert_eq!(b.loads().iter().sum::<u64>(), 50);
        let f = BoundedLoads::from_balance_factor(&ring, 125).unwrap();
        assert_eq!(
            f.capacity(),
            BoundedLoads::new(&ring, 125, 100).unwrap().capacity()
        );
        assert!(BoundedLoads::from_balance_factor(&ring, 99).is_err());
    }

    proptest::proptest! {
        /// From any starting loads, every placement lands on a server whose load stays within
        /// ceil(c * (total + 1) / n), and once the starting loads are drained by releases no
        /// server exceeds ceil(c x average).
        #[test]
        fn never_over_the_bound(
            n in 1usize..12,
            pct in 100u32..300,
            start in proptest::collection::vec(0u64..50, 12),
            keys in 1usize..400,
        ) {
            let ring = ring(n);
            let mut b = BoundedLoads::with_loads(&ring, pct, 100, &start[..n]).unwrap();
            for k in 0..keys {
                let cap = b.capacity();
                let i = b.assign(alloc::format!("key:{k}").as_bytes()).unwrap();
                proptest::prop_assert!(b.loads()[i] <= cap);
            }
            let mut fresh = BoundedLoads::from_balance_factor(&ring, pct).unwrap();
            for k in 0..keys {
                fresh.assign(alloc::format!("key:{k}").as_bytes()).unwrap();
            }
            let bound = (u64::from(pct) * keys as u64).div_ceil(100 * n as u64);
            proptest::prop_assert!(fresh.loads().iter().all(|&l| l <= bound));
        }
    }
}
