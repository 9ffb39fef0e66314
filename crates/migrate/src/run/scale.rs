//! What a run does differently at fleet scale: keys about to expire left out (`min_ttl`),
//! the hottest keys first (`hot_first`), and a byte limit on what is read ([`Throttle`]).

use std::sync::Arc;
use std::time::Duration;

use super::throttle::Throttle;
use crate::backend::{Item, Listed};
use crate::clock::now;

/// The fleet-scale options of a run (none by default).
#[derive(Clone, Debug, Default)]
pub struct Scale {
    /// Keys that expire within this many seconds are not copied (counted apart: copying
    /// them would cost a read and a write for a copy gone before the clients switch).
    pub min_ttl: Option<u64>,
    /// Copy the keys read within this many seconds first, then the others by how recently
    /// they were read ([`Heat`](crate::heat::Heat)), so a run stopped early has copied what
    /// clients read most; `None`: in listing order.
    pub hot_first: Option<u64>,
    /// The byte limit on values read (overall and per OLD server).
    pub throttle: Option<Arc<Throttle>>,
}

impl Scale {
    /// Whether a listed key expires too soon to copy (listing: absolute expiry, Unix
    /// seconds; -1 none).
    pub fn listed_too_short(&self, it: &Listed) -> bool {
        self.min_ttl
            .is_some_and(|m| it.exp >= 0 && it.exp.saturating_sub(now()) < m as i64)
    }

    /// Whether an item read expires too soon to copy.
    pub fn read_too_short(&self, it: &Item) -> bool {
        match (self.min_ttl, it.remaining()) {
            (Some(m), Some(left)) => left < Duration::from_secs(m),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Version;
    use crate::heat::Heat;
    use std::time::Instant;

    #[test]
    fn keys_expiring_within_min_ttl_are_too_short() {
        let s = Scale {
            min_ttl: Some(60),
            ..Scale::default()
        };
        let listed = |exp| Listed {
            key: b"k".to_vec(),
            exp,
            version: Version(1),
            size: 1,
            heat: Heat::Unknown,
        };
        assert!(s.listed_too_short(&listed(now() + 30)));
        assert!(!s.listed_too_short(&listed(now() + 90)));
        assert!(!s.listed_too_short(&listed(-1)));
        assert!(!Scale::default().listed_too_short(&listed(now() + 1)));
        let item = |secs: Option<u64>| Item {
            data: Vec::new(),
            flags: 0,
            expires: secs.map(|s| Instant::now() + Duration::from_secs(s)),
            version: Version(1),
        };
        assert!(s.read_too_short(&item(Some(59))));
        assert!(!s.read_too_short(&item(Some(61))));
        assert!(!s.read_too_short(&item(None)));
    }
}
