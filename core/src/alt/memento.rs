//! MementoHash (Coluzzi, Brocco, Antonucci, Leidi: "MementoHash: A Stateful, Minimal Memory,
//! Best Performing Consistent Hash Algorithm", IEEE/ACM Transactions on Networking, 2024) over a
//! list of named servers.
//!
//! Jump hash (Lamping & Veach, [`crate::alt::jump::jump`]) over `0..size` buckets, plus a
//! "memento" of removed buckets: for each, its replacer (the working count right after its
//! removal) and the previously removed bucket. A key whose jump bucket was removed is rehashed
//! into `0..replacer`, following replacers of buckets removed earlier, until it lands on a
//! working bucket. Removing a server moves only its keys; adding one restores the most
//! recently removed bucket (or grows the range when nothing is removed), so only keys moving
//! to it move. The state is determined by the initial list and the sequence of changes: every
//! process applying the same changes in the same order gives the same answers.
//!
//! Keys are 64-bit digests; the rehash is `mix64(key ^ mix64(b + 1))` (SplitMix64's finaliser,
//! [`crate::alt::rendezvous::mix64`]).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::alt::jump::jump;
use crate::alt::rendezvous::mix64;
use crate::error::Error;
use crate::server::endpoint_key;

/// What the memento remembers about a removed bucket.
#[derive(Clone, Copy, Debug)]
struct Removed {
    /// The working-bucket count right after the removal.
    replacer: u32,
    /// The bucket removed just before this one (`size` when none).
    previous: u32,
}

/// A MementoHash over named servers.
#[derive(Clone, Debug)]
pub struct Memento {
    /// Jump's range: buckets `0..size`.
    size: u32,
    /// The memento, indexed by bucket (`None`: working).
    removed: Vec<Option<Removed>>,
    /// How many buckets are removed.
    removed_count: u32,
    /// The most recently removed bucket (`size` when none).
    last_removed: u32,
    labels: Vec<Option<String>>,
    by_label: BTreeMap<String, u32>,
}

fn seeded(key: u64, bucket: u32) -> u64 {
    mix64(key ^ mix64(u64::from(bucket) + 1))
}

impl Memento {
    /// A memento over `servers`, which take buckets `0, 1, ...` in order.
    /// `Error::DuplicateServer` for a repeated label, `Error::TooManyServers` past 2^31 - 1.
    pub fn new<I, S>(servers: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut m = Memento {
            size: 0,
            removed: Vec::new(),
            removed_count: 0,
            last_removed: 0,
            labels: Vec::new(),
            by_label: BTreeMap::new(),
        };
        for s in servers {
            m.add(s)?;
        }
        Ok(m)
    }

    /// The number of servers.
    pub fn len(&self) -> usize {
        (self.size - self.removed_count) as usize
    }

    /// Whether there is no server.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Jump's range (working and removed buckets).
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The servers with their buckets, in bucket order.
    pub fn servers(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.labels
            .iter()
            .enumerate()
            .filter_map(|(b, s)| s.as_deref().map(|s| (b as u32, s)))
    }

    /// The bucket of server `label`, if present.
    pub fn bucket_of(&self, label: &str) -> Option<u32> {
        self.by_label.get(&endpoint_key(label)).copied()
    }

    /// Adds a server on the most recently removed bucket, or on a new bucket at the end of the
    /// range when none is removed; returns the bucket.
    pub fn add(&mut self, label: impl Into<String>) -> Result<u32, Error> {
        let label = label.into();
        if self.by_label.contains_key(&endpoint_key(&label)) {
            return Err(Error::DuplicateServer);
        }
        let b = if self.removed_count == 0 {
            if self.size >= i32::MAX as u32 {
                return Err(Error::TooManyServers);
            }
            let b = self.size;
            self.size += 1;
            self.removed.push(None);
            self.labels.push(None);
            self.last_removed = self.size;
            b
        } else {
            let b = self.last_removed;
            let entry = self.removed[b as usize].take().ok_or(Error::NoServer)?;
            self.removed_count -= 1;
            self.last_removed = entry.previous;
            b
        };
        self.labels[b as usize] = Some(label.clone());
        self.by_label.insert(endpoint_key(&label), b);
        Ok(b)
    }

    /// Removes server `label`; returns its bucket. The last bucket with nothing else removed
    /// shrinks the range (plain jump); any other is remembered.
    pub fn remove(&mut self, label: &str) -> Result<u32, Error> {
        let b = self
            .by_label
            .remove(&endpoint_key(label))
            .ok_or(Error::MissingServer)?;
        self.labels[b as usize] = None;
        if self.removed_count == 0 && b + 1 == self.size {
            self.size = b;
            self.removed.pop();
            self.labels.pop();
            self.last_removed = self.size;
            return Ok(b);
        }
        let working = self.size - self.removed_count;
        self.removed[b as usize] = Some(Removed {
            replacer: working - 1,
            previous: self.last_removed,
        });
        self.removed_count += 1;
        self.last_removed = b;
        Ok(b)
    }

    fn replacer(&self, b: u32) -> Option<u32> {
        self.removed
            .get(b as usize)
            .copied()
            .flatten()
            .map(|r| r.replacer)
    }

    /// The bucket of `key` (a 64-bit digest). `Error::EmptyRing` when no server is left.
    pub fn bucket(&self, key: u64) -> Result<u32, Error> {
        if self.is_empty() {
            return Err(Error::EmptyRing);
        }
        let mut b = jump(key, self.size);
        let mut r = self.replacer(b);
        while let Some(replacer) = r {
            // Rehash into the working count right after b's removal ...
            let mut h = (seeded(key, b) % u64::from(replacer)) as u32;
            let mut u = self.replacer(h);
            // ... following buckets removed before b to the bucket that replaced them.
            while let Some(next) = u.filter(|&u| u >= replacer) {
                h = next;
                u = self.replacer(h);
            }
            b = h;
            r = u;
        }
        Ok(b)
    }

    /// The server of `key` (a 64-bit digest).
    pub fn locate(&self, key: u64) -> Result<&str, Error> {
        let b = self.bucket(key)?;
        self.labels
            .get(b as usize)
            .and_then(Option::as_deref)
            .ok_or(Error::NoServer)
    }
}
