//! The plan of a migration: what it would copy, from the keys the OLD servers hold. Only
//! listings are asked for: nothing is written.

use std::collections::BTreeMap;

use crate::backend::{Ask, Backend, Connection, ListSummary, Purpose, ServerError};
use crate::clock::now;
use crate::placement::{Fate, Placement};
use crate::same::SameServer;

/// Keys and bytes of one class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Keys.
    pub keys: u64,
    /// Bytes in memory (metadump `size`: key, value and item header).
    pub bytes: u64,
}

impl Tally {
    /// Counts one key of `bytes`.
    pub fn add(&mut self, bytes: u64) {
        self.keys += 1;
        self.bytes += bytes;
    }
}

/// The plan of a migration.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Keys whose server stays.
    pub stay: Tally,
    /// Keys that move.
    pub moves: Tally,
    /// Keys already misplaced under the OLD placement.
    pub stale: Tally,
    /// Keys whose TTL has passed (not copied).
    pub expired: Tally,
    /// Keys the NEW placement has no server for.
    pub no_new_owner: Tally,
    /// Keys that would move but expire within [`PlanOptions::min_ttl`] (not copied).
    pub short_ttl: Tally,
    /// Of the keys that move, those read within [`PlanOptions::hot_window`] (copied first by
    /// a run with `hot_first`).
    pub hot: Tally,
    /// (OLD position, NEW position) -> keys moving that way.
    pub flows: BTreeMap<(usize, usize), Tally>,
    /// Per OLD server (file order): how it was listed; `Err` when it did not answer.
    pub servers: Vec<Result<ListSummary, ServerError>>,
}

impl Plan {
    /// Keys listed on the OLD servers that answered.
    pub fn listed(&self) -> u64 {
        self.stay.keys
            + self.moves.keys
            + self.stale.keys
            + self.expired.keys
            + self.no_new_owner.keys
            + self.short_ttl.keys
    }
}

/// What a plan counts apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Moving keys that expire within this many seconds are counted apart (a run with the
    /// same `min_ttl` does not copy them).
    pub min_ttl: Option<u64>,
    /// Ask each key's heat and count the moving keys read within this many seconds.
    pub hot_window: Option<u64>,
}

/// [`plan_with`] with no key counted apart and no heat asked.
pub fn plan<B: Backend>(pl: &Placement, backend: &B) -> Result<Plan, SameServer> {
    plan_with(pl, backend, &PlanOptions::default())
}

/// Adds the counts of one server's plan to `plan`.
fn add(plan: &mut Plan, local: Plan) {
    for (a, b) in [
        (&mut plan.stay, local.stay),
        (&mut plan.moves, local.moves),
        (&mut plan.stale, local.stale),
        (&mut plan.expired, local.expired),
        (&mut plan.no_new_owner, local.no_new_owner),
        (&mut plan.short_ttl, local.short_ttl),
        (&mut plan.hot, local.hot),
    ] {
        a.keys += b.keys;
        a.bytes += b.bytes;
    }
    plan.flows.extend(local.flows);
}

/// Lists every OLD server and classifies its keys (`opts`: what is counted apart). A server
/// that fails is recorded in [`Plan::servers`] and the others are still listed. A fleet that
/// names one server twice is refused ([`same`](crate::same)).
pub fn plan_with<B: Backend>(
    pl: &Placement,
    backend: &B,
    opts: &PlanOptions,
) -> Result<Plan, SameServer> {
    let joined = crate::same::join(pl, backend)?;
    let pl = &joined.placement;
    let mut plan = Plan::default();
    let t = now();
    let ask = Ask {
        versions: false,
        heat: opts.hot_window.is_some(),
    };
    for (src, ep) in pl.old.endpoints.iter().enumerate() {
        let mut local = Plan::default();
        let mut each = |it: crate::backend::Listed| {
            if it.exp >= 0 && it.exp <= t {
                local.expired.add(it.size);
                return Ok(());
            }
            match pl.fate(src, &it.key) {
                Fate::Stale => local.stale.add(it.size),
                Fate::Stays => local.stay.add(it.size),
                Fate::NoNewOwner => local.no_new_owner.add(it.size),
                Fate::Moves(_)
                    if opts
                        .min_ttl
                        .is_some_and(|m| it.exp >= 0 && it.exp - t < m as i64) =>
                {
                    local.short_ttl.add(it.size)
                }
                Fate::Moves(dst) => {
                    local.moves.add(it.size);
                    local.flows.entry((src, dst)).or_default().add(it.size);
                    if opts.hot_window.is_some_and(|w| it.heat.is_hot(w)) {
                        local.hot.add(it.size);
                    }
                }
            }
            Ok(())
        };
        let r = backend
            .open(ep, Purpose::List)
            .and_then(|mut c| c.list(ask, &mut each));
        match r {
            Ok(listing) => {
                add(&mut plan, local);
                plan.servers.push(Ok(listing));
            }
            Err(e) => plan.servers.push(Err(e)),
        }
    }
    Ok(plan)
}
