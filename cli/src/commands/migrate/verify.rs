//! `ketama migrate verify`: the audit of NEW under the NEW placement (read-only), as a table
//! or JSON.

use serde_json::json;

use ketama_migrate::ServerCheck;

use super::args::PlaceArgs;
use super::setup::{self, CACHEDUMP_NOTE, EXIT_SERVER, EXIT_UNREACHABLE_KEYS};
use crate::output::{key_text, Format, Table};
use crate::shared::Fail;

/// Unreachable keys listed in the table.
const SHOW: usize = 20;

/// Runs `ketama migrate verify`: the output and the exit status.
pub(crate) fn run(a: &PlaceArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = setup::placement(a)?;
    let checks = ketama_migrate::verify(&pl, &setup::backend(a)?);
    if crate::stop::requested() {
        return Err(Fail::new("interrupted"));
    }
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
    let unreachable: usize = checks.iter().map(|c| c.unreachable.len()).sum();
    let code = if !down.is_empty() {
        EXIT_SERVER
    } else if unreachable > 0 {
        EXIT_UNREACHABLE_KEYS
    } else {
        0
    };
    let sum = |g: fn(&ServerCheck) -> u64| checks.iter().map(g).sum::<u64>();
    let (keys, placed, copies) = (sum(|c| c.keys), sum(|c| c.placed), sum(|c| c.old_copies));
    let cachedump = checks
        .iter()
        .any(|c| matches!(&c.listing, Some(Ok(l)) if l.partial));
    let out = match f {
        Format::Json => crate::output::json(&json!({
            "profile": pl.new.ring.profile().name,
            "hash": pl.new.ring.hash().name(),
            "keys": keys,
            "placed": placed,
            "old_copies": copies,
            "unreachable": unreachable,
            "partial": !down.is_empty(),
            "servers": pl.new.labels().zip(&checks).map(|(l, c)| match &c.listing {
                Some(Err(e)) => json!({"server": l, "error": e.message}),
                _ => json!({"server": l, "keys": c.keys, "placed": c.placed,
                            "old_copies": c.old_copies, "unreachable": c.unreachable.len()}),
            }).collect::<Vec<_>>(),
            "unreachable_keys": checks.iter().zip(pl.new.labels()).flat_map(|(c, l)| {
                c.unreachable.iter().map(move |(k, e)| json!({"key": key_text(k), "on": l, "expected": e}))
            }).collect::<Vec<_>>(),
        })),
        _ => {
            let mut out = format!(
                "migrate verify: {} under {} / {}: {keys} keys\n\n",
                pl.new.name,
                pl.new.ring.profile().name,
                pl.new.ring.hash().name()
            );
            let mut t = Table::new(&["server", "keys", "placed", "old copies", "unreachable"]);
            for (l, c) in pl.new.labels().zip(&checks) {
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
                "\n{placed} keys where the NEW placement looks, {copies} old copies (their NEW owner holds them too: `run --delete-moved` frees them), {unreachable} unreachable\n"
            ));
            if unreachable > 0 {
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
