//! The 10 -> 12 nodes experiment as a table, JSON or CSV, with the live run beside the
//! simulated one when there was one.

use ketama_core::Server;
use serde_json::{json, Value};

use super::experiment::Report;
use super::live::{self, Live};
use crate::output::{self, pct, Format, Table};

/// Renders the experiment (and its live run) in the format asked for.
pub(crate) fn render(r: &Report, live: Option<&Live>, f: Format) -> String {
    match f {
        Format::Table => table(r, live),
        Format::Json => output::json(&to_json(r, live)),
        Format::Csv => csv(r, live),
    }
}

fn range(v: &[usize]) -> (usize, usize) {
    (
        v.iter().copied().min().unwrap_or(0),
        v.iter().copied().max().unwrap_or(0),
    )
}

/// The summary table per hash, then the keys per node before -> after.
fn table(r: &Report, live: Option<&Live>) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "profile {}: {} keys ({})\n",
        r.profile.name, r.keys, r.source
    ));
    let mut change = format!("nodes {} -> {}", r.old.len(), r.new.len());
    if !r.added.is_empty() {
        change.push_str(&format!(", added {}", r.added.join(" ")));
    }
    if !r.removed.is_empty() {
        change.push_str(&format!(", removed {}", r.removed.join(" ")));
    }
    out.push_str(&change);
    out.push_str(&format!("; ideal hit rate {}\n\n", pct(r.ideal)));

    let mut t = Table::new(&[
        "hash",
        "hit rate",
        "ideal",
        "modula",
        "before min~max",
        "after min~max",
        "ns/key",
    ]);
    for x in &r.results {
        let (b0, b1) = range(&x.before);
        let (a0, a1) = range(&x.after);
        t.row(vec![
            x.shown.clone(),
            pct(x.hit_rate),
            pct(r.ideal),
            pct(x.modula_hit_rate),
            format!("{b0}~{b1}"),
            format!("{a0}~{a1}"),
            format!("{:.1}", x.ns_per_key),
        ]);
    }
    out.push_str(&t.text());
    if let Some(l) = live {
        out.push_str(&live_table(r, l));
    }

    // Keys per node, before -> after; five hashes per block.
    let mut labels: Vec<String> = r.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(r.added.iter().cloned());
    for chunk in r.results.chunks(5) {
        out.push('\n');
        let mut headers = vec!["keys per node".to_string()];
        headers.extend(chunk.iter().map(|x| x.shown.clone()));
        let mut t = Table::new(&headers);
        for label in &labels {
            let mut row = vec![label.clone()];
            for x in chunk {
                let (b, a) = r.keys_on(x, label);
                let cell = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
                row.push(format!("{} -> {}", cell(b), cell(a)));
            }
            t.row(row);
        }
        out.push_str(&t.text());
    }
    let refused: usize = r.results.iter().map(|x| x.refused).max().unwrap_or(0);
    if refused > 0 {
        out.push_str(&format!(
            "\n{refused} keys refused by the client are not counted\n"
        ));
    }
    out
}

/// Everything, as JSON.
fn to_json(r: &Report, live: Option<&Live>) -> Value {
    let labels = |v: &[Server]| v.iter().map(|s| s.label.clone()).collect::<Vec<_>>();
    let mut v = json!({
        "profile": r.profile.name,
        "source": r.source,
        "keys": r.keys,
        "nodes_before": labels(&r.old),
        "nodes_after": labels(&r.new),
        "added": r.added,
        "removed": r.removed,
        "ideal_hit_rate": r.ideal,
        "results": r.results.iter().map(|x| {
            let (b0, b1) = range(&x.before);
            let (a0, a1) = range(&x.after);
            json!({
                "hash": x.shown,
                "hash_name": x.hash.name(),
                "placed": x.placed,
                "refused": x.refused,
                "hit_rate": x.hit_rate,
                "modula_hit_rate": x.modula_hit_rate,
                "ns_per_key": x.ns_per_key,
                "before": r.old.iter().zip(&x.before).map(|(s, c)| json!({"node": s.label, "keys": c})).collect::<Vec<_>>(),
                "after": r.new.iter().zip(&x.after).map(|(s, c)| json!({"node": s.label, "keys": c})).collect::<Vec<_>>(),
                "before_range": [b0, b1],
                "after_range": [a0, a1],
            })
        }).collect::<Vec<_>>(),
    });
    if let Some(l) = live {
        add_live_json(&mut v, r, l);
    }
    v
}

/// The live section of the table: hit rates live vs simulated, then each server's
/// `curr_items` after storing beside the simulated keys per node before the change.
fn live_table(r: &Report, l: &Live) -> String {
    let mut out = format!("\n{}\n", live::describe(l));
    let mut t = Table::new(&[
        "hash",
        "hit rate (simulated)",
        "hit rate (live)",
        "found / stored",
        "live = simulated",
    ]);
    let migrated = l.results.iter().any(|lx| lx.migrated_hits.is_some());
    if migrated {
        t.headers.push("hit rate after migrating".into());
    }
    for (x, lx) in r.results.iter().zip(&l.results) {
        let mut row = vec![
            x.shown.clone(),
            pct(x.hit_rate),
            pct(lx.hit_rate),
            format!("{} / {}", lx.hits, lx.stored),
            if lx.hit_rate == x.hit_rate && lx.stored == x.placed {
                "yes".into()
            } else {
                "NO".into()
            },
        ];
        if let Some(m) = lx.migrated_hit_rate() {
            row.push(pct(m));
        }
        t.row(row);
    }
    out.push_str(&t.text());
    for (chunk, lchunk) in r.results.chunks(5).zip(l.results.chunks(5)) {
        out.push('\n');
        let mut headers = vec![
            "items before (simulated / live)".to_string(),
            "server".into(),
        ];
        headers.extend(chunk.iter().map(|x| x.shown.clone()));
        let mut t = Table::new(&headers);
        for (i, s) in r.old.iter().enumerate() {
            let addr = l.address(&s.label).map_or("-".into(), |a| a.to_string());
            let mut row = vec![s.label.clone(), addr];
            for (x, lx) in chunk.iter().zip(lchunk) {
                let sim = x.before.get(i).copied().unwrap_or(0);
                let got = lx.items.get(i).copied().unwrap_or(0);
                row.push(format!("{sim} / {got}"));
            }
            t.row(row);
        }
        out.push_str(&t.text());
    }
    out
}

/// The live run's figures beside each hash's simulated ones.
fn add_live_json(v: &mut Value, r: &Report, l: &Live) {
    let (server, version) = match l.kind {
        super::live::conn::Kind::Memcached => ("memcached", l.version.as_str()),
        super::live::conn::Kind::Redis => ("redis", l.version.as_str()),
    };
    v["live"] = json!({
        "backend": server,
        server: version,
        "tls": l.tls,
        "servers": l.addresses.iter().map(|(n, a)| json!({"node": n, "address": a.to_string()})).collect::<Vec<_>>(),
    });
    if let Some(results) = v["results"].as_array_mut() {
        for (o, lx) in results.iter_mut().zip(&l.results) {
            o["live_hit_rate"] = json!(lx.hit_rate);
            if let Some(m) = lx.migrated_hit_rate() {
                o["live_hit_rate_migrated"] = json!(m);
            }
            o["live_hits"] = json!(lx.hits);
            o["live_stored"] = json!(lx.stored);
            o["live_items_before"] = Value::Array(
                r.old
                    .iter()
                    .zip(&lx.items)
                    .map(|(s, n)| json!({"node": s.label, "items": n}))
                    .collect(),
            );
        }
    }
}

/// One row per (hash, node), the hash's summary repeated on each.
fn csv(r: &Report, live: Option<&Live>) -> String {
    let mut headers = vec![
        "hash",
        "hit_rate",
        "ideal_hit_rate",
        "modula_hit_rate",
        "ns_per_key",
        "node",
        "keys_before",
        "keys_after",
    ];
    if live.is_some() {
        headers.extend(["live_hit_rate", "live_items_before"]);
    }
    let mut t = Table::new(&headers);
    let mut labels: Vec<String> = r.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(r.added.iter().cloned());
    for (i, x) in r.results.iter().enumerate() {
        let lx = live.and_then(|l| l.results.get(i));
        for label in &labels {
            let (b, a) = r.keys_on(x, label);
            let cell = |v: Option<usize>| v.map_or(String::new(), |v| v.to_string());
            let mut row = vec![
                x.shown.clone(),
                format!("{:.6}", x.hit_rate),
                format!("{:.6}", r.ideal),
                format!("{:.6}", x.modula_hit_rate),
                format!("{:.1}", x.ns_per_key),
                label.clone(),
                cell(b),
                cell(a),
            ];
            if let Some(lx) = lx {
                let items = r
                    .old
                    .iter()
                    .position(|s| &s.label == label)
                    .and_then(|j| lx.items.get(j));
                row.push(format!("{:.6}", lx.hit_rate));
                row.push(items.map_or(String::new(), |n| n.to_string()));
            }
            t.row(row);
        }
    }
    t.csv()
}
