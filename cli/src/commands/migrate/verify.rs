//! `ketama migrate verify`: the audit of NEW under the NEW placement (read-only), as a table
//! or JSON.

use serde_json::json;

use ketama_migrate::{Placement, ServerCheck};

use super::args::PlaceArgs;
use super::setup::{self, CACHEDUMP_NOTE, EXIT_SERVER, EXIT_UNREACHABLE_KEYS};
use crate::output::{key_text, Format, Table};
use crate::shared::Fail;

/// Unreachable keys listed in the table.
const SHOW: usize = 20;

/// What the checks add up to.
struct Sums<'a> {
    keys: u64,
    placed: u64,
    copies: u64,
    unreachable: usize,
    /// NEW servers that did not answer: label, error.
    down: Vec<(&'a str, &'a str)>,
}

/// Runs `ketama migrate verify`: the output and the exit status.
pub(crate) fn run(a: &PlaceArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = setup::placement(a)?;
    let checks =
        ketama_migrate::verify(&pl, &setup::backend(a)?).map_err(|e| Fail::new(e.to_string()))?;
    if crate::stop::requested() {
        return Err(Fail::new("interrupted"));
    }
    setup::unsupported(checks.iter().filter_map(|c| match &c.listing {
        Some(Err(e)) => Some(e),
        _ => None,
    }))?;
    let down: Vec<(&str, &str)> = pl
        .new
        .labels()
        .zip(&checks)
        .filter_map(|(l, c)| match &c.listing {
            Some(Err(e)) => Some((l, e.message.as_str())),
            _ => None,
        })
        .collect();
    for (l, c) in pl.new.labels().zip(&checks) {
        if let Some(Ok(listing)) = &c.listing {
            setup::bad_lines("migrate verify", l, listing);
        }
    }
    for (l, e) in &down {
        eprintln!("ketama: migrate verify: NEW server {l} did not answer: {e}");
    }
    let sum = |g: fn(&ServerCheck) -> u64| checks.iter().map(g).sum::<u64>();
    let sums = Sums {
        keys: sum(|c| c.keys),
        placed: sum(|c| c.placed),
        copies: sum(|c| c.old_copies),
        unreachable: checks.iter().map(|c| c.unreachable.len()).sum(),
        down,
    };
    let code = if !sums.down.is_empty() {
        EXIT_SERVER
    } else if sums.unreachable > 0 {
        EXIT_UNREACHABLE_KEYS
    } else {
        0
    };
    let out = match f {
        Format::Json => crate::output::json(&verify_json(&pl, &checks, &sums)),
        _ => verify_table(&pl, &checks, &sums),
    };
    Ok((out, code))
}

fn verify_json(pl: &Placement, checks: &[ServerCheck], s: &Sums<'_>) -> serde_json::Value {
    json!({
        "profile": pl.new.ring.profile().name,
        "hash": pl.new.ring.hash().name(),
        "keys": s.keys,
        "placed": s.placed,
        "old_copies": s.copies,
        "unreachable": s.unreachable,
        "partial": !s.down.is_empty(),
        "servers": pl.new.labels().zip(checks).map(|(l, c)| match &c.listing {
            Some(Err(e)) => json!({"server": l, "error": e.message}),
            _ => json!({"server": l, "keys": c.keys, "placed": c.placed,
                        "old_copies": c.old_copies, "unreachable": c.unreachable.len()}),
        }).collect::<Vec<_>>(),
        "unreachable_keys": checks.iter().zip(pl.new.labels()).flat_map(|(c, l)| {
            c.unreachable.iter().map(move |(k, e)| json!({"key": key_text(k), "on": l, "expected": e}))
        }).collect::<Vec<_>>(),
    })
}

fn verify_table(pl: &Placement, checks: &[ServerCheck], s: &Sums<'_>) -> String {
    let mut out = format!(
        "migrate verify: {} under {} / {}: {} keys\n\n",
        pl.new.name,
        pl.new.ring.profile().name,
        pl.new.ring.hash().name(),
        s.keys
    );
    let mut t = Table::new(&["server", "keys", "placed", "old copies", "unreachable"]);
    for (l, c) in pl.new.labels().zip(checks) {
        match &c.listing {
            Some(Err(_)) => t.row(vec![
                l.to_string(),
                "-".into(),
                "-".into(),
                "-".into(),
                "did not answer".into(),
            ]),
            _ => t.row(vec![
                l.to_string(),
                c.keys.to_string(),
                c.placed.to_string(),
                c.old_copies.to_string(),
                c.unreachable.len().to_string(),
            ]),
        }
    }
    out.push_str(&t.text());
    out.push_str(&format!(
        "\n{} keys where the NEW placement looks, {} old copies (their NEW owner holds them too: `run --delete-moved` frees them), {} unreachable\n",
        s.placed, s.copies, s.unreachable
    ));
    if s.unreachable > 0 {
        out.push_str(&unreachable_table(pl, checks, s.unreachable));
    }
    if checks
        .iter()
        .any(|c| matches!(&c.listing, Some(Ok(l)) if l.partial))
    {
        out.push_str(CACHEDUMP_NOTE);
        out.push('\n');
    }
    for (l, e) in &s.down {
        out.push_str(&format!("PARTIAL: NEW server {l} did not answer: {e}\n"));
    }
    out
}

/// The first [`SHOW`] unreachable keys, with where the NEW placement looks for each.
fn unreachable_table(pl: &Placement, checks: &[ServerCheck], unreachable: usize) -> String {
    let mut t = Table::new(&["key", "on", "NEW placement looks on"]);
    for (c, l) in checks.iter().zip(pl.new.labels()) {
        for (k, e) in &c.unreachable {
            if t.rows.len() < SHOW {
                t.row(vec![
                    key_text(k),
                    l.to_string(),
                    e.clone()
                        .unwrap_or_else(|| "- (the client refuses the key)".into()),
                ]);
            }
        }
    }
    let mut out = format!(
        "\nunreachable keys{}:\n",
        if unreachable > SHOW {
            format!(" (the first {SHOW}; --format json lists all)")
        } else {
            String::new()
        }
    );
    out.push_str(&t.text());
    out
}
