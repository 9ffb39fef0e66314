//! `ketama compare`'s report as a table, JSON or CSV.

use ketama_core::{Profile, Ring};
use serde_json::json;

use super::args::CompareArgs;
use super::differences::Difference;
use super::tally::Tally;
use crate::output::{self, pct, Format, Table};

/// Renders the comparison in the format asked for.
pub(crate) fn render(
    c: &CompareArgs,
    a: &Ring,
    b: &Ring,
    key_source: &str,
    t: &Tally,
    diffs: &[Difference],
    f: Format,
) -> String {
    match f {
        Format::Json => output::json(&json!({
            "a": {"profile": a.profile().name, "given": c.profile, "hash": a.hash().name()},
            "b": {"profile": b.profile().name, "given": c.with, "hash": b.hash().name()},
            "servers": {"file": c.servers, "count": a.len()},
            "keys": {"source": key_source, "total": t.total},
            "agree": t.agree,
            "agreement": t.agreement,
            "verdict": t.verdict,
            "differences": diffs.iter().map(|d| json!({
                "aspect": d.aspect, "a": d.a, "b": d.b, "note": d.note, "effective": d.effective
            })).collect::<Vec<_>>(),
            "disagreements": t.flows.iter().map(|((x, y), n)| json!({"a": x, "b": y, "keys": n})).collect::<Vec<_>>(),
        })),
        Format::Csv => csv(a, b, t, diffs),
        Format::Table => table(c, a, b, key_source, t, diffs),
    }
}

/// The agreement row, the profiles row, then one row per difference.
fn csv(a: &Ring, b: &Ring, t: &Tally, diffs: &[Difference]) -> String {
    let mut out = Table::new(&["aspect", "a", "b", "effective", "note"]);
    out.row(vec![
        "agreement".into(),
        format!("{:.6}", t.agreement),
        format!("{}/{}", t.agree, t.total),
        String::new(),
        t.verdict.clone(),
    ]);
    out.row(vec![
        "profile".into(),
        a.profile().name.into(),
        b.profile().name.into(),
        String::new(),
        String::new(),
    ]);
    for d in diffs {
        out.row(vec![
            d.aspect.into(),
            d.a.clone(),
            d.b.clone(),
            d.effective.to_string(),
            d.note.clone(),
        ]);
    }
    out.csv()
}

/// The name as given, with the profile it resolved to when that is another name.
fn shown(given: &str, p: &Profile) -> String {
    if given == p.name {
        p.name.to_string()
    } else {
        format!("{given} (= {})", p.name)
    }
}

/// The summary, the differences and the ten largest disagreements.
fn table(
    c: &CompareArgs,
    a: &Ring,
    b: &Ring,
    key_source: &str,
    t: &Tally,
    diffs: &[Difference],
) -> String {
    let mut out = format!(
        "A = {} (hash {}), B = {} (hash {}), {} servers from {}\n",
        shown(&c.profile, a.profile()),
        a.hash().name(),
        shown(&c.with, b.profile()),
        b.hash().name(),
        a.len(),
        c.servers
    );
    out.push_str(&format!("keys: {} ({key_source})\n", t.total));
    out.push_str(&format!(
        "agreement: {} ({} of {} keys): {}\n",
        pct(t.agreement),
        t.agree,
        t.total,
        t.verdict
    ));
    if !diffs.is_empty() {
        out.push_str("\nstructural differences:\n");
        let mut tb = Table::new(&["aspect", "A", "B", "why"]);
        for d in diffs {
            let why = if d.effective {
                d.note.clone()
            } else {
                format!("{} (not a cause here)", d.note)
            };
            tb.row(vec![d.aspect.into(), d.a.clone(), d.b.clone(), why]);
        }
        out.push_str(&tb.text());
    }
    if !t.flows.is_empty() {
        out.push_str("\nwhere they disagree (top 10):\n");
        let mut tb = Table::new(&["A says", "B says", "keys"]);
        for ((x, y), n) in t.flows.iter().take(10) {
            tb.row(vec![x.clone(), y.clone(), n.to_string()]);
        }
        out.push_str(&tb.text());
    }
    out
}
