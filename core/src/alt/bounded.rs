//! Consistent hashing with bounded loads (Mirrokni, Thorup, Zadimoghaddam, 2018): every
//! server takes at most `ceil(c * (keys + 1) / n)` keys; a key whose ring owner is full walks on
//! to the next server with room. Stateful: it remembers where each placed key went.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::Error;
use crate::ring::Ring;

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
    use crate::{Profile, Server};

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
}
