//! A continuum's generations (one per content of its file) and the `mcs` records
//! `ketama_get_server` hands out, interned so they outlive reloads.

use core::ffi::c_char;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use ketama_core::ring::RawContinuum;
use ketama_core::servers_file::{self, FileError};

use super::{mcs, ADDR_LEN};

/// The `mcs` records `ketama_get_server` hands out, one per distinct (address, point) pair,
/// shared by every generation of one path and never moved or changed once written (so a
/// pointer to one stays valid as long as this set lives: until the last `ketama_smoke` of
/// the path).
#[derive(Debug, Default)]
pub(super) struct Records {
    inner: Mutex<RecordsInner>,
}

#[derive(Debug, Default)]
struct RecordsInner {
    /// Address -> its number in `index` keys.
    ids: HashMap<Vec<u8>, u32>,
    /// `(address number << 32) | point` -> the record.
    index: HashMap<u64, Record>,
    /// The blocks the records live in (from `Box::into_raw`, freed on drop), one per
    /// generation that brought new pairs.
    blocks: Vec<*mut [mcs]>,
}

/// A pointer to an interned `mcs` (into one of [`RecordsInner::blocks`]).
#[derive(Clone, Copy, Debug)]
struct Record(*const mcs);

// SAFETY: a Record points into a block that is written once, before any Record to it is
// shared, and then only read; the block lives as long as the `Records` that owns it.
unsafe impl Send for Record {}
// SAFETY: as above (read-only after publication).
unsafe impl Sync for Record {}
// SAFETY: the raw block pointers are owned by `RecordsInner` (freed in its Drop) and only
// touched under `Records::inner`'s lock.
unsafe impl Send for RecordsInner {}

impl Drop for RecordsInner {
    fn drop(&mut self) {
        for &b in &self.blocks {
            // SAFETY: from Box::into_raw in `Records::intern`, freed once, here.
            drop(unsafe { Box::from_raw(b) });
        }
    }
}

impl Records {
    /// The interned record for each of `points` (parallel to it), interning the new ones in
    /// one new block.
    fn intern(&self, points: &[mcs], addrs: &[&[u8]]) -> Box<[Record]> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let inner = &mut *inner;
        let mut keys = Vec::with_capacity(points.len());
        let mut fresh: Vec<mcs> = Vec::new();
        let mut fresh_keys: HashMap<u64, usize> = HashMap::new();
        for (m, addr) in points.iter().zip(addrs) {
            let next = u32::try_from(inner.ids.len()).unwrap_or(u32::MAX);
            let id = *inner.ids.entry(addr.to_vec()).or_insert(next);
            let key = u64::from(id) << 32 | u64::from(m.point);
            if !inner.index.contains_key(&key) {
                fresh_keys.entry(key).or_insert_with(|| {
                    fresh.push(*m);
                    fresh.len() - 1
                });
            }
            keys.push(key);
        }
        if !fresh.is_empty() {
            let block = Box::into_raw(fresh.into_boxed_slice());
            inner.blocks.push(block);
            let base = block.cast::<mcs>().cast_const();
            for (key, at) in fresh_keys {
                // SAFETY: `at` < the block's length (an index into `fresh`).
                inner.index.insert(key, Record(unsafe { base.add(at) }));
            }
        }
        keys.iter().map(|k| inner.index[k]).collect()
    }

    /// Number of interned records.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner.lock().unwrap().index.len()
    }
}

/// One parse of one server file.
#[derive(Debug)]
pub(super) struct Generation {
    /// MD5 of the file's bytes.
    pub(super) digest: [u8; 16],
    /// What `continuum.array` shows.
    pub(super) points: Box<[mcs]>,
    /// The points as core searches them (positions in a row, 4 bytes a point, with a prefix
    /// index: the 28-byte `mcs` rows are read only for the answer).
    search: RawContinuum,
    /// The interned record of `points[i]` for each i: what `ketama_get_server` returns.
    records: Box<[Record]>,
    /// Keeps `records` alive.
    pub(super) store: Arc<Records>,
}

impl Generation {
    /// The generation of a parsed file (servers in file order), its records interned in
    /// `store`; refused when core refuses the continuum (more points than one may hold).
    pub(super) fn new(
        digest: [u8; 16],
        servers: &[(&[u8], u32)],
        store: Arc<Records>,
    ) -> Result<Generation, FileError> {
        let search = servers_file::continuum(servers)?;
        let ips: Vec<Ip> = servers.iter().map(|(a, _)| ip(a)).collect();
        let owners = search.owners();
        let points: Box<[mcs]> = search
            .points()
            .iter()
            .zip(owners)
            .map(|(&point, &o)| {
                let (ip, pad) = ips[o as usize];
                mcs {
                    point,
                    ip,
                    _pad: pad,
                }
            })
            .collect();
        let addrs: Vec<&[u8]> = owners.iter().map(|&o| servers[o as usize].0).collect();
        let records = store.intern(&points, &addrs);
        Ok(Generation {
            digest,
            points,
            search,
            records,
            store,
        })
    }

    /// The record of the point a key hash lands on (the first point at or after it,
    /// wrapping), NULL when the generation has no points.
    #[inline]
    pub(super) fn record(&self, hash: u32) -> *mut mcs {
        match self.search.position(hash) {
            Some(i) => self
                .records
                .get(i)
                .map_or(core::ptr::null(), |r| r.0)
                .cast_mut(),
            None => core::ptr::null_mut(),
        }
    }
}

/// An address as `mcs` holds it: `ip` and the two padding bytes after it.
type Ip = ([c_char; ADDR_LEN], [u8; 2]);

/// An address as `mcs` holds it: its first [`ADDR_LEN`] bytes in `ip`, a 23rd byte (the
/// longest address libketama accepts) in the first padding byte, the rest zero, so `ip`
/// always reads as the whole address, up to a NUL inside the record.
fn ip(addr: &[u8]) -> Ip {
    let mut ip = [0 as c_char; ADDR_LEN];
    for (d, s) in ip.iter_mut().zip(addr) {
        *d = *s as c_char;
    }
    (ip, [addr.get(ADDR_LEN).copied().unwrap_or(0), 0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers<'a>(lines: &[(&'a str, u32)]) -> Vec<(&'a [u8], u32)> {
        lines.iter().map(|&(a, m)| (a.as_bytes(), m)).collect()
    }

    #[test]
    fn generations_share_records_and_stay_bounded() {
        let store = Arc::new(Records::default());
        let a = servers(&[("10.0.0.1:11211", 100), ("10.0.0.2:11211", 100)]);
        let b = servers(&[("10.0.0.1:11211", 100), ("10.0.0.3:11211", 100)]);
        let ga = Generation::new([0; 16], &a, Arc::clone(&store)).unwrap();
        assert_eq!(store.len(), 320);
        let gb = Generation::new([1; 16], &b, Arc::clone(&store)).unwrap();
        // Only 10.0.0.3's points are new.
        assert_eq!(store.len(), 480);
        // Flipping between the two files any number of times adds nothing.
        for i in 0..50u8 {
            let g = Generation::new(
                [i; 16],
                if i % 2 == 0 { &a } else { &b },
                Arc::clone(&store),
            )
            .unwrap();
            assert_eq!(g.records.len(), 320);
        }
        assert_eq!(store.len(), 480);
        // The records equal the generation's own points, and a server kept is the same record.
        for (m, r) in ga.points.iter().zip(ga.records.iter()) {
            // SAFETY: interned in `store`, alive.
            let r = unsafe { &*r.0 };
            assert_eq!((m.point, m.ip), (r.point, r.ip));
        }
        let kept = |g: &Generation| -> Vec<*const mcs> {
            g.points
                .iter()
                .zip(g.records.iter())
                .filter(|(m, _)| m.ip[7] == b'1' as c_char && m.ip[8] == b':' as c_char)
                .map(|(_, r)| r.0)
                .collect()
        };
        assert_eq!(kept(&ga), kept(&gb));
        assert_eq!(kept(&ga).len(), 160);
    }

    #[test]
    fn repeated_addresses_and_raw_bytes_each_get_their_points() {
        let servers: Vec<(&[u8], u32)> = vec![
            (b"10.0.0.1:11211", 100),
            (b"10.0.0.1:11211", 100),
            (b"\xff\xfe:1", 100),
        ];
        let g = Generation::new([0; 16], &servers, Arc::new(Records::default())).unwrap();
        assert_eq!(g.points.len(), 480);
        assert!(g.points.windows(2).all(|w| w[0].point <= w[1].point));
        assert!(!g.record(12345).is_null());
    }

    #[test]
    fn a_23_byte_address_reads_whole_from_ip() {
        let servers: Vec<(&[u8], u32)> = vec![(b"aaaaaaaaaaaaaaaaaaaaaab", 1)];
        let g = Generation::new([0; 16], &servers, Arc::new(Records::default())).unwrap();
        // SAFETY: `ip` is followed by the record's padding, zero after a 23rd byte.
        let s = unsafe { core::ffi::CStr::from_ptr(g.points[0].ip.as_ptr()) };
        assert_eq!(s.to_bytes(), servers[0].0);
    }
}
