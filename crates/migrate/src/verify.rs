//! The audit of NEW under the NEW placement. Every key listed on a NEW server is either where
//! the NEW placement looks (*placed*), or elsewhere while its NEW owner holds it too (an
//! *old copy*: what `--delete-moved` frees), or elsewhere only (*unreachable*: a NEW client
//! misses it). Only listings and version reads are asked for: nothing is written.

use std::collections::BTreeMap;

use crate::backend::{
    Ask, Backend, Connection, ListSummary, Listed, Purpose, Reply, Request, ServerError,
    ServerErrorKind,
};
use crate::placement::Placement;
use crate::same::SameServer;

/// Keys checked per pipelined round.
const BATCH: usize = 256;

/// One NEW server's verdict.
#[derive(Clone, Debug, Default)]
pub struct ServerCheck {
    /// Keys listed.
    pub keys: u64,
    /// Keys where the NEW placement looks.
    pub placed: u64,
    /// Keys elsewhere whose NEW owner holds them too.
    pub old_copies: u64,
    /// Keys a NEW client cannot find: (key, the label of the server it looks on; `None`
    /// when the NEW client refuses the key).
    pub unreachable: Vec<(Vec<u8>, Option<String>)>,
    /// How the server was listed; `Err` when it did not answer (`None`: not listed).
    pub listing: Option<Result<ListSummary, ServerError>>,
}

/// Checks `pending` keys (key, NEW owner) against their owners.
fn check<B: Backend>(
    pl: &Placement,
    backend: &B,
    pending: &mut Vec<(Vec<u8>, usize)>,
    sc: &mut ServerCheck,
) -> Result<(), ServerError> {
    let mut by_owner: BTreeMap<usize, Vec<Vec<u8>>> = BTreeMap::new();
    for (k, u) in pending.drain(..) {
        by_owner.entry(u).or_default().push(k);
    }
    for (u, keys) in by_owner {
        let mut c = backend.open(&pl.new.endpoints[u], Purpose::Sync)?;
        let requests: Vec<Request> = keys.iter().map(|k| Request::Version(k)).collect();
        c.send(&requests, u64::MAX)?;
        let replies = c.receive(&requests, u64::MAX)?;
        for (k, r) in keys.into_iter().zip(replies) {
            match r {
                Reply::Version(Some(_)) => sc.old_copies += 1,
                Reply::Version(None) => sc.unreachable.push((k, Some(pl.new.label(u).into()))),
                other => {
                    return Err(ServerError::new(
                        pl.new.label(u),
                        ServerErrorKind::Failed,
                        format!("a reply {other:?} to a version request"),
                    ))
                }
            }
        }
    }
    Ok(())
}

/// Verifies every NEW server. A fleet that names one server twice is refused
/// ([`same`](crate::same)).
pub fn verify<B: Backend>(pl: &Placement, backend: &B) -> Result<Vec<ServerCheck>, SameServer> {
    let joined = crate::same::join(pl, backend)?;
    let pl = &joined.placement;
    let mut out = Vec::new();
    for (t, ep) in pl.new.endpoints.iter().enumerate() {
        let mut pending = Vec::new();
        let mut sc = ServerCheck::default();
        let mut each = |it: Listed| {
            sc.keys += 1;
            match pl.new.owner(&it.key) {
                Some(u) if u == t => sc.placed += 1,
                Some(u) => {
                    pending.push((it.key, u));
                    if pending.len() >= BATCH {
                        check(pl, backend, &mut pending, &mut sc)?;
                    }
                }
                None => sc.unreachable.push((it.key, None)),
            }
            Ok(())
        };
        let r = backend
            .open(ep, Purpose::List)
            .and_then(|mut c| c.list(Ask::default(), &mut each));
        let r = r.and_then(|l| check(pl, backend, &mut pending, &mut sc).map(|()| l));
        sc.listing = Some(r);
        out.push(sc);
    }
    Ok(out)
}
