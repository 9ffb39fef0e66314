//! The algorithm comparison ([`super::algos`]) as a table, JSON or CSV.

use serde_json::{json, Value};

use super::algos::{Moved, Report};
use crate::output::{self, pct, Format, Table};

/// `moved (x ideal)`.
fn moved_cell(m: &Moved, ideal: f64) -> String {
    if ideal > 0.0 {
        format!("{} ({:.2}x)", pct(m.moved), m.moved / ideal)
    } else {
        pct(m.moved)
    }
}

/// Renders the report.
pub(crate) fn render(r: &Report, f: Format) -> String {
    match f {
        Format::Json => output::json(&to_json(r)),
        Format::Csv => csv(r),
        Format::Table => table(r),
    }
}

fn table(r: &Report) -> String {
    let mut out = format!(
        "{} keys ({}) on {} servers; AnchorHash capacity {}\n",
        r.keys, r.source, r.servers, r.anchor_capacity
    );
    out.push_str(
        "bucket functions, anchor and memento hash the key as md5 bytes 0..8, little-endian\n",
    );
    for c in &r.changes {
        out.push_str(&format!(
            "change {}: {}; ideal {} of the keys move\n",
            c.name,
            c.description,
            pct(c.ideal)
        ));
    }
    out.push('\n');
    let mut headers: Vec<String> = [
        "algorithm",
        "peak/mean",
        "sd/mean",
        "ns/key",
        "build ms",
        "bytes/server",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for c in &r.changes {
        headers.push(format!("{} moved", c.name));
    }
    headers.push("weighted peak/mean".into());
    let mut t = Table::new(&headers);
    for x in &r.results {
        let mut row = vec![
            x.shown.clone(),
            format!("{:.3}", x.peak_to_mean),
            pct(x.sd),
            format!("{:.0}", x.ns_per_key),
            format!("{:.2}", x.build_ms),
            x.bytes_per_server.map_or("-".into(), |b| format!("{b:.0}")),
        ];
        for (m, c) in x.changes.iter().zip(&r.changes) {
            row.push(moved_cell(m, c.ideal));
        }
        row.push(
            x.changes
                .last()
                .map_or("-".into(), |m| format!("{:.3}", m.peak_to_mean)),
        );
        t.row(row);
    }
    out.push_str(&t.text());
    let refused: usize = r.results.iter().map(|x| x.refused).max().unwrap_or(0);
    if refused > 0 {
        out.push_str(&format!(
            "\nup to {refused} keys refused by an algorithm are not counted\n"
        ));
    }
    out
}

fn to_json(r: &Report) -> Value {
    json!({
        "source": r.source,
        "keys": r.keys,
        "servers": r.servers,
        "anchor_capacity": r.anchor_capacity,
        "changes": r.changes.iter().map(|c| json!({
            "name": c.name, "description": c.description, "ideal_moved": c.ideal,
            "servers_after": c.fleet.len(),
        })).collect::<Vec<_>>(),
        "results": r.results.iter().map(|x| json!({
            "algorithm": x.shown,
            "peak_to_mean": x.peak_to_mean,
            "sd_over_mean": x.sd,
            "ns_per_key": x.ns_per_key,
            "build_ms": x.build_ms,
            "bytes_per_server": x.bytes_per_server,
            "refused": x.refused,
            "loads": x.loads,
            "changes": x.changes.iter().zip(&r.changes).map(|(m, c)| json!({
                "change": c.name, "moved": m.moved, "ideal_moved": c.ideal,
                "peak_to_mean": m.peak_to_mean,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// One row per (algorithm, change), the algorithm's figures repeated on each.
fn csv(r: &Report) -> String {
    let mut t = Table::new(&[
        "algorithm",
        "peak_to_mean",
        "sd_over_mean",
        "ns_per_key",
        "build_ms",
        "bytes_per_server",
        "change",
        "moved",
        "ideal_moved",
        "peak_to_mean_after",
    ]);
    for x in &r.results {
        for (m, c) in x.changes.iter().zip(&r.changes) {
            t.row(vec![
                x.shown.clone(),
                format!("{:.6}", x.peak_to_mean),
                format!("{:.6}", x.sd),
                format!("{:.1}", x.ns_per_key),
                format!("{:.3}", x.build_ms),
                x.bytes_per_server
                    .map_or(String::new(), |b| format!("{b:.1}")),
                c.name.clone(),
                format!("{:.6}", m.moved),
                format!("{:.6}", c.ideal),
                format!("{:.6}", m.peak_to_mean),
            ]);
        }
    }
    t.csv()
}
