//! Scoring a fleet's keys: for each candidate ring (a profile and hash), how many keys sit
//! where it looks, and the first keys it looks for elsewhere.

use ketama_core::{Hash, Profile, Ring};

use crate::servers::{self, Fleet};

/// What one server holds.
#[derive(Clone, Debug)]
pub(crate) struct Holding {
    /// The server's label in the servers file.
    pub(crate) label: String,
    /// The command that listed the keys (`lru_crawler metadump all`, `SCAN`).
    pub(crate) listing: &'static str,
    /// Whether that command may miss keys (memcached's `stats cachedump`).
    pub(crate) partial: bool,
    /// How many distinct keys were listed.
    pub(crate) keys: usize,
    /// What the server counts (memcached's `curr_items`, Redis's `DBSIZE`).
    pub(crate) items: u64,
    /// Listing lines (memcached) or keys (Redis) skipped.
    pub(crate) bad_lines: u64,
}

/// A server that did not answer, or failed during its listing.
#[derive(Clone, Debug)]
pub(crate) struct Unreachable {
    /// The server's label.
    pub(crate) label: String,
    /// Why.
    pub(crate) error: String,
}

/// A key a profile looks for elsewhere.
#[derive(Clone, Debug)]
pub(crate) struct Misplaced {
    /// The key.
    pub(crate) key: Vec<u8>,
    /// The server holding it.
    pub(crate) on: String,
    /// Where the profile looks (`None`: the client refuses the key).
    pub(crate) expected: Option<String>,
}

/// One profile and hash scored against the fleet's contents.
#[derive(Clone, Debug)]
pub(crate) struct Score {
    /// The profile.
    pub(crate) profile: &'static Profile,
    /// The key hash.
    pub(crate) hash: Hash,
    /// Keys held where this profile looks, per server (holdings order).
    pub(crate) agree_per_server: Vec<usize>,
    /// How many keys it looks for elsewhere.
    pub(crate) misplaced: usize,
    /// The first misplaced keys (as many as asked for, in holdings order).
    pub(crate) shown: Vec<Misplaced>,
}

impl Score {
    /// Keys that agree, over all servers.
    pub(crate) fn agree(&self) -> usize {
        self.agree_per_server.iter().sum()
    }
}

/// One candidate's counts on one server: only counts grow with the keys; at most `keep`
/// misplaced keys are kept.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// Keys where the candidate looks.
    pub(crate) agree: usize,
    /// Keys it looks for elsewhere.
    pub(crate) misplaced: usize,
    /// The first of those.
    pub(crate) first: Vec<Misplaced>,
}

/// Scores the keys of one server against every candidate ring as they are listed.
#[derive(Debug)]
pub(crate) struct Scorer<'a> {
    rings: &'a [Ring],
    /// Per ring, the index of this server in it (`None`: the ring does not have it).
    index: Vec<Option<usize>>,
    label: String,
    keep: usize,
    /// Per ring, in order.
    pub(crate) tallies: Vec<Tally>,
}

impl<'a> Scorer<'a> {
    /// A scorer for the server `label`, keeping the first `keep` misplaced keys per ring.
    pub(crate) fn new(rings: &'a [Ring], label: &str, keep: usize) -> Scorer<'a> {
        Scorer {
            rings,
            index: rings
                .iter()
                .map(|r| r.servers().position(|s| s.label == label))
                .collect(),
            label: label.to_string(),
            keep,
            tallies: vec![Tally::default(); rings.len()],
        }
    }

    /// Counts one key held by this server; returns the first ring's verdict when it looks
    /// elsewhere.
    pub(crate) fn key(&mut self, key: &[u8]) -> Option<Misplaced> {
        let mut first = None;
        for (i, (ring, t)) in self.rings.iter().zip(&mut self.tallies).enumerate() {
            match ring.locate_index(key) {
                Ok(at) if Some(at) == self.index[i] => t.agree += 1,
                r => {
                    t.misplaced += 1;
                    if t.first.len() < self.keep || i == 0 {
                        let m = Misplaced {
                            key: key.to_vec(),
                            on: self.label.clone(),
                            expected: r
                                .ok()
                                .and_then(|at| ring.server(at))
                                .map(|s| s.label.clone()),
                        };
                        if t.first.len() < self.keep {
                            t.first.push(m.clone());
                        }
                        if i == 0 {
                            first = Some(m);
                        }
                    }
                }
            }
        }
        first
    }
}

/// Each ring's score from the tallies of every server that answered (holdings order).
pub(crate) fn scores(rings: &[Ring], per_server: &[Vec<Tally>], keep: usize) -> Vec<Score> {
    rings
        .iter()
        .enumerate()
        .map(|(i, ring)| {
            let mut shown = Vec::new();
            for t in per_server {
                let left = keep.saturating_sub(shown.len());
                shown.extend(t[i].first.iter().take(left).cloned());
            }
            Score {
                profile: ring.profile(),
                hash: ring.hash(),
                agree_per_server: per_server.iter().map(|t| t[i].agree).collect(),
                misplaced: per_server.iter().map(|t| t[i].misplaced).sum(),
                shown,
            }
        })
        .collect()
}

/// The rings `--detect` scores: every profile with its default and offered hashes (the
/// default first, then `ketama profiles` order). Profiles that cannot build a ring from this
/// fleet are left out.
pub(crate) fn candidates(fleet: &Fleet) -> Vec<Ring> {
    let mut rings = Vec::new();
    for p in Profile::all() {
        for &h in p.hashes {
            if let Ok(ring) = servers::ring(p, Some(h), fleet) {
                rings.push(ring);
            }
        }
    }
    rings
}

/// Best agreement first. Stable: equal scores keep the candidates' order, defaults first (a
/// client left at its default hash is the likelier explanation of a tie).
pub(crate) fn rank(mut scores: Vec<Score>) -> Vec<Score> {
    scores.sort_by_key(|s| {
        (
            std::cmp::Reverse(s.agree()),
            s.hash != s.profile.default_hash,
        )
    });
    scores
}

/// Share of `n` in `total` (0 when there are no keys).
pub(crate) fn share(n: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        n as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_agreement_and_misplacement() {
        let p = crate::args::profile("libmemcached-weighted").unwrap();
        let servers: Vec<_> = ["127.0.0.1:20001", "127.0.0.1:20002", "127.0.0.1:20003"]
            .iter()
            .map(|l| ketama_core::Server::parse(l, 1).unwrap())
            .collect();
        let ring = Ring::with_servers(p, None, servers.clone()).unwrap();
        let keys: Vec<Vec<u8>> = (0..300).map(|i| format!("k{i}").into_bytes()).collect();
        let mut held: Vec<Vec<Vec<u8>>> = vec![Vec::new(); 3];
        for k in &keys {
            held[ring.locate_index(k).unwrap()].push(k.clone());
        }
        // Keys moved by hand to a server where the profile does not look.
        let moved: Vec<Vec<u8>> = (0..3).map(|_| held[0].pop().unwrap()).collect();
        held[1].extend(moved.iter().cloned());
        let fleet = Fleet::from_servers("test", servers.clone());
        let mut rings = vec![ring];
        rings.extend(candidates(&fleet));
        let tallies: Vec<Vec<Tally>> = servers
            .iter()
            .zip(&held)
            .map(|(s, keys)| {
                let mut sc = Scorer::new(&rings, &s.label, 2);
                for k in keys {
                    sc.key(k);
                }
                sc.tallies
            })
            .collect();
        let all = scores(&rings, &tallies, 2);
        let s = &all[0];
        assert_eq!(s.agree(), 297);
        assert_eq!(s.misplaced, 3);
        // Only the first two are kept.
        assert_eq!(s.shown.len(), 2);
        assert_eq!(s.shown[0].key, moved[0]);
        assert_eq!(s.shown[0].on, "127.0.0.1:20002");
        assert_eq!(s.shown[0].expected.as_deref(), Some("127.0.0.1:20001"));
        let ranked = rank(all[1..].to_vec());
        assert_eq!(ranked[0].agree(), 297);
        assert!(ranked
            .iter()
            .take_while(|x| x.agree() == 297)
            .any(|x| x.profile.name == "libmemcached-weighted" && x.hash == Hash::Md5));
        assert!(ranked.iter().any(|x| x.agree() < 200));
        assert!(ranked.iter().all(|x| x.shown.len() <= 2));
    }
}
