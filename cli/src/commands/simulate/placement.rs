//! One interface over every placement algorithm `simulate --profile A,B,...` compares: the
//! ring profiles ([`Ring`]), the bucket functions ([`Bucketer`]) and the stateful AnchorHash,
//! MementoHash and JumpBackAnchorHash ([`Anchor`], [`Memento`], [`JumpBackAnchor`]), so they
//! run on the same keys and the same fleet changes.
//!
//! Servers are named by a global id (their place in the list of every server the simulation
//! uses, original and added); [`Placer::locate`] answers with that id.
//!
//! The algorithms that take a 64-bit input (bucket functions, anchor, memento,
//! jumpback-anchor) get the key's [`digest`]: the first 8 bytes of the key's MD5 digest, read
//! little-endian (its low 32 bits are libketama's key hash). A bucket function maps bucket `b`
//! to the `b`-th server of the list; it can only grow or shrink at the end, so a server failing
//! in the middle is replaced by the last server (swap-remove: the last server takes the failed
//! one's bucket), the least disruptive thing a list-based user can do.

use std::collections::HashMap;

use ketama_core::alt::anchor::Anchor;
use ketama_core::alt::bucket::{Bucket, Bucketer};
use ketama_core::alt::jumpback_anchor::JumpBackAnchor;
use ketama_core::alt::memento::Memento;
use ketama_core::hash::md5;
use ketama_core::{Profile, Ring, Server};

use crate::shared::Fail;

/// An algorithm named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    /// A client profile (ring, modulo, rendezvous, maglev, ...), with its default hash.
    Profile(&'static Profile),
    /// A bucket function over the server list, fed the key's [`digest`].
    Bucket(Bucket),
    /// AnchorHash over the server list, fed the key's [`digest`].
    Anchor,
    /// MementoHash over the server list, fed the key's [`digest`].
    Memento,
    /// hash4j's JumpBackAnchorHash over the server list, fed the key's [`digest`].
    JumpBackAnchor,
}

impl Algorithm {
    /// Resolves a name: a bucket function name first (`jump` is the paper's function on the
    /// 64-bit digest, not the `jump` profile on a 32-bit hash), then `anchor` and `memento`,
    /// then a profile.
    pub(crate) fn from_name(name: &str) -> Result<Algorithm, Fail> {
        if let Ok(b) = Bucket::from_name(name) {
            return Ok(Algorithm::Bucket(b));
        }
        match name {
            "anchor" => Ok(Algorithm::Anchor),
            "memento" => Ok(Algorithm::Memento),
            "jumpback-anchor" => Ok(Algorithm::JumpBackAnchor),
            _ => Profile::by_name(name).map(Algorithm::Profile).map_err(|_| {
                Fail::new(format!(
                    "unknown algorithm '{name}': expected a profile (see `ketama profiles`), a bucket \
                     function ({}), anchor, memento or jumpback-anchor",
                    Bucket::ALL.map(Bucket::name).join(", ")
                ))
            }),
        }
    }
}

/// The key's 64-bit input for the bucket functions, anchor and memento: MD5 digest bytes 0..8,
/// little-endian.
#[inline]
pub(crate) fn digest(key: &[u8]) -> u64 {
    let d = md5::digest(key);
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[..8]);
    u64::from_le_bytes(b)
}

/// A built placement structure answering with global server ids.
#[derive(Clone, Debug)]
pub(crate) enum Placer {
    /// A profile's ring; `ids[i]` is the id of the ring's `i`-th server.
    Ring {
        /// The ring.
        ring: Ring,
        /// Ring index -> id.
        ids: Vec<u32>,
    },
    /// A bucket function; bucket `b` is server `ids[b]`.
    Bucket {
        /// The function at the current bucket count.
        f: Bucketer,
        /// Bucket -> id.
        ids: Vec<u32>,
    },
    /// AnchorHash; bucket `b` is server `ids[b]` (`u32::MAX`: no server).
    Anchor {
        /// The anchor.
        a: Anchor,
        /// Bucket -> id.
        ids: Vec<u32>,
    },
    /// MementoHash; bucket `b` is server `ids[b]` (`u32::MAX`: no server).
    Memento {
        /// The memento.
        m: Memento,
        /// Bucket -> id.
        ids: Vec<u32>,
    },
    /// JumpBackAnchorHash; bucket `b` is server `ids[b]` (`u32::MAX`: no server).
    JumpBackAnchor {
        /// The bucket set.
        j: JumpBackAnchor,
        /// Bucket -> id.
        ids: Vec<u32>,
    },
}

/// The id of every server label the simulation uses.
pub(crate) type Ids = HashMap<String, u32>;

fn id_of(ids: &Ids, label: &str) -> Result<u32, Fail> {
    ids.get(label)
        .copied()
        .ok_or_else(|| Fail::new(format!("server {label} has no id")))
}

fn bucket_ids(servers: &[Server], ids: &Ids) -> Result<Vec<u32>, Fail> {
    servers.iter().map(|s| id_of(ids, &s.label)).collect()
}

fn err(what: &str, e: impl std::fmt::Display) -> Fail {
    Fail::new(format!("{what}: {e}"))
}

impl Placer {
    /// Builds `alg` over `servers` (`capacity`: AnchorHash's bucket count, at least the most
    /// servers the simulation will hold).
    pub(crate) fn build(
        alg: Algorithm,
        servers: &[Server],
        ids: &Ids,
        capacity: u32,
    ) -> Result<Placer, Fail> {
        let labels = || servers.iter().map(|s| s.label.clone());
        Ok(match alg {
            Algorithm::Profile(p) => {
                let ring =
                    Ring::build(p, None, servers.to_vec()).map_err(|e| err(p.name, e.error))?;
                Placer::Ring {
                    ids: bucket_ids(servers, ids)?,
                    ring,
                }
            }
            Algorithm::Bucket(b) => {
                let n = u32::try_from(servers.len()).map_err(|e| err(b.name(), e))?;
                Placer::Bucket {
                    f: Bucketer::new(b, n).map_err(|e| err(b.name(), e))?,
                    ids: bucket_ids(servers, ids)?,
                }
            }
            Algorithm::Anchor => {
                let a = Anchor::new(capacity, labels()).map_err(|e| err("anchor", e))?;
                let mut v = vec![u32::MAX; capacity as usize];
                for (b, s) in servers.iter().enumerate() {
                    v[b] = id_of(ids, &s.label)?;
                }
                Placer::Anchor { a, ids: v }
            }
            Algorithm::Memento => {
                let m = Memento::new(labels()).map_err(|e| err("memento", e))?;
                Placer::Memento {
                    m,
                    ids: bucket_ids(servers, ids)?,
                }
            }
            Algorithm::JumpBackAnchor => {
                let n = u32::try_from(servers.len()).map_err(|e| err("jumpback-anchor", e))?;
                Placer::JumpBackAnchor {
                    j: JumpBackAnchor::with_buckets(n).map_err(|e| err("jumpback-anchor", e))?,
                    ids: bucket_ids(servers, ids)?,
                }
            }
        })
    }

    /// The id of the server `key` goes to; `None` when the algorithm refuses the key.
    #[inline]
    pub(crate) fn locate(&self, key: &[u8]) -> Option<u32> {
        match self {
            Placer::Ring { ring, ids } => ring.locate_index(key).ok().map(|i| ids[i]),
            Placer::Bucket { f, ids } => f.get(digest(key)).ok().map(|b| ids[b as usize]),
            Placer::Anchor { a, ids } => a.bucket(digest(key)).ok().map(|b| ids[b as usize]),
            Placer::Memento { m, ids } => m.bucket(digest(key)).ok().map(|b| ids[b as usize]),
            Placer::JumpBackAnchor { j, ids } => {
                j.bucket(digest(key)).ok().map(|b| ids[b as usize])
            }
        }
    }

    /// The same structure after adding `added` at the end of the list (rings are rebuilt from
    /// `fleet`, the new list; anchor and memento apply their `add`).
    pub(crate) fn with_added(
        &self,
        fleet: &[Server],
        added: &[Server],
        ids: &Ids,
    ) -> Result<Placer, Fail> {
        let mut next = self.clone();
        match &mut next {
            Placer::Ring { ring, ids: v } => {
                *ring = Ring::build(ring.profile(), None, fleet.to_vec())
                    .map_err(|e| err(ring.profile().name, e.error))?;
                *v = bucket_ids(fleet, ids)?;
            }
            Placer::Bucket { f, ids: v } => {
                for s in added {
                    v.push(id_of(ids, &s.label)?);
                }
                *f = Bucketer::new(f.algorithm(), v.len() as u32)
                    .map_err(|e| err(f.algorithm().name(), e))?;
            }
            Placer::Anchor { a, ids: v } => {
                for s in added {
                    let b = a.add(s.label.clone()).map_err(|e| err("anchor add", e))?;
                    v[b as usize] = id_of(ids, &s.label)?;
                }
            }
            Placer::Memento { m, ids: v } => {
                for s in added {
                    let b = m.add(s.label.clone()).map_err(|e| err("memento add", e))? as usize;
                    if v.len() <= b {
                        v.resize(b + 1, u32::MAX);
                    }
                    v[b] = id_of(ids, &s.label)?;
                }
            }
            Placer::JumpBackAnchor { j, ids: v } => {
                for s in added {
                    let b = j.add_bucket().map_err(|e| err("jumpback-anchor add", e))? as usize;
                    if v.len() <= b {
                        v.resize(b + 1, u32::MAX);
                    }
                    v[b] = id_of(ids, &s.label)?;
                }
            }
        }
        Ok(next)
    }

    /// The same structure after removing `gone` (labels); `fleet` is the list without them.
    /// A bucket function swap-removes each (see the module docs).
    pub(crate) fn with_removed(
        &self,
        fleet: &[Server],
        gone: &[&str],
        ids: &Ids,
    ) -> Result<Placer, Fail> {
        let mut next = self.clone();
        match &mut next {
            Placer::Ring { ring, ids: v } => {
                *ring = Ring::build(ring.profile(), None, fleet.to_vec())
                    .map_err(|e| err(ring.profile().name, e.error))?;
                *v = bucket_ids(fleet, ids)?;
            }
            Placer::Bucket { f, ids: v } => {
                for label in gone {
                    let id = id_of(ids, label)?;
                    let at = v
                        .iter()
                        .position(|&x| x == id)
                        .ok_or_else(|| Fail::new(format!("{label} is not in the fleet")))?;
                    v.swap_remove(at);
                }
                *f = Bucketer::new(f.algorithm(), v.len() as u32)
                    .map_err(|e| err(f.algorithm().name(), e))?;
            }
            Placer::Anchor { a, ids: v } => {
                for label in gone {
                    let b = a.remove(label).map_err(|e| err("anchor remove", e))?;
                    v[b as usize] = u32::MAX;
                }
            }
            Placer::Memento { m, ids: v } => {
                for label in gone {
                    let b = m.remove(label).map_err(|e| err("memento remove", e))?;
                    v[b as usize] = u32::MAX;
                }
            }
            Placer::JumpBackAnchor { j, ids: v } => {
                for label in gone {
                    let id = id_of(ids, label)?;
                    let b = v
                        .iter()
                        .position(|&x| x == id)
                        .filter(|&b| j.remove_bucket(b as u32))
                        .ok_or_else(|| Fail::new(format!("{label} is not in the fleet")))?;
                    v[b] = u32::MAX;
                }
            }
        }
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fleet(n: usize) -> (Vec<Server>, Ids) {
        let servers: Vec<Server> = (0..n)
            .map(|i| Server::parse(&format!("10.0.0.1:{}", 11211 + i), 1).unwrap())
            .collect();
        let ids = servers
            .iter()
            .enumerate()
            .map(|(i, s)| (s.label.clone(), i as u32))
            .collect();
        (servers, ids)
    }

    fn keys() -> Vec<Vec<u8>> {
        (0..5000).map(|i| format!("key:{i}").into_bytes()).collect()
    }

    #[test]
    fn names() {
        assert_eq!(
            Algorithm::from_name("jump").unwrap(),
            Algorithm::Bucket(Bucket::Jump)
        );
        assert_eq!(Algorithm::from_name("anchor").unwrap(), Algorithm::Anchor);
        assert!(matches!(
            Algorithm::from_name("libketama").unwrap(),
            Algorithm::Profile(_)
        ));
        assert!(Algorithm::from_name("bogus").is_err());
    }

    #[test]
    fn digest_low_word_is_libketamas_hash() {
        let d = digest(b"hello");
        assert_eq!(d as u32, ketama_core::hash::md5::ketama(b"hello"));
    }

    /// Removing a server in the middle moves only its keys for anchor and memento, and its
    /// keys plus the last server's for a swap-removing bucket function.
    #[test]
    fn failing_server_moves() {
        let (servers, ids) = fleet(10);
        let gone = servers[4].label.clone();
        let rest: Vec<Server> = servers
            .iter()
            .filter(|s| s.label != gone)
            .cloned()
            .collect();
        for alg in [
            Algorithm::Anchor,
            Algorithm::Memento,
            Algorithm::JumpBackAnchor,
            Algorithm::Bucket(Bucket::Jump),
        ] {
            let p = Placer::build(alg, &servers, &ids, 20).unwrap();
            let q = p.with_removed(&rest, &[gone.as_str()], &ids).unwrap();
            for k in keys() {
                let (a, b) = (p.locate(&k).unwrap(), q.locate(&k).unwrap());
                assert_ne!(b, 4, "{alg:?}: a key still on the failed server");
                if a != b {
                    let allowed = a == 4 || (alg == Algorithm::Bucket(Bucket::Jump) && a == 9);
                    assert!(allowed, "{alg:?}: a key moved from {a} to {b}");
                }
            }
            // Re-adding restores anchor's and memento's placement exactly.
            if alg != Algorithm::Bucket(Bucket::Jump) {
                let back = q.with_added(&servers, &servers[4..5], &ids).unwrap();
                for k in keys() {
                    assert_eq!(p.locate(&k), back.locate(&k), "{alg:?}");
                }
            }
        }
    }
}
