//! `ketama diff`: what moves where when the fleet changes from OLD to NEW.
//!
//! For ring profiles the continuum is cut into the hash ranges each server owns (by the
//! profile's search rule), old and new are overlaid, and every range whose owner changes is
//! one step of the migration plan: `[start, end) old -> new`. Keys (given, or the built-in
//! generated set) are located on both rings and counted.

use std::collections::BTreeMap;

use clap::Args;
use ketama_core::{Ring, Unit};
use serde_json::{json, Value};

use crate::args::{ring_from, RingArgs};
use crate::output::Format;
use crate::output::{key_text, pct, Table};
use crate::shared::Fail;
use crate::{keys, servers};

/// `ketama diff` options.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Profile, hash and the servers file before the change.
    #[command(flatten)]
    pub ring: RingArgs,
    /// The servers file after the change.
    #[arg(long, value_parser = crate::args::path_arg())]
    pub to: String,
    /// Keys file, one key per line (default: 100,000 built-in generated keys).
    #[arg(long, value_parser = crate::args::path_arg())]
    pub keys: Option<String>,
    /// Also list every key that moves.
    #[arg(long)]
    pub list_keys: bool,
}

/// A stretch of the key-hash space and who owns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// First hash value (inclusive).
    pub start: u64,
    /// End (exclusive).
    pub end: u64,
    /// Owner label; `None` where no server owns it.
    pub owner: Option<String>,
}

/// Who owns which part of the key-hash space.
#[derive(Clone, Debug)]
pub struct Ownership {
    /// What the numbers count: "hash" values or pecl memcache's 1024 "bucket"s.
    pub unit: &'static str,
    /// Size of the space (keys' hash values lie in `[0, space)`).
    pub space: u64,
    /// Contiguous spans covering `[0, space)`.
    pub spans: Vec<Span>,
    /// A caveat to print (approximations).
    pub note: Option<&'static str>,
}

/// The ownership map of a ring profile (from core's [`Ring::spans`], which applies the
/// profile's own search and tie rules); `None` for modulo, jump, rendezvous and maglev.
pub fn ownership(ring: &Ring) -> Option<Ownership> {
    let map = ring.spans()?;
    let label = |i: Option<usize>| i.and_then(|i| ring.server(i)).map(|s| s.label.clone());
    Some(Ownership {
        unit: match map.unit {
            Unit::Hash => "hash",
            Unit::Bucket => "bucket",
        },
        space: map.space,
        spans: map
            .spans
            .iter()
            .map(|s| Span {
                start: s.start,
                end: s.end,
                owner: label(s.owner),
            })
            .collect(),
        note: map
            .approximate
            .then_some("128-bit continuum shown at 32-bit resolution"),
    })
}

/// A moved range: `[start, end)` goes from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Start (inclusive).
    pub start: u64,
    /// End (exclusive).
    pub end: u64,
    /// Old owner.
    pub from: Option<String>,
    /// New owner.
    pub to: Option<String>,
}

/// Overlays two ownership maps of the same space; returns the ranges that change owner.
pub fn moves(old: &Ownership, new: &Ownership) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut at = 0u64;
    while i < old.spans.len() && j < new.spans.len() {
        let (a, b) = (&old.spans[i], &new.spans[j]);
        let end = a.end.min(b.end);
        if a.owner != b.owner && at < end {
            match out.last_mut() {
                Some(m) if m.end == at && m.from == a.owner && m.to == b.owner => m.end = end,
                _ => out.push(Move {
                    start: at,
                    end,
                    from: a.owner.clone(),
                    to: b.owner.clone(),
                }),
            }
        }
        at = end;
        if a.end == end {
            i += 1;
        }
        if b.end == end {
            j += 1;
        }
    }
    out
}

fn name(o: &Option<String>) -> String {
    o.clone().unwrap_or_else(|| "-".into())
}

/// Runs `ketama diff`.
pub fn run(a: &DiffArgs, f: Format) -> Result<String, Fail> {
    let old = ring_from(&a.ring)?;
    let profile = old.profile();
    let new = crate::args::apply_options(
        servers::ring(profile, Some(old.hash()), &servers::load(&a.to)?)?,
        *old.options(),
    )?;
    let (key_source, keys) = match &a.keys {
        Some(p) => (p.clone(), keys::file_keys(p)?),
        None => (
            format!("{} built-in generated keys", keys::GENERATED_KEYS),
            keys::generated(),
        ),
    };

    // The continuum.
    let ring_part = match (ownership(&old), ownership(&new)) {
        (Some(o), Some(n)) => {
            let mv = moves(&o, &n);
            Some((o, mv))
        }
        _ => None,
    };

    // Keys.
    let mut flows: BTreeMap<(String, String), (u64, usize)> = BTreeMap::new();
    let mut moved_keys = Vec::new();
    let mut moved = 0usize;
    for k in &keys {
        let from = old.locate(k).ok().map(|s| s.label.clone());
        let to = new.locate(k).ok().map(|s| s.label.clone());
        if from != to {
            moved += 1;
            flows.entry((name(&from), name(&to))).or_default().1 += 1;
            if a.list_keys {
                moved_keys.push((key_text(k), name(&from), name(&to)));
            }
        }
    }
    if let Some((_, mv)) = &ring_part {
        for m in mv {
            flows.entry((name(&m.from), name(&m.to))).or_default().0 += m.end - m.start;
        }
    }
    let space = ring_part.as_ref().map(|(o, _)| o.space);
    let ring_moved: Option<u64> = ring_part
        .as_ref()
        .map(|(_, mv)| mv.iter().map(|m| m.end - m.start).sum());
    let frac = |x: u64| space.map(|s| x as f64 / s as f64);
    let key_frac = |x: usize| {
        if keys.is_empty() {
            0.0
        } else {
            x as f64 / keys.len() as f64
        }
    };

    let title = format!(
        "profile {} (hash {}): {} ({} servers) -> {} ({} servers)",
        profile.name,
        old.hash().name(),
        a.ring.servers,
        old.len(),
        a.to,
        new.len()
    );
    match f {
        Format::Json => {
            let v = json!({
                "profile": profile.name,
                "hash": old.hash().name(),
                "old": {"file": a.ring.servers, "servers": old.servers().map(|s| s.label.clone()).collect::<Vec<_>>()},
                "new": {"file": a.to, "servers": new.servers().map(|s| s.label.clone()).collect::<Vec<_>>()},
                "ring": ring_part.as_ref().map(|(o, mv)| json!({
                    "unit": o.unit,
                    "space": o.space,
                    "moved": ring_moved,
                    "moved_fraction": frac(ring_moved.unwrap_or(0)),
                    "note": o.note,
                    "ranges": mv.iter().map(|m| json!({"start": m.start, "end": m.end, "from": m.from, "to": m.to})).collect::<Vec<_>>(),
                })),
                "keys": {"source": key_source, "total": keys.len(), "moved": moved, "moved_fraction": key_frac(moved)},
                "flows": flows.iter().map(|((fr, to), (r, k))| json!({
                    "from": fr, "to": to, "ring_fraction": frac(*r), "keys": k
                })).collect::<Vec<_>>(),
                "moved_keys": if a.list_keys {
                    Value::Array(moved_keys.iter().map(|(k, fr, to)| json!({"key": k, "from": fr, "to": to})).collect())
                } else { Value::Null },
            });
            Ok(crate::output::json(&v))
        }
        Format::Csv => {
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
            let rf = |x: u64| frac(x).map_or(String::new(), |v| format!("{v:.9}"));
            t.row(vec![
                "total".into(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                ring_moved.map_or(String::new(), rf),
                moved.to_string(),
                String::new(),
            ]);
            for ((fr, to), (r, k)) in &flows {
                t.row(vec![
                    "flow".into(),
                    String::new(),
                    String::new(),
                    fr.clone(),
                    to.clone(),
                    rf(*r),
                    k.to_string(),
                    String::new(),
                ]);
            }
            if let Some((_, mv)) = &ring_part {
                for m in mv {
                    t.row(vec![
                        "range".into(),
                        m.start.to_string(),
                        m.end.to_string(),
                        name(&m.from),
                        name(&m.to),
                        rf(m.end - m.start),
                        String::new(),
                        String::new(),
                    ]);
                }
            }
            for (k, fr, to) in &moved_keys {
                t.row(vec![
                    "key".into(),
                    String::new(),
                    String::new(),
                    fr.clone(),
                    to.clone(),
                    String::new(),
                    String::new(),
                    k.clone(),
                ]);
            }
            Ok(t.csv())
        }
        Format::Table => {
            let mut out = format!("{title}\n");
            match (&ring_part, ring_moved) {
                (Some((o, _)), Some(m)) => {
                    let unit = if o.unit == "bucket" {
                        "of the 1024 buckets"
                    } else {
                        "of the continuum"
                    };
                    out.push_str(&format!(
                        "moves: {} {unit} ({m} of {} {} values)\n",
                        pct(frac(m).unwrap_or(0.0)),
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
                "keys: {} of {} move ({}; {key_source})\n",
                pct(key_frac(moved)),
                keys.len(),
                moved
            ));
            out.push('\n');
            let mut t = Table::new(&["from", "to", "continuum", "keys"]);
            for ((fr, to), (r, k)) in &flows {
                t.row(vec![
                    fr.clone(),
                    to.clone(),
                    frac(*r).map_or("-".into(), pct),
                    k.to_string(),
                ]);
            }
            if t.rows.is_empty() {
                out.push_str("nothing moves\n");
            } else {
                out.push_str(&t.text());
            }
            if let Some((o, mv)) = &ring_part {
                if !mv.is_empty() {
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
                            frac(m.end - m.start)
                                .map_or("-".into(), |v| format!("{:.4}%", v * 100.0)),
                        ]);
                    }
                    out.push_str(&t.text());
                }
            }
            if a.list_keys && !moved_keys.is_empty() {
                out.push_str("\nmoved keys:\n");
                let mut t = Table::new(&["key", "old", "new"]);
                for (k, fr, to) in &moved_keys {
                    t.row(vec![k.clone(), fr.clone(), to.clone()]);
                }
                out.push_str(&t.text());
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(spans: &[(u64, u64, &str)]) -> Ownership {
        Ownership {
            unit: "hash",
            space: spans.last().map_or(0, |s| s.1),
            spans: spans
                .iter()
                .map(|&(a, b, o)| Span {
                    start: a,
                    end: b,
                    owner: Some(o.to_string()),
                })
                .collect(),
            note: None,
        }
    }

    #[test]
    fn overlay() {
        let a = own(&[(0, 10, "x"), (10, 20, "y")]);
        let b = own(&[(0, 5, "x"), (5, 15, "z"), (15, 20, "y")]);
        let m = moves(&a, &b);
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[0].start, m[0].end, m[0].to.as_deref()),
            (5, 10, Some("z"))
        );
        assert_eq!(
            (m[1].start, m[1].end, m[1].from.as_deref()),
            (10, 15, Some("y"))
        );
    }

    /// For every ring profile (and xmemcached with its 15-bit CRC, full of equal points), the
    /// spans say exactly where each key goes.
    #[test]
    fn spans_agree_with_locate() {
        let servers: Vec<ketama_core::Server> = (0..10)
            .map(|i| {
                ketama_core::Server::parse(&format!("192.168.0.100:{}", 12000 + i), 1).unwrap()
            })
            .collect();
        let keys = crate::keys::generated();
        let cases: Vec<(&str, Option<&str>)> = ketama_core::Profile::all()
            .iter()
            .filter(|p| p.is_ring() && p.name != "xmemcached-nginx")
            .map(|p| (p.name, None))
            .chain([
                ("xmemcached", Some("CRC32_HASH")),
                ("spymemcached", Some("CRC_HASH")),
                ("xmemcached", Some("NATIVE_HASH")),
            ])
            .collect();
        for (name, hash) in cases {
            let p = ketama_core::Profile::by_name(name).unwrap();
            let h = hash.map(|n| p.hash_from_name(n).unwrap());
            let ring = Ring::with_servers(p, h, servers.clone()).unwrap();
            let o = ownership(&ring).unwrap();
            assert_eq!(o.spans.first().unwrap().start, 0, "{name}");
            assert_eq!(o.spans.last().unwrap().end, o.space, "{name}");
            assert!(o.spans.windows(2).all(|w| w[0].end == w[1].start), "{name}");
            if o.note.is_some() {
                continue; // 128-bit ring: spans are an approximation
            }
            for k in keys.iter().step_by(7) {
                let Ok(hv) = ring.key_hash(k) else { continue };
                let hv = if o.unit == "bucket" {
                    u64::from(hv % 1024)
                } else {
                    u64::from(hv)
                };
                let span = o
                    .spans
                    .iter()
                    .find(|s| s.start <= hv && hv < s.end)
                    .unwrap();
                let want = ring.locate(k).ok().map(|s| s.label.clone());
                assert_eq!(
                    span.owner,
                    want,
                    "{name} {hash:?} key {:?}",
                    String::from_utf8_lossy(k)
                );
            }
        }
    }
}
