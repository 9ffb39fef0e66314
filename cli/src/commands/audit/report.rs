//! The audit's report: tables and JSON for one profile or for `--detect`'s ranking.

use serde_json::{json, Value};

use super::score::{share, Holding, Misplaced, Score, Unreachable};
use crate::output::{key_fields, key_text, pct, Table};

/// One misplaced key as JSON.
pub(crate) fn misplaced_json(m: &Misplaced) -> Value {
    let mut o = serde_json::Map::new();
    key_fields(&mut o, &m.key);
    o.insert("on".into(), json!(m.on));
    o.insert("expected".into(), json!(m.expected));
    Value::Object(o)
}

fn servers_json(held: &[Holding], down: &[Unreachable], s: Option<&Score>) -> Value {
    let mut v: Vec<Value> = held
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let mut o = json!({
                "server": h.label,
                "keys": h.keys,
                "curr_items": h.items,
                "listing": h.listing,
                "bad_lines": h.bad_lines,
            });
            if let Some(s) = s {
                let agree = s.agree_per_server.get(i).copied().unwrap_or(0);
                o["agree"] = json!(agree);
                o["misplaced"] = json!(h.keys - agree);
            }
            o
        })
        .collect();
    v.extend(
        down.iter()
            .map(|d| json!({"server": d.label, "unreachable": d.error})),
    );
    Value::Array(v)
}

pub(crate) fn profile_json(
    s: &Score,
    held: &[Holding],
    down: &[Unreachable],
    keys: usize,
) -> Value {
    json!({
        "keys": keys,
        "partial": !down.is_empty(),
        "profiles": [{"profile": s.profile.name, "hash": s.hash.name(), "agree": share(s.agree(), keys)}],
        "servers": servers_json(held, down, Some(s)),
    })
}

pub(crate) fn detect_json(
    scores: &[Score],
    held: &[Holding],
    down: &[Unreachable],
    keys: usize,
) -> Value {
    json!({
        "keys": keys,
        "partial": !down.is_empty(),
        "profiles": scores.iter().map(|s| json!({
            "profile": s.profile.name,
            "hash": s.hash.name(),
            "agree": share(s.agree(), keys),
            "default_hash": s.hash == s.profile.default_hash,
        })).collect::<Vec<_>>(),
        "servers": servers_json(held, down, None),
    })
}

/// Said under the tables when some server was listed with `stats cachedump`.
const CACHEDUMP_NOTE: &str = "note: `stats cachedump` (servers without `lru_crawler metadump`) lists at most about 2 MB per slab class, and with a segmented LRU only the HOT part: keys may be missing there\n";

fn cachedump_note(held: &[Holding]) -> &'static str {
    if held.iter().any(|h| h.partial) {
        CACHEDUMP_NOTE
    } else {
        ""
    }
}

fn header(held: &[Holding], down: &[Unreachable], keys: usize, path: &str) -> String {
    let mut out = format!(
        "audit of {} servers ({path}): {keys} keys",
        held.len() + down.len()
    );
    if !down.is_empty() {
        out.push_str(&format!(
            "; PARTIAL: {} unreachable ({})",
            down.len(),
            down.iter()
                .map(|d| d.label.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    out.push('\n');
    out
}

pub(crate) fn profile_table(
    s: &Score,
    held: &[Holding],
    down: &[Unreachable],
    keys: usize,
    path: &str,
    show: usize,
) -> String {
    let mut out = header(held, down, keys, path);
    out.push_str(&format!(
        "profile {} (hash {})\n\n",
        s.profile.name,
        s.hash.name()
    ));
    let mut t = Table::new(&[
        "server",
        "keys",
        "curr_items",
        "agree",
        "misplaced",
        "listed by",
    ]);
    for (i, h) in held.iter().enumerate() {
        let agree = s.agree_per_server.get(i).copied().unwrap_or(0);
        t.row(vec![
            h.label.clone(),
            h.keys.to_string(),
            h.items.to_string(),
            agree.to_string(),
            (h.keys - agree).to_string(),
            h.listing.into(),
        ]);
    }
    for d in down {
        t.row(vec![
            d.label.clone(),
            "-".into(),
            "-".into(),
            "-".into(),
            "-".into(),
            "unreachable".into(),
        ]);
    }
    out.push_str(&t.text());
    out.push_str(cachedump_note(held));
    out.push_str(&format!(
        "\nagreement: {} ({} of {keys} keys sit where {} looks)\n",
        pct(share(s.agree(), keys)),
        s.agree(),
        s.profile.name
    ));
    if s.misplaced > 0 {
        out.push_str(&format!(
            "\nmisplaced keys: {} (a client using {} never finds them){}\n",
            s.misplaced,
            s.profile.name,
            if s.misplaced > show {
                format!("; the first {show} (--show N, or --format json for all)")
            } else {
                String::new()
            }
        ));
        let mut t = Table::new(&["key", "on", "profile looks on"]);
        for m in s.shown.iter().take(show) {
            t.row(vec![
                key_text(&m.key),
                m.on.clone(),
                m.expected
                    .clone()
                    .unwrap_or_else(|| "- (the client refuses the key)".into()),
            ]);
        }
        out.push_str(&t.text());
    }
    out
}

pub(crate) fn detect_table(
    scores: &[Score],
    held: &[Holding],
    down: &[Unreachable],
    keys: usize,
    path: &str,
) -> String {
    let mut out = header(held, down, keys, path);
    let mut t = Table::new(&["server", "keys", "curr_items", "listed by"]);
    for h in held {
        t.row(vec![
            h.label.clone(),
            h.keys.to_string(),
            h.items.to_string(),
            h.listing.into(),
        ]);
    }
    out.push('\n');
    out.push_str(&t.text());
    out.push_str(cachedump_note(held));
    out.push('\n');
    const TOP: usize = 20;
    let mut t = Table::new(&["rank", "profile", "hash", "agree", "keys"]);
    let mut rank = 0;
    let mut last = None;
    for (i, s) in scores.iter().enumerate().take(TOP) {
        if last != Some(s.agree()) {
            rank = i + 1;
            last = Some(s.agree());
        }
        let hash = if s.hash == s.profile.default_hash {
            format!("{} (default)", s.hash.name())
        } else {
            s.hash.name().to_string()
        };
        t.row(vec![
            rank.to_string(),
            s.profile.name.into(),
            hash,
            pct(share(s.agree(), keys)),
            s.agree().to_string(),
        ]);
    }
    out.push_str(&t.text());
    if scores.len() > TOP {
        out.push_str(&format!(
            "({} more profile/hash pairs: --format json lists them all)\n",
            scores.len() - TOP
        ));
    }
    if let Some(best) = scores.first() {
        let tied = scores.iter().filter(|s| s.agree() == best.agree()).count();
        if tied > 1 {
            out.push_str(&format!(
                "{tied} profile/hash pairs share the best score: on this fleet they place these keys alike and cannot be told apart by its contents\n"
            ));
        }
    }
    out
}
