//! `ketama diff`'s report as a table, JSON or CSV.

use ketama_core::Ring;
use serde_json::{json, Value};

use super::args::DiffArgs;
use super::measure::Diff;
use super::ownership::name;
use crate::output::{self, pct, Format, Table};

/// Renders the diff in the format asked for.
pub(crate) fn render(a: &DiffArgs, old: &Ring, new: &Ring, d: &Diff, f: Format) -> String {
    match f {
        Format::Json => output::json(&to_json(a, old, new, d)),
        Format::Csv => csv(d),
        Format::Table => table(a, old, new, d),
    }
}

fn to_json(a: &DiffArgs, old: &Ring, new: &Ring, d: &Diff) -> Value {
    let ring_moved = d.ring_moved();
    json!({
        "profile": old.profile().name,
        "hash": old.hash().name(),
        "old": {"file": a.ring.servers, "servers": old.servers().map(|s| s.label.clone()).collect::<Vec<_>>()},
        "new": {"file": a.to, "servers": new.servers().map(|s| s.label.clone()).collect::<Vec<_>>()},
        "ring": d.ring.as_ref().map(|(o, mv)| json!({
            "unit": o.unit,
            "space": o.space,
            "moved": ring_moved,
            "moved_fraction": d.frac(ring_moved.unwrap_or(0)),
            "note": o.note,
            "ranges": mv.iter().map(|m| json!({"start": m.start, "end": m.end, "from": m.from, "to": m.to})).collect::<Vec<_>>(),
        })),
        "keys": {"source": d.key_source, "total": d.keys, "moved": d.moved, "moved_fraction": d.key_frac(d.moved)},
        "flows": d.flows.iter().map(|((fr, to), (r, k))| json!({
            "from": fr, "to": to, "ring_fraction": d.frac(*r), "keys": k
        })).collect::<Vec<_>>(),
        "moved_keys": if a.list_keys {
            Value::Array(d.moved_keys.iter().map(|(k, fr, to)| json!({"key": k, "from": fr, "to": to})).collect())
        } else { Value::Null },
    })
}

/// One `total` record, then `flow`, `range` and `key` records.
fn csv(d: &Diff) -> String {
    let mut t = Table::new(&[
        "record",
        "start",
        "end",
        "from",
        "to",
        "ring_fraction",
        "keys",
        "key",
    ]);
    let rf = |x: u64| d.frac(x).map_or(String::new(), |v| format!("{v:.9}"));
    let row = |record: &str, (start, end): (String, String), (fr, to): (&str, &str)| {
        vec![
            record.to_string(),
            start,
            end,
            fr.to_string(),
            to.to_string(),
        ]
    };
    let none = || (String::new(), String::new());
    let mut total = row("total", none(), ("", ""));
    total.extend([
        d.ring_moved().map_or(String::new(), rf),
        d.moved.to_string(),
        String::new(),
    ]);
    t.row(total);
    for ((fr, to), (r, k)) in &d.flows {
        let mut cells = row("flow", none(), (fr, to));
        cells.extend([rf(*r), k.to_string(), String::new()]);
        t.row(cells);
    }
    if let Some((_, mv)) = &d.ring {
        for m in mv {
            let (fr, to) = (name(&m.from), name(&m.to));
            let mut cells = row(
                "range",
                (m.start.to_string(), m.end.to_string()),
                (&fr, &to),
            );
            cells.extend([rf(m.end - m.start), String::new(), String::new()]);
            t.row(cells);
        }
    }
    for (k, fr, to) in &d.moved_keys {
        let mut cells = row("key", none(), (fr, to));
        cells.extend([String::new(), String::new(), k.clone()]);
        t.row(cells);
    }
    t.csv()
}

/// The summary, the flows, the migration plan and (with `--list-keys`) the moved keys.
fn table(a: &DiffArgs, old: &Ring, new: &Ring, d: &Diff) -> String {
    let profile = old.profile();
    let mut out = format!(
        "profile {} (hash {}): {} ({} servers) -> {} ({} servers)\n",
        profile.name,
        old.hash().name(),
        a.ring.servers,
        old.len(),
        a.to,
        new.len()
    );
    match (&d.ring, d.ring_moved()) {
        (Some((o, _)), Some(m)) => {
            let unit = if o.unit == "bucket" {
                "of the 1024 buckets"
            } else {
                "of the continuum"
            };
            out.push_str(&format!(
                "moves: {} {unit} ({m} of {} {} values)\n",
                pct(d.frac(m).unwrap_or(0.0)),
                o.space,
                o.unit
            ));
            if let Some(n) = o.note {
                out.push_str(&format!("note: {n}\n"));
            }
        }
        _ => out.push_str(&format!(
            "moves: no continuum ({} places keys by {})\n",
            profile.name, profile.placement
        )),
    }
    out.push_str(&format!(
        "keys: {} of {} move ({}; {})\n",
        pct(d.key_frac(d.moved)),
        d.keys,
        d.moved,
        d.key_source
    ));
    out.push('\n');
    flows_table(&mut out, d);
    plan_table(&mut out, d);
    if a.list_keys && !d.moved_keys.is_empty() {
        out.push_str("\nmoved keys:\n");
        let mut t = Table::new(&["key", "old", "new"]);
        for (k, fr, to) in &d.moved_keys {
            t.row(vec![k.clone(), fr.clone(), to.clone()]);
        }
        out.push_str(&t.text());
    }
    out
}

/// Per (old, new) server: the share of the continuum and the keys.
fn flows_table(out: &mut String, d: &Diff) {
    let mut t = Table::new(&["from", "to", "continuum", "keys"]);
    for ((fr, to), (r, k)) in &d.flows {
        t.row(vec![
            fr.clone(),
            to.clone(),
            d.frac(*r).map_or("-".into(), pct),
            k.to_string(),
        ]);
    }
    if t.rows.is_empty() {
        out.push_str("nothing moves\n");
    } else {
        out.push_str(&t.text());
    }
}

/// The ranges that change owner, `[start, end) old -> new`.
fn plan_table(out: &mut String, d: &Diff) {
    let Some((o, mv)) = &d.ring else { return };
    if mv.is_empty() {
        return;
    }
    out.push_str(&format!(
        "\nmigration plan ({} ranges [start, end) old -> new):\n",
        o.unit
    ));
    let mut t = Table::new(&["start", "end", "old", "new", "share"]);
    for m in mv {
        t.row(vec![
            m.start.to_string(),
            m.end.to_string(),
            name(&m.from),
            name(&m.to),
            d.frac(m.end - m.start)
                .map_or("-".into(), |v| format!("{:.4}%", v * 100.0)),
        ]);
    }
    out.push_str(&t.text());
}
