//! Rendezvous over one hash of a string joining each node string with the key (pymemcache's
//! `RendezvousHash`, emcache's `node_selection`): the highest score wins, the profile's
//! [`ScoreTies`] settles equal scores.

use alloc::vec::Vec;

use super::compiled::Ring;
use crate::error::Error;
use crate::profile::{Join, ScoreTies};

/// Joined strings up to this length are built on the stack; longer ones (long host names
/// with long rewritten keys) on the heap.
const JOINED: usize = 1536;

impl Ring {
    /// The hash of node `i`'s string joined with the (prepared) key.
    fn joined_score(&self, join: Join, i: usize, key: &[u8], stack: &mut [u8; JOINED]) -> u32 {
        let node = self.entries[i].node.as_bytes();
        let (a, sep, b): (&[u8], &[u8], &[u8]) = match join {
            Join::NodeDashKey => (node, b"-", key),
            Join::KeyNode => (key, b"", node),
        };
        let len = a.len() + sep.len() + b.len();
        if len <= JOINED {
            stack[..a.len()].copy_from_slice(a);
            stack[a.len()..a.len() + sep.len()].copy_from_slice(sep);
            stack[a.len() + sep.len()..len].copy_from_slice(b);
            self.hash.hash(&stack[..len])
        } else {
            let mut v = Vec::with_capacity(len);
            v.extend_from_slice(a);
            v.extend_from_slice(sep);
            v.extend_from_slice(b);
            self.hash.hash(&v)
        }
    }

    /// The server with the highest score for a prepared key among those not in `skip`
    /// (a skipped server is as if it had left the client's list).
    pub(super) fn scored_best(
        &self,
        join: Join,
        ties: ScoreTies,
        key: &[u8],
        skip: &[usize],
    ) -> Result<usize, Error> {
        let mut stack = [0u8; JOINED];
        let mut best: Option<(u32, usize)> = None;
        for i in 0..self.entries.len() {
            if skip.contains(&i) {
                continue;
            }
            let s = self.joined_score(join, i, key, &mut stack);
            let take = match best {
                None => true,
                Some((b, _)) if s != b => s > b,
                Some((_, w)) => match ties {
                    ScoreTies::GreaterNode => {
                        self.entries[i].node.as_bytes() > self.entries[w].node.as_bytes()
                    }
                    ScoreTies::GreaterNodeHash => {
                        self.hash.hash(self.entries[i].node.as_bytes())
                            > self.hash.hash(self.entries[w].node.as_bytes())
                    }
                },
            };
            if take {
                best = Some((s, i));
            }
        }
        best.map(|(_, i)| i).ok_or(Error::NoServer)
    }
}
