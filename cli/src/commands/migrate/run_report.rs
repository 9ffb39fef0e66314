//! The report of a run: its counters as a table or JSON.

use ketama_migrate::run::{get, Counts};
use ketama_migrate::{Outcome, Placement};
use serde_json::json;

use super::args::RunArgs;
use super::setup::CACHEDUMP_NOTE;
use crate::output::Table;

/// Each counter shown: name, value, meaning.
fn rows(a: &RunArgs, c: &Counts) -> Vec<(&'static str, u64, &'static str)> {
    let mut v = vec![
        (
            "listed",
            get(&c.listed),
            "keys on the OLD servers of this run",
        ),
        ("stay", get(&c.stay), "their server does not change"),
        (
            "stale",
            get(&c.stale),
            "misplaced under the OLD placement: not copied",
        ),
        ("expired", get(&c.expired), "TTL passed: not copied"),
        (
            "no new owner",
            get(&c.no_new_owner),
            "the NEW client refuses the key",
        ),
        ("moving", get(&c.moving), "keys whose server changes"),
    ];
    if a.delete_moved {
        v.extend([
            (
                "deleted",
                get(&c.deleted_old),
                "OLD copies deleted (the NEW owner holds the key)",
            ),
            (
                "not held",
                get(&c.not_held),
                "kept: the NEW owner does not hold the key",
            ),
            (
                "changed",
                get(&c.changed_at_source),
                "kept: changed at the OLD server since listed",
            ),
        ]);
    } else {
        v.extend([
            ("copied", get(&c.copied), "written to the NEW owner"),
            (
                "updated",
                get(&c.updated),
                "copies updated: the source changed since copied",
            ),
            (
                "unchanged",
                get(&c.unchanged),
                "copied before; source and copy unchanged",
            ),
            (
                "kept",
                get(&c.kept),
                "the NEW owner already held the key (newer): not overwritten",
            ),
            (
                "client changed",
                get(&c.client_changed),
                "a client changed the copy after it was written: left alone",
            ),
            (
                "deleted",
                get(&c.deleted_copies),
                "copies deleted: their source is gone",
            ),
            (
                "settled",
                get(&c.settled),
                "writes of a stopped run found on the NEW server as written: recorded",
            ),
            (
                "verified",
                get(&c.verified),
                "copies on a restarted NEW server found as written (same value and flags): recorded",
            ),
        ]);
    }
    v.extend([
        (
            "vanished",
            get(&c.vanished),
            "gone at the source before it was read",
        ),
        (
            "refused",
            get(&c.refused),
            "the NEW server refused the item (SERVER_ERROR: e.g. over its item size limit)",
        ),
        (
            "unsendable",
            get(&c.unsendable),
            "binary keys over 186 bytes: the meta protocol cannot name them",
        ),
        (
            "failed",
            get(&c.failed),
            "not done: a server failed (run again)",
        ),
    ]);
    v
}

/// The table of a run.
pub(crate) fn outcome_table(pl: &Placement, a: &RunArgs, o: &Outcome) -> String {
    let mut out = format!(
        "migrate run{}: {}{}\n\n",
        if a.dry_run {
            " (dry run: nothing written)"
        } else {
            ""
        },
        pl.describe(),
        a.shard
            .as_deref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    let mut t = Table::new(&["keys", "count", "what"]);
    for (name, n, what) in rows(a, &o.counts) {
        t.row(vec![name.into(), n.to_string(), what.into()]);
    }
    out.push_str(&t.text());
    let moving = get(&o.counts.moving);
    out.push_str(&format!(
        "\n{:.1} s (listing {:.1} s){}\n",
        o.seconds,
        o.list_seconds,
        if o.seconds > 0.0 && moving > 0 {
            format!(", {:.0} moving keys/s", moving as f64 / o.seconds)
        } else {
            String::new()
        }
    ));
    if moving == 0 && o.dead.is_empty() {
        out.push_str("nothing moves\n");
    }
    if o.partial {
        out.push_str(CACHEDUMP_NOTE);
        out.push('\n');
    }
    for (label, e) in &o.dead {
        out.push_str(&format!("FAILED: {}\n", failure(label, e)));
    }
    if o.interrupted {
        out.push_str("INTERRUPTED: a rerun resumes\n");
    }
    out
}

/// What failed, naming the server once: its error when that names it (every server error
/// does), else the label and the error.
pub(crate) fn failure(label: &str, e: &str) -> String {
    if e.contains(label) {
        e.to_string()
    } else {
        format!("server {label}: {e}")
    }
}

/// The JSON of a run.
pub(crate) fn outcome_json(pl: &Placement, a: &RunArgs, o: &Outcome) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (name, n, _) in rows(a, &o.counts) {
        m.insert(name.replace(' ', "_"), json!(n));
    }
    json!({
        "old": pl.old.name,
        "new": pl.new.name,
        "dry_run": a.dry_run,
        "delete_moved": a.delete_moved,
        "shard": a.shard,
        "counts": m,
        "seconds": o.seconds,
        "seconds_listing": o.list_seconds,
        "failed_servers": o.dead.iter().map(|(l, e)| json!({"server": l, "error": e})).collect::<Vec<_>>(),
        "cachedump": o.partial,
        "interrupted": o.interrupted,
    })
}

/// How syncs until quiet went (`--until-quiet`).
pub(crate) struct Quiet {
    /// The threshold.
    pub(crate) below: u64,
    /// Each pass: keys changed, seconds.
    pub(crate) passes: Vec<(u64, f64)>,
    /// Whether the last pass changed fewer keys than the threshold.
    pub(crate) quiet: bool,
}

impl Quiet {
    /// The report's lines (the table above is the last pass's).
    pub(crate) fn text(&self) -> String {
        let mut out = String::from("\n");
        for (i, (n, s)) in self.passes.iter().enumerate() {
            out.push_str(&format!("pass {}: {n} keys changed in {s:.1} s\n", i + 1));
        }
        let (last, secs) = self.passes.last().copied().unwrap_or_default();
        out.push_str(&if self.quiet {
            format!(
                "quiet: the last pass changed {last} keys (fewer than {}) in {secs:.1} s; keys \
                 written at the OLD servers from its start until the clients switch read stale \
                 or missing after the switch: pause writes for the switch, or switch now\n",
                self.below
            )
        } else {
            format!(
                "NOT quiet after {} passes: the last one changed {last} keys (the threshold is \
                 {}); writers change keys faster than a pass copies them\n",
                self.passes.len(),
                self.below
            )
        });
        out
    }

    /// The report's JSON.
    pub(crate) fn json(&self) -> serde_json::Value {
        json!({
            "threshold": self.below,
            "quiet": self.quiet,
            "passes": self.passes.iter().map(|(n, s)| json!({"changed": n, "seconds": s})).collect::<Vec<_>>(),
            "residual": self.passes.last().map(|p| p.0),
        })
    }
}
