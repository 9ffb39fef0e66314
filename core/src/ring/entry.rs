//! A server on the ring with what the ring derived from it, and the client's server order.

use alloc::sync::Arc;
use core::ops::Deref;

use super::key::latin1_owned;
use crate::error::Error;
use crate::hash::md5;
use crate::profile::{KeyRewrite, Order, Profile};
use crate::server::Server;

/// A node string, shared between snapshots (a change clones every entry: reference counts,
/// not strings), with the bytes the client hashes for it when they are not its UTF-8.
#[derive(Clone, Debug)]
pub(super) struct Node {
    text: Arc<str>,
    encoded: Option<Arc<[u8]>>,
}

impl Node {
    /// The node string.
    pub(super) fn as_str(&self) -> &str {
        &self.text
    }

    /// The bytes the client hashes for the node string (its UTF-8, or its latin-1 where the
    /// client encodes text so).
    pub(super) fn as_bytes(&self) -> &[u8] {
        self.encoded.as_deref().unwrap_or(self.text.as_bytes())
    }
}

impl Deref for Node {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

/// A server with its node string, its share of point strings and its place in the order.
/// Cloning one (every change clones the list) copies two pointers, not the strings.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) server: Arc<Server>,
    /// The node string the client hashes.
    pub(super) node: Node,
    /// How many point strings it currently has on the continuum.
    pub(super) strings: u32,
    /// Its place in the client's server order (see [`Order`]); decides ties and slots.
    pub(super) rank: u32,
    /// 64 bits of MD5 of the node string (rendezvous scores, maglev permutations), computed
    /// once when the server joins.
    pub(super) node_hash: u64,
}

impl Entry {
    /// The entry for a server joining a ring of `profile` at `place` (from 0) in its list.
    /// [`Error::Unsupported`] when the client cannot encode the node string.
    pub(super) fn new(profile: &Profile, server: Server, place: usize) -> Result<Entry, Error> {
        let text = profile.node.node_string(&server, profile.names, place)?;
        let encoded = match profile.key {
            KeyRewrite::Latin1 => Some(Arc::from(latin1_owned(&text).ok_or(Error::Unsupported)?)),
            _ => None,
        };
        let node = Node {
            text: Arc::from(text),
            encoded,
        };
        let d = md5::digest(node.as_bytes());
        let node_hash = (u64::from(md5::word_le(&d, 0)) << 32) | u64::from(md5::word_le(&d, 1));
        Ok(Entry {
            server: Arc::new(server),
            node,
            strings: 0,
            rank: 0,
            node_hash,
        })
    }
}

/// Sets each entry's place in the client's server order. Adding or removing a server never
/// changes the relative order of the others, so points already sorted stay sorted.
pub(super) fn rank(order: Order, entries: &mut [Entry]) {
    let ranks = order_ranks(order, entries.len(), |i| entries[i].node.as_bytes());
    for (e, r) in entries.iter_mut().zip(ranks) {
        e.rank = r;
    }
}

/// The place of each of `n` servers (node string of server i: `node(i)`) in the client's
/// server order.
pub(super) fn order_ranks<'a>(
    order: Order,
    n: usize,
    node: impl Fn(usize) -> &'a [u8],
) -> alloc::vec::Vec<u32> {
    match order {
        Order::Given => (0..n as u32).collect(),
        Order::NodeLengthThenBytes => {
            let mut idx: alloc::vec::Vec<usize> = (0..n).collect();
            idx.sort_by(|&a, &b| {
                let (x, y) = (node(a), node(b));
                x.len().cmp(&y.len()).then(x.cmp(y)).then(a.cmp(&b))
            });
            let mut ranks = alloc::vec![0u32; n];
            for (r, i) in idx.into_iter().enumerate() {
                ranks[i] = r as u32;
            }
            ranks
        }
    }
}
