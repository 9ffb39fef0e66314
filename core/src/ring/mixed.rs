//! go-redis v9's rendezvous (`Ring`, through dgryski/go-rendezvous): each server scores a mix
//! of the key's 64-bit hash with its node string's, the greatest score wins.

use super::compiled::Ring;
use crate::error::Error;

/// go-rendezvous's `xorshiftMult64`.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    x.wrapping_mul(2_685_821_657_736_338_717)
}

impl Ring {
    /// The server with the greatest `mix(key_hash ^ node_hash)` among those not in `skip` (a
    /// skipped server is as if it had left the list); an equal score keeps the earlier server.
    pub(super) fn mixed_best(
        &self,
        node_hashes: &[u64],
        key_hash: u64,
        skip: &[usize],
    ) -> Result<usize, Error> {
        let mut best: Option<(u64, usize)> = None;
        for (i, &n) in node_hashes.iter().enumerate() {
            if skip.contains(&i) {
                continue;
            }
            let score = mix(key_hash ^ n);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| i).ok_or(Error::NoServer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `mix` is go-rendezvous's bijection: xorshifts and an odd multiplier.
    #[test]
    fn mix_known_values() {
        assert_eq!(mix(0), 0);
        assert_eq!(
            mix(1),
            (1u64 ^ (1 << 25)).wrapping_mul(2_685_821_657_736_338_717)
        );
    }
}
