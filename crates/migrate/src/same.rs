//! One server under two labels: `127.0.0.1:11211` in OLD and `localhost:11211` in NEW, or
//! `[::1]:11211` and `[0:0::1]:11211`, are one server, whatever the files call them. Taken for
//! two, a key "moving" between the labels would be "copied" onto itself and then, with
//! `--delete-moved`, deleted: its only copy.
//!
//! The rule: two servers are one when they answer with one [`Identity`]: the same process
//! (memcached: its pid; Redis: its run id) started alike, within a second
//! ([`Identity::started_alike`]), whatever address each label resolved to. Every server of both fleets is asked before `plan`, `run` and `verify` work:
//! - an OLD and a NEW server that are one are joined: a key whose OLD owner is one label and
//!   whose NEW owner is the other *stays* (it is on the server NEW clients will ask), so it
//!   is neither copied nor deleted;
//! - two servers of one fleet that are one are refused ([`SameServer`]): the clients of that
//!   fleet split one server's keys over two labels, and which of them a key belongs to is
//!   not for the tool to guess.
//!
//! A server that does not answer cannot be identified: `plan` and `verify` report it as they
//! report any server down; `run` leaves it out (an OLD server) or refuses to start (a NEW
//! one).

use std::fmt;

use crate::backend::{Backend, Connection, Endpoint, Identity, Purpose, ServerError, Side};
use crate::placement::Placement;

/// Servers probed at once.
const AT_ONCE: usize = 16;

/// Two labels of one fleet that reach one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SameServer {
    /// The fleet.
    pub side: Side,
    /// The two labels, in file order.
    pub labels: (String, String),
    /// Who answered both.
    pub identity: Identity,
}

impl fmt::Display for SameServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = &self.identity;
        write!(
            f,
            "the {} servers file names one server twice: {} and {} reach the same server \
             process ({}, started at {} on its clock, reached at {}); remove one of the two \
             labels",
            match self.side {
                Side::Old => "OLD",
                Side::New => "NEW",
            },
            self.labels.0,
            self.labels.1,
            id.process,
            id.started,
            id.peer
        )
    }
}

impl std::error::Error for SameServer {}

/// Whether two identities are one server.
pub fn same(a: &Identity, b: &Identity) -> bool {
    a.same_process(b)
}

/// The fleets with every OLD server that is a NEW server under another label joined to it.
#[derive(Debug)]
pub struct Joined {
    /// The placement, joined.
    pub placement: Placement,
    /// OLD servers that did not say who they are: file position, why.
    pub old_unknown: Vec<(usize, ServerError)>,
    /// NEW servers that did not say who they are: file position, why.
    pub new_unknown: Vec<(usize, ServerError)>,
    /// Who each OLD server is (file order; `None`: it did not say).
    pub old_ids: Vec<Option<Identity>>,
}

/// Each endpoint's identity, asked of up to [`AT_ONCE`] servers at once.
pub fn identities<B: Backend>(
    endpoints: &[Endpoint],
    backend: &B,
) -> Vec<Result<Identity, ServerError>> {
    let mut out = Vec::with_capacity(endpoints.len());
    for chunk in endpoints.chunks(AT_ONCE) {
        std::thread::scope(|s| {
            let probes: Vec<_> = chunk
                .iter()
                .map(|ep| {
                    s.spawn(move || {
                        backend
                            .open(ep, Purpose::List)
                            .and_then(|mut c| c.identity())
                    })
                })
                .collect();
            for (ep, p) in chunk.iter().zip(probes) {
                out.push(p.join().unwrap_or_else(|_| {
                    Err(ServerError::new(
                        &ep.label,
                        crate::backend::ServerErrorKind::Failed,
                        format!("asking {} who it is failed", ep.label),
                    ))
                }));
            }
        });
    }
    out
}

/// Two servers of one fleet that are one, if any.
fn twice(
    side: Side,
    endpoints: &[Endpoint],
    ids: &[Result<Identity, ServerError>],
) -> Result<(), SameServer> {
    for (i, a) in ids.iter().enumerate() {
        let Ok(a) = a else { continue };
        for (j, b) in ids.iter().enumerate().skip(i + 1) {
            if matches!(b, Ok(b) if same(a, b)) {
                return Err(SameServer {
                    side,
                    labels: (endpoints[i].label.clone(), endpoints[j].label.clone()),
                    identity: a.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Asks every server of both fleets who it is; refuses a fleet that names one server twice,
/// and joins each OLD server to the NEW server that is the same one.
pub fn join<B: Backend>(pl: &Placement, backend: &B) -> Result<Joined, SameServer> {
    let old = identities(&pl.old.endpoints, backend);
    let new = identities(&pl.new.endpoints, backend);
    twice(Side::Old, &pl.old.endpoints, &old)?;
    twice(Side::New, &pl.new.endpoints, &new)?;
    let mut placement = pl.clone();
    for (i, a) in old.iter().enumerate() {
        let Ok(a) = a else { continue };
        if let Some(j) = new.iter().position(|b| matches!(b, Ok(b) if same(a, b))) {
            placement.join(i, j);
        }
    }
    let unknown = |ids: &[Result<Identity, ServerError>]| {
        ids.iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().err().map(|e| (i, e.clone())))
            .collect()
    };
    Ok(Joined {
        placement,
        old_unknown: unknown(&old),
        new_unknown: unknown(&new),
        old_ids: old.into_iter().map(Result::ok).collect(),
    })
}
