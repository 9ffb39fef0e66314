//! The two placements of a migration: OLD (the fleet as today's clients see it) and NEW (as
//! tomorrow's will), and what happens to a key listed on an OLD server.
//!
//! A label in both fleets is the same server, and so are an OLD and a NEW server joined by
//! [`Placement::join`] (one server under two labels, found by its identity: see `same`). A
//! key listed on OLD server S *moves* when the OLD placement names S for it (else it is
//! *stale*: no client finds it there, so it is not copied) and the NEW placement names
//! another server.

use std::collections::HashMap;

use ketama_core::{Ring, Server};

use crate::backend::{Endpoint, Side};

/// One fleet: its servers in file order, where each listens, and its ring.
#[derive(Clone, Debug)]
pub struct Fleet {
    /// What the fleet is called in reports (its servers file).
    pub name: String,
    /// The servers, in file order.
    pub servers: Vec<Server>,
    /// Each server's label and address, in file order.
    pub endpoints: Vec<Endpoint>,
    /// The placement of the fleet's clients.
    pub ring: Ring,
    /// Ring index -> file position.
    pos: Vec<usize>,
}

/// The address to connect to for a server of a servers file.
pub fn address(s: &Server) -> String {
    if s.host.contains(':') {
        format!("[{}]:{}", s.host, s.port)
    } else {
        format!("{}:{}", s.host, s.port)
    }
}

impl Fleet {
    /// A fleet of `servers` (file order) placed by `ring` (built from them), each reached at
    /// its own `host:port` (its side is set by [`Placement::new`]).
    pub fn new(name: &str, servers: Vec<Server>, ring: Ring) -> Fleet {
        let endpoints = servers
            .iter()
            .map(|s| Endpoint {
                label: s.label.clone(),
                addr: address(s),
                side: Side::Old,
            })
            .collect();
        Fleet::with_endpoints(name, servers, endpoints, ring)
    }

    /// The fleet of `ring`'s servers, in ring order, each label reached at `address(label)`
    /// (e.g. local processes standing in for the labels).
    pub fn from_ring(name: &str, ring: Ring, address: impl Fn(&str) -> String) -> Fleet {
        let servers: Vec<Server> = ring.servers().cloned().collect();
        let endpoints = servers
            .iter()
            .map(|s| Endpoint {
                label: s.label.clone(),
                addr: address(&s.label),
                side: Side::Old,
            })
            .collect();
        Fleet::with_endpoints(name, servers, endpoints, ring)
    }

    fn with_endpoints(
        name: &str,
        servers: Vec<Server>,
        endpoints: Vec<Endpoint>,
        ring: Ring,
    ) -> Fleet {
        let by_label: HashMap<&str, usize> = servers
            .iter()
            .enumerate()
            .map(|(i, s)| (s.label.as_str(), i))
            .collect();
        let pos = (0..ring.len())
            .map(|i| {
                ring.server(i)
                    .and_then(|s| by_label.get(s.label.as_str()).copied())
                    .unwrap_or(usize::MAX)
            })
            .collect();
        Fleet {
            name: name.to_string(),
            servers,
            endpoints,
            ring,
            pos,
        }
    }

    /// The servers' labels, in file order.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.endpoints.iter().map(|e| e.label.as_str())
    }

    /// The label of server `i` (file position).
    pub fn label(&self, i: usize) -> &str {
        &self.endpoints[i].label
    }

    /// How many servers.
    pub fn len(&self) -> usize {
        self.endpoints.len()
    }

    /// Whether the fleet has no server.
    pub fn is_empty(&self) -> bool {
        self.endpoints.is_empty()
    }

    /// The server (file position) the ring names for `key`.
    pub fn owner(&self, key: &[u8]) -> Option<usize> {
        self.ring.locate_index(key).ok().map(|i| self.pos[i])
    }
}

/// What happens to a key listed on an OLD server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// The OLD placement looks elsewhere: no client finds it here; not copied.
    Stale,
    /// Both placements name this server.
    Stays,
    /// The NEW placement names this server (position in the NEW file).
    Moves(usize),
    /// The NEW placement has no server for it (the NEW client refuses the key).
    NoNewOwner,
}

/// OLD and NEW fleets.
#[derive(Clone, Debug)]
pub struct Placement {
    /// The fleet as today's clients see it.
    pub old: Fleet,
    /// The fleet as tomorrow's clients will.
    pub new: Fleet,
    /// For each OLD server, its position in NEW (same label, or the same server under
    /// another label: [`Placement::join`]).
    pub old_in_new: Vec<Option<usize>>,
}

impl Placement {
    /// The migration from `old` to `new` (their endpoints get their side).
    pub fn new(mut old: Fleet, mut new: Fleet) -> Placement {
        for (f, side) in [(&mut old, Side::Old), (&mut new, Side::New)] {
            f.endpoints.iter_mut().for_each(|e| e.side = side);
        }
        let old_in_new = old
            .labels()
            .map(|l| new.labels().position(|n| n == l))
            .collect();
        Placement {
            old,
            new,
            old_in_new,
        }
    }

    /// Records that OLD server `old` and NEW server `new` (file positions) are one server
    /// under two labels: a key between them stays.
    pub fn join(&mut self, old: usize, new: usize) {
        if let Some(slot) = self.old_in_new.get_mut(old) {
            *slot = Some(new);
        }
    }

    /// What happens to `key` listed on OLD server `src`.
    pub fn fate(&self, src: usize, key: &[u8]) -> Fate {
        if self.old.owner(key) != Some(src) {
            return Fate::Stale;
        }
        match self.new.owner(key) {
            Some(j) if Some(j) == self.old_in_new[src] => Fate::Stays,
            Some(j) => Fate::Moves(j),
            None => Fate::NoNewOwner,
        }
    }

    /// A one-line description: "OLD (n servers, profile / hash) -> NEW (...)".
    pub fn describe(&self) -> String {
        let one = |f: &Fleet| {
            format!(
                "{} ({} servers, {} / {})",
                f.name,
                f.len(),
                f.ring.profile().name,
                f.ring.hash().name()
            )
        };
        format!("{} -> {}", one(&self.old), one(&self.new))
    }

    /// Whether nothing can move: same servers, same placement.
    pub fn is_identity(&self) -> bool {
        self.old.labels().eq(self.new.labels())
            && self.old.ring.profile().name == self.new.ring.profile().name
            && self.old.ring.hash() == self.new.ring.hash()
            && self.old.servers == self.new.servers
    }
}
