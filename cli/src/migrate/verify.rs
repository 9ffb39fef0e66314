//! `ketama migrate verify`: the audit of NEW under the NEW placement. Every key listed on a
//! NEW server is either where the NEW placement looks (*placed*), or elsewhere while its NEW
//! owner holds it too (an *old copy*: what `run --delete-moved` frees), or elsewhere only
//! (*unreachable*: a NEW client misses it). Only read commands are sent.

use std::collections::BTreeMap;

use serde_json::json;

use super::meta::MetaConn;
use super::{interruptible, list_server, Listing, PlaceArgs, Placement, CACHEDUMP_NOTE};
use crate::output::Format;
use crate::output::{key_text, Table};
use crate::shared::Fail;

/// Keys checked per pipelined round.
const BATCH: usize = 256;
/// Unreachable keys listed in the table.
const SHOW: usize = 20;

/// One NEW server's verdict.
#[derive(Clone, Debug, Default)]
pub struct ServerCheck {
    /// Keys listed.
    pub keys: u64,
    /// Keys where the NEW placement looks.
    pub placed: u64,
    /// Keys elsewhere whose NEW owner holds them too.
    pub old_copies: u64,
    /// Keys a NEW client cannot find: (key, where it looks).
    pub unreachable: Vec<(Vec<u8>, Option<String>)>,
    /// How the server was listed; `Err` when it did not answer.
    pub listing: Option<Result<Listing, String>>,
}

/// Checks `pending` keys (key, NEW owner) against their owners.
fn check(
    pl: &Placement,
    pending: &mut Vec<(Vec<u8>, usize)>,
    sc: &mut ServerCheck,
) -> Result<(), String> {
    let mut by_owner: BTreeMap<usize, Vec<Vec<u8>>> = BTreeMap::new();
    for (k, u) in pending.drain(..) {
        by_owner.entry(u).or_default().push(k);
    }
    for (u, keys) in by_owner {
        let mut c = MetaConn::connect(&pl.new_labels[u], &pl.new_addrs[u], pl.net())?;
        for k in &keys {
            c.queue_has(k)?;
        }
        c.flush()?;
        for k in keys {
            if c.read_has()? {
                sc.old_copies += 1;
            } else {
                sc.unreachable.push((k, Some(pl.new_labels[u].clone())));
            }
        }
    }
    Ok(())
}

/// Verifies every NEW server.
pub fn make(pl: &Placement) -> Vec<ServerCheck> {
    let mut out = Vec::new();
    for (t, (label, addr)) in pl.new_labels.iter().zip(&pl.new_addrs).enumerate() {
        let mut sc = ServerCheck::default();
        let mut pending = Vec::new();
        let mut inner = ServerCheck::default();
        let r = list_server(label, addr, pl.net(), |it| {
            inner.keys += 1;
            match pl.new_owner(&it.key) {
                Some(u) if u == t => inner.placed += 1,
                Some(u) => {
                    pending.push((it.key, u));
                    if pending.len() >= BATCH {
                        check(pl, &mut pending, &mut inner)?;
                    }
                }
                None => inner.unreachable.push((it.key, None)),
            }
            Ok(())
        })
        .and_then(|l| check(pl, &mut pending, &mut inner).map(|_| l));
        sc.keys = inner.keys;
        sc.placed = inner.placed;
        sc.old_copies = inner.old_copies;
        sc.unreachable = inner.unreachable;
        sc.listing = Some(r);
        out.push(sc);
    }
    out
}

/// Runs `ketama migrate verify`: the output and the exit status.
pub fn run(a: &PlaceArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = Placement::load(a)?;
    let checks = interruptible(|| make(&pl))?;
    let down: Vec<(&String, &String)> = pl
        .new_labels
        .iter()
        .zip(&checks)
        .filter_map(|(l, c)| match &c.listing {
            Some(Err(e)) => Some((l, e)),
            _ => None,
        })
        .collect();
    for (l, e) in &down {
        eprintln!("ketama: migrate verify: NEW server {l} did not answer: {e}");
    }
    let unreachable: usize = checks.iter().map(|c| c.unreachable.len()).sum();
    let code = if !down.is_empty() {
        super::EXIT_SERVER
    } else if unreachable > 0 {
        super::EXIT_UNREACHABLE_KEYS
    } else {
        0
    };
    let sum = |g: fn(&ServerCheck) -> u64| checks.iter().map(g).sum::<u64>();
    let (keys, placed, copies) = (sum(|c| c.keys), sum(|c| c.placed), sum(|c| c.old_copies));
    let cachedump = checks
        .iter()
        .any(|c| matches!(c.listing, Some(Ok(Listing::Cachedump))));
    let out = match f {
        Format::Json => crate::output::json(&json!({
            "profile": pl.new_ring.profile().name,
            "hash": pl.new_ring.hash().name(),
            "keys": keys,
            "placed": placed,
            "old_copies": copies,
            "unreachable": unreachable,
            "partial": !down.is_empty(),
            "servers": pl.new_labels.iter().zip(&checks).map(|(l, c)| match &c.listing {
                Some(Err(e)) => json!({"server": l, "error": e}),
                _ => json!({"server": l, "keys": c.keys, "placed": c.placed,
                            "old_copies": c.old_copies, "unreachable": c.unreachable.len()}),
            }).collect::<Vec<_>>(),
            "unreachable_keys": checks.iter().zip(&pl.new_labels).flat_map(|(c, l)| {
                c.unreachable.iter().map(move |(k, e)| json!({"key": key_text(k), "on": l, "expected": e}))
            }).collect::<Vec<_>>(),
        })),
        _ => {
            let mut out = format!(
                "migrate verify: {} under {} / {}: {keys} keys\n\n",
                pl.new.path,
                pl.new_ring.profile().name,
                pl.new_ring.hash().name()
            );
            let mut t = Table::new(&["server", "keys", "placed", "old copies", "unreachable"]);
            for (l, c) in pl.new_labels.iter().zip(&checks) {
                match &c.listing {
                    Some(Err(_)) => t.row(vec![
                        l.clone(),
                        "-".into(),
                        "-".into(),
                        "-".into(),
                        "did not answer".into(),
                    ]),
                    _ => t.row(vec![
                        l.clone(),
                        c.keys.to_string(),
                        c.placed.to_string(),
                        c.old_copies.to_string(),
                        c.unreachable.len().to_string(),
                    ]),
                }
            }
            out.push_str(&t.text());
            out.push_str(&format!(
                "\n{placed} keys where the NEW placement looks, {copies} old copies (their NEW owner holds them too: `run --delete-moved` frees them), {unreachable} unreachable\n"
            ));
            if unreachable > 0 {
                let mut t = Table::new(&["key", "on", "NEW placement looks on"]);
                for (c, l) in checks.iter().zip(&pl.new_labels) {
                    for (k, e) in &c.unreachable {
                        if t.rows.len() < SHOW {
                            t.row(vec![
                                key_text(k),
                                l.clone(),
                                e.clone()
                                    .unwrap_or_else(|| "- (the client refuses the key)".into()),
                            ]);
                        }
                    }
                }
                out.push_str(&format!(
                    "\nunreachable keys{}:\n",
                    if unreachable > SHOW {
                        format!(" (the first {SHOW}; --format json lists all)")
                    } else {
                        String::new()
                    }
                ));
                out.push_str(&t.text());
            }
            if cachedump {
                out.push_str(CACHEDUMP_NOTE);
                out.push('\n');
            }
            for (l, e) in &down {
                out.push_str(&format!("PARTIAL: NEW server {l} did not answer: {e}\n"));
            }
            out
        }
    };
    Ok((out, code))
}
