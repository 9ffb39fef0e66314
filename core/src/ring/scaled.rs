//! Cache::Memcached::Fast's Cache::Memcached-compatible continuum (`ketama_points => 0`):
//! one point per server, each server's share of `[0, 2^32 - 1]` proportional to its weight,
//! and a key's 15-bit hash scaled onto it, so that it picks the server Cache::Memcached's
//! bucket list picks (up to the client's double rounding, which this reproduces).

use alloc::vec::Vec;

use super::entry::Entry;
use crate::error::Error;

/// The continuum's top, where each new server's point goes.
const MAX_POINT: u32 = u32::MAX;

/// One point per server (in the client's order) and the total weight.
#[derive(Clone, Debug)]
pub(super) struct ScaledPoints {
    /// Each server's point and entry index, in the order the servers were added (ascending).
    points: Vec<(u32, u32)>,
    /// The sum of the weights, as the client keeps it (a double).
    total: f64,
}

impl ScaledPoints {
    /// The points of `entries`, added in the client's order: the total grows by the new
    /// weight `w`, every earlier point `p` becomes `(u32)(p - (double)p * (w / total))`, and
    /// the new server's point is `2^32 - 1`.
    pub(super) fn new(entries: &[Entry]) -> ScaledPoints {
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| entries[i].rank);
        let mut points: Vec<(u32, u32)> = Vec::with_capacity(entries.len());
        let mut total = 0.0f64;
        for i in order {
            let w = f64::from(entries[i].server.weight);
            total += w;
            let scale = w / total;
            for (p, _) in &mut points {
                let x = f64::from(*p);
                *p = c_to_u32(x - x * scale);
            }
            points.push((MAX_POINT, i as u32));
        }
        ScaledPoints { points, total }
    }

    /// The entry index for a key's 15-bit hash `h`: `b = h % (u32)(total + 0.5)`, its point
    /// `(u32)((double)b / total * 4294967295.0 + 0.5) + 1` (wrapping), and the first server
    /// point >= it (the first of equal ones), wrapping to the first point.
    pub(super) fn locate(&self, h: u32) -> Result<usize, Error> {
        let buckets = c_to_u32(self.total + 0.5);
        if buckets == 0 || self.points.is_empty() {
            return Err(Error::NoServer);
        }
        let b = h % buckets;
        let point =
            c_to_u32(f64::from(b) / self.total * f64::from(MAX_POINT) + 0.5).wrapping_add(1);
        let at = self.points.partition_point(|&(p, _)| p < point);
        let (_, owner) = self
            .points
            .get(at)
            .or(self.points.first())
            .ok_or(Error::NoServer)?;
        Ok(*owner as usize)
    }
}

/// A non-negative double converted to `unsigned int` as x86-64 C compilers do it (through a
/// 64-bit integer, keeping its low 32 bits; NaN and negatives give 0 here).
fn c_to_u32(x: f64) -> u32 {
    if x.is_nan() || x <= 0.0 {
        0
    } else {
        (x as u64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::server::Server;

    fn points(weights: &[u32]) -> ScaledPoints {
        let profile = Profile::by_name("libketama").unwrap();
        let entries: Vec<Entry> = weights
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let s = Server::parse(&alloc::format!("10.0.0.{}:11211", i + 1), w).unwrap();
                let mut e = Entry::new(profile, s, i).unwrap();
                e.rank = i as u32;
                e
            })
            .collect();
        ScaledPoints::new(&entries)
    }

    /// Each server's share of the points is its share of the weight, as Cache::Memcached's
    /// buckets give it: bucket b of the total goes to the server whose cumulative weight
    /// first exceeds b.
    #[test]
    fn buckets_land_as_cache_memcached_lists_them() {
        for weights in [
            &[1u32, 1][..],
            &[1, 2, 3],
            &[600, 300, 200, 350, 1000],
            &[1, 0, 2],
        ] {
            let s = points(weights);
            let total: u32 = weights.iter().sum();
            for h in 0..total {
                let mut cumulative = 0;
                let want = weights
                    .iter()
                    .position(|&w| {
                        cumulative += w;
                        h < cumulative
                    })
                    .unwrap();
                assert_eq!(s.locate(h).unwrap(), want, "{weights:?} bucket {h}");
            }
        }
    }

    #[test]
    fn no_weight_no_server() {
        assert_eq!(points(&[0]).locate(7), Err(Error::NoServer));
    }
}
