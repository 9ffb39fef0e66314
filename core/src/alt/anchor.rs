//! AnchorHash (Mendelson, Bruck, Jaeger, Shavitt, Mendelson: "AnchorHash: A Scalable Consistent
//! Hash", IEEE/ACM Transactions on Networking 29.2, 2020), the paper's memory-light variant
//! (arrays A, W, L, K and the removed-bucket stack R), over a list of named servers.
//!
//! An anchor of `capacity` buckets holds the servers. Removing a server removes its bucket:
//! only the keys on it move, spread evenly over the working buckets. Adding a server takes the
//! most recently removed bucket (AnchorHash's stack `R`), so only keys moving *to* the new server
//! move. Which bucket a server gets therefore depends on the history: the state is fully
//! determined by the initial server list and the sequence of adds and removes, and every process
//! that applies the same changes in the same order gives the same answers.
//!
//! Keys are 64-bit digests (hash your key first); bucket choices use SplitMix64's finaliser
//! ([`crate::alt::rendezvous::mix64`]) seeded by the bucket, `hash_b(k) = mix64(k ^ mix64(b + 1))`,
//! and `hash(k) = mix64(k)`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::alt::rendezvous::mix64;
use crate::error::Error;
use crate::server::endpoint_key;

/// An AnchorHash over named servers.
#[derive(Clone, Debug)]
pub struct Anchor {
    /// `A[b]`: 0 for a working bucket, else the working-set size right after `b` was removed.
    a: Vec<u32>,
    /// `W`: the working buckets in positions `0..n` (positions past `n` are stale).
    w: Vec<u32>,
    /// `L[b]`: the position of bucket `b` in `W`.
    l: Vec<u32>,
    /// `K[b]`: the bucket that took `b`'s position when `b` was removed (`b` itself if working).
    k: Vec<u32>,
    /// `R`: removed buckets, most recent last.
    removed: Vec<u32>,
    /// Working-set size.
    n: u32,
    /// The server on each working bucket.
    labels: Vec<Option<String>>,
    by_label: BTreeMap<String, u32>,
}

fn seeded(key: u64, bucket: u32) -> u64 {
    mix64(key ^ mix64(u64::from(bucket) + 1))
}

impl Anchor {
    /// An anchor of `capacity` buckets (at least 1, at most 2^31 - 1) holding `servers`, which
    /// take buckets `0, 1, ...` in order; the remaining buckets start removed, as in the paper's
    /// `INITANCHOR(a, w)`. `Error::ZeroBuckets` for a capacity of 0, `Error::TooManyBuckets`
    /// above 2^31 - 1, `Error::TooManyServers` when there are more servers than buckets,
    /// `Error::DuplicateServer` for a repeated label.
    pub fn new<I, S>(capacity: u32, servers: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        if capacity == 0 {
            return Err(Error::ZeroBuckets);
        }
        if capacity > i32::MAX as u32 {
            return Err(Error::TooManyBuckets);
        }
        let labels: Vec<String> = servers.into_iter().map(Into::into).collect();
        let working = u32::try_from(labels.len()).map_err(|_| Error::TooManyServers)?;
        if working > capacity {
            return Err(Error::TooManyServers);
        }
        let mut by_label = BTreeMap::new();
        for (i, label) in labels.iter().enumerate() {
            if by_label.insert(endpoint_key(label), i as u32).is_some() {
                return Err(Error::DuplicateServer);
            }
        }
        let ids: Vec<u32> = (0..capacity).collect();
        let mut a = alloc::vec![0u32; capacity as usize];
        // Buckets working..capacity start removed, the highest first, so A[b] = b.
        let removed: Vec<u32> = (working..capacity).rev().collect();
        for &b in &removed {
            a[b as usize] = b;
        }
        let mut slots: Vec<Option<String>> = labels.into_iter().map(Some).collect();
        slots.resize(capacity as usize, None);
        Ok(Anchor {
            a,
            w: ids.clone(),
            l: ids.clone(),
            k: ids,
            removed,
            n: working,
            labels: slots,
            by_label,
        })
    }

    /// The number of buckets (fixed at construction).
    pub fn capacity(&self) -> u32 {
        self.a.len() as u32
    }

    /// The number of servers.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// Whether there is no server.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The servers with their buckets, in bucket order.
    pub fn servers(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.labels
            .iter()
            .enumerate()
            .filter_map(|(b, s)| s.as_deref().map(|s| (b as u32, s)))
    }

    /// The bucket of server `label`, if it is on the anchor.
    pub fn bucket_of(&self, label: &str) -> Option<u32> {
        self.by_label.get(&endpoint_key(label)).copied()
    }

    /// Adds a server on the most recently removed bucket; returns that bucket.
    /// `Error::DuplicateServer`, or `Error::TooManyServers` when every bucket is in use.
    pub fn add(&mut self, label: impl Into<String>) -> Result<u32, Error> {
        let label = label.into();
        if self.by_label.contains_key(&endpoint_key(&label)) {
            return Err(Error::DuplicateServer);
        }
        let b = self.removed.pop().ok_or(Error::TooManyServers)?;
        let (bu, nu) = (b as usize, self.n as usize);
        // Undo b's removal: the bucket that filled b's position goes back to position n.
        self.a[bu] = 0;
        let moved = self.w[nu];
        self.l[moved as usize] = self.n;
        self.w[self.l[bu] as usize] = b;
        self.k[bu] = b;
        self.n += 1;
        self.labels[bu] = Some(label.clone());
        self.by_label.insert(endpoint_key(&label), b);
        Ok(b)
    }

    /// Removes server `label`; returns its bucket. `Error::MissingServer` if absent.
    pub fn remove(&mut self, label: &str) -> Result<u32, Error> {
        let b = self
            .by_label
            .remove(&endpoint_key(label))
            .ok_or(Error::MissingServer)?;
        let bu = b as usize;
        self.removed.push(b);
        self.n -= 1;
        self.a[bu] = self.n;
        // The last working bucket takes b's position.
        let last = self.w[self.n as usize];
        self.w[self.l[bu] as usize] = last;
        self.l[last as usize] = self.l[bu];
        self.k[bu] = last;
        self.labels[bu] = None;
        Ok(b)
    }

    /// The bucket of `key` (a 64-bit digest): the paper's `GETBUCKET`. `Error::EmptyRing`
    /// when no server is left.
    pub fn bucket(&self, key: u64) -> Result<u32, Error> {
        if self.n == 0 {
            return Err(Error::EmptyRing);
        }
        let cap = self.a.len() as u64;
        let mut b = (mix64(key) % cap) as u32;
        loop {
            let ab = self.a[b as usize];
            if ab == 0 {
                return Ok(b);
            }
            // A position in the working set as it was right after b's removal ...
            let mut h = (seeded(key, b) % u64::from(ab)) as u32;
            // ... held by h, or by whoever replaced h if h was removed before b.
            while self.a[h as usize] >= ab {
                h = self.k[h as usize];
            }
            b = h;
        }
    }

    /// The server of `key` (a 64-bit digest).
    pub fn locate(&self, key: u64) -> Result<&str, Error> {
        let b = self.bucket(key)?;
        self.labels[b as usize].as_deref().ok_or(Error::NoServer)
    }
}
