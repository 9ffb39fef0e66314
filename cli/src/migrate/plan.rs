//! `ketama migrate plan`: what a migration would copy, from the keys the OLD servers hold.
//! Only read commands are sent (`lru_crawler metadump all`, or `stats cachedump`).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{
    duration_text, interruptible, list_server, Fate, Listing, Placement, PlanArgs, CACHEDUMP_NOTE,
};
use crate::output::Format;
use crate::output::{pct, Table};
use crate::shared::Fail;

/// Keys and bytes of one class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Keys.
    pub keys: u64,
    /// Bytes in memory (metadump `size`: key, value and item header).
    pub bytes: u64,
}

impl Tally {
    fn add(&mut self, bytes: u64) {
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
    /// (OLD position, NEW position) -> keys moving that way.
    pub flows: BTreeMap<(usize, usize), Tally>,
    /// Per OLD server: how it was listed and its key count; `Err` when it did not answer.
    pub servers: Vec<Result<(Listing, u64), String>>,
}

/// Unix time now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Lists every OLD server and classifies its keys.
pub fn make(pl: &Placement) -> Plan {
    let mut plan = Plan::default();
    let t = now();
    for (src, (label, addr)) in pl.old_labels.iter().zip(&pl.old_addrs).enumerate() {
        let mut n = 0u64;
        let mut local = Plan::default();
        let r = list_server(label, addr, pl.net(), |it| {
            n += 1;
            if it.exp >= 0 && it.exp <= t {
                local.expired.add(it.size);
                return Ok(());
            }
            match pl.fate(src, &it.key) {
                Fate::Stale => local.stale.add(it.size),
                Fate::Stays => local.stay.add(it.size),
                Fate::NoNewOwner => local.no_new_owner.add(it.size),
                Fate::Moves(dst) => {
                    local.moves.add(it.size);
                    local.flows.entry((src, dst)).or_default().add(it.size);
                }
            }
            Ok(())
        });
        match r {
            Ok(listing) => {
                for (a, b) in [
                    (&mut plan.stay, local.stay),
                    (&mut plan.moves, local.moves),
                    (&mut plan.stale, local.stale),
                    (&mut plan.expired, local.expired),
                    (&mut plan.no_new_owner, local.no_new_owner),
                ] {
                    a.keys += b.keys;
                    a.bytes += b.bytes;
                }
                plan.flows.extend(local.flows);
                plan.servers.push(Ok((listing, n)));
            }
            Err(e) => plan.servers.push(Err(e)),
        }
    }
    plan
}

/// Runs `ketama migrate plan`: the output and the exit status.
pub fn run(a: &PlanArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = Placement::load(&a.place)?;
    if pl.is_identity() {
        return Ok((
            match f {
                Format::Json => crate::output::json(&json!({"nothing_moves": true, "moves": []})),
                _ => "nothing moves: OLD and NEW are the same servers under the same placement\n"
                    .to_string(),
            },
            0,
        ));
    }
    let plan = interruptible(|| make(&pl))?;
    let mut code = 0;
    for (label, r) in pl.old_labels.iter().zip(&plan.servers) {
        if let Err(e) = r {
            eprintln!("ketama: migrate plan: OLD server {label} did not answer ({e}); the plan leaves its keys out");
            code = super::EXIT_SERVER;
        }
    }
    let out = match f {
        Format::Json => crate::output::json(&plan_json(&pl, &plan, a.rate)),
        _ => plan_table(&pl, &plan, a.rate),
    };
    Ok((out, code))
}

fn estimate(keys: u64, rate: Option<u64>) -> Option<f64> {
    rate.filter(|&r| r > 0).map(|r| keys as f64 / r as f64)
}

fn plan_json(pl: &Placement, plan: &Plan, rate: Option<u64>) -> Value {
    let t = |t: &Tally| json!({"keys": t.keys, "bytes": t.bytes});
    json!({
        "old": {"servers": pl.old.path, "profile": pl.old_ring.profile().name, "hash": pl.old_ring.hash().name()},
        "new": {"servers": pl.new.path, "profile": pl.new_ring.profile().name, "hash": pl.new_ring.hash().name()},
        "nothing_moves": plan.moves.keys == 0,
        "stay": t(&plan.stay),
        "move": t(&plan.moves),
        "stale": t(&plan.stale),
        "expired": t(&plan.expired),
        "no_new_owner": t(&plan.no_new_owner),
        "moves": plan.flows.iter().map(|((s, d), x)| json!({
            "from": pl.old_labels[*s], "to": pl.new_labels[*d], "keys": x.keys, "bytes": x.bytes,
        })).collect::<Vec<_>>(),
        "servers": pl.old_labels.iter().zip(&plan.servers).map(|(l, r)| match r {
            Ok((listing, n)) => json!({"server": l, "listing": listing.command(), "keys": n}),
            Err(e) => json!({"server": l, "unreachable": e}),
        }).collect::<Vec<_>>(),
        "rate": rate,
        "estimated_seconds": estimate(plan.moves.keys, rate),
    })
}

fn plan_table(pl: &Placement, plan: &Plan, rate: Option<u64>) -> String {
    let listed = plan.stay.keys
        + plan.moves.keys
        + plan.stale.keys
        + plan.expired.keys
        + plan.no_new_owner.keys;
    let share = |n: u64| {
        if listed == 0 {
            "-".to_string()
        } else {
            pct(n as f64 / listed as f64)
        }
    };
    let mut out = format!("migrate plan: {}\n", pl.describe());
    out.push_str(&format!(
        "listed {listed} keys on {} of {} OLD servers\n\n",
        plan.servers.iter().filter(|r| r.is_ok()).count(),
        plan.servers.len()
    ));
    let mut t = Table::new(&["keys", "count", "share", "bytes", "what happens"]);
    for (name, x, what) in [
        ("stay", plan.stay, "their server does not change"),
        ("move", plan.moves, "copied to their NEW server"),
        (
            "stale",
            plan.stale,
            "already misplaced under the OLD placement: not copied",
        ),
        ("expired", plan.expired, "TTL passed: not copied"),
        (
            "no new owner",
            plan.no_new_owner,
            "the NEW client refuses the key: not copied",
        ),
    ] {
        t.row(vec![
            name.into(),
            x.keys.to_string(),
            share(x.keys),
            x.bytes.to_string(),
            what.into(),
        ]);
    }
    out.push_str(&t.text());
    if plan.moves.keys == 0 {
        out.push_str("\nnothing moves\n");
    } else {
        let cols: Vec<usize> = {
            let mut c: Vec<usize> = plan.flows.keys().map(|&(_, d)| d).collect();
            c.sort_unstable();
            c.dedup();
            c
        };
        out.push_str("\nkeys moving, from OLD server (rows) to NEW server (columns):\n");
        let mut headers = vec!["from \\ to".to_string()];
        headers.extend(cols.iter().map(|&d| pl.new_labels[d].clone()));
        let mut m = Table::new(&headers);
        for (s, label) in pl.old_labels.iter().enumerate() {
            if !plan.flows.keys().any(|&(x, _)| x == s) {
                continue;
            }
            let mut row = vec![label.clone()];
            row.extend(cols.iter().map(|&d| {
                plan.flows
                    .get(&(s, d))
                    .map_or("-".to_string(), |x| x.keys.to_string())
            }));
            m.row(row);
        }
        out.push_str(&m.text());
        match estimate(plan.moves.keys, rate) {
            Some(s) => out.push_str(&format!(
                "\nestimated copy time at {} keys/s: {}\n",
                rate.unwrap_or(0),
                duration_text(s)
            )),
            None => out.push_str("\n(give --rate KEYS_PER_S for a time estimate)\n"),
        }
    }
    if plan
        .servers
        .iter()
        .any(|r| matches!(r, Ok((Listing::Cachedump, _))))
    {
        out.push_str(CACHEDUMP_NOTE);
        out.push('\n');
    }
    for (label, r) in pl.old_labels.iter().zip(&plan.servers) {
        if let Err(e) = r {
            out.push_str(&format!(
                "PARTIAL: OLD server {label} did not answer: {e}\n"
            ));
        }
    }
    out
}
