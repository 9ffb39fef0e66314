//! The report of a run: its counters as a table or JSON.

use std::sync::atomic::AtomicU64;
use std::time::Duration;

use ketama_migrate::run::{get, Counts};
use ketama_migrate::{Outcome, Placement};
use serde_json::json;

use super::args::RunArgs;
use super::setup::CACHEDUMP_NOTE;
use crate::output::Table;

/// One counter of a report: its name, what it means, where a run keeps it.
pub(crate) type Row = (&'static str, &'static str, fn(&Counts) -> &AtomicU64);

/// The counters a run reports, in order: the copy's, or `--delete-moved`'s.
pub(crate) fn row_defs(delete_moved: bool) -> Vec<Row> {
    let mut v: Vec<Row> = vec![
        ("listed", "keys on the OLD servers of this run", |c| {
            &c.listed
        }),
        ("stay", "their server does not change", |c| &c.stay),
        (
            "stale",
            "misplaced under the OLD placement: not copied",
            |c| &c.stale,
        ),
        ("expired", "TTL passed: not copied", |c| &c.expired),
        ("no new owner", "the NEW client refuses the key", |c| {
            &c.no_new_owner
        }),
        ("moving", "keys whose server changes", |c| &c.moving),
        (
            "short ttl",
            "moving, but expiring within --min-ttl: not copied",
            |c| &c.short_ttl,
        ),
        (
            "hot",
            "moving and read within --hot-window: copied first (--hot-first)",
            |c| &c.hot,
        ),
    ];
    let more: Vec<Row> = if delete_moved {
        vec![
            (
                "deleted",
                "OLD copies deleted (the NEW owner holds the key)",
                |c: &Counts| &c.deleted_old,
            ),
            (
                "not held",
                "kept: the NEW owner does not hold the key",
                |c| &c.not_held,
            ),
            (
                "changed",
                "kept: changed at the OLD server since listed",
                |c| &c.changed_at_source,
            ),
        ]
    } else {
        vec![
            ("copied", "written to the NEW owner", |c: &Counts| &c.copied),
            (
                "updated",
                "copies updated: the source changed since copied",
                |c| &c.updated,
            ),
            (
                "unchanged",
                "copied before; source and copy unchanged",
                |c| &c.unchanged,
            ),
            (
                "kept",
                "the NEW owner already held the key (newer): not overwritten",
                |c| &c.kept,
            ),
            (
                "client changed",
                "a client changed the copy after it was written: left alone",
                |c| &c.client_changed,
            ),
            ("deleted", "copies deleted: their source is gone", |c| {
                &c.deleted_copies
            }),
            (
                "settled",
                "writes of a stopped run found on the NEW server as written: recorded",
                |c| &c.settled,
            ),
            (
                "verified",
                "copies on a restarted NEW server found as written (same value and flags): recorded",
                |c| &c.verified,
            ),
        ]
    };
    v.extend(more);
    let last: [Row; 4] = [
        (
            "vanished",
            "gone at the source before it was read",
            |c: &Counts| &c.vanished,
        ),
        (
            "refused",
            "the NEW server refused the item (SERVER_ERROR: e.g. over its item size limit)",
            |c| &c.refused,
        ),
        (
            "unsendable",
            "binary keys over 186 bytes: the meta protocol cannot name them",
            |c| &c.unsendable,
        ),
        ("failed", "not done: a server failed (run again)", |c| {
            &c.failed
        }),
    ];
    v.extend(last);
    v
}

/// Each counter shown: name, value, meaning.
fn rows(a: &RunArgs, c: &Counts) -> Vec<(&'static str, u64, &'static str)> {
    row_defs(a.delete_moved)
        .into_iter()
        .map(|(name, what, at)| (name, get(at(c)), what))
        .collect()
}

/// The line under a report's table: time, listing time, keys and bytes per second, bytes
/// read, the byte limit's waits.
pub(crate) fn speed_line(
    seconds: f64,
    list_seconds: f64,
    moving: u64,
    bytes: u64,
    waited: Option<f64>,
) -> String {
    let mut line = format!("\n{seconds:.1} s (listing {list_seconds:.1} s)");
    if seconds > 0.0 && moving > 0 {
        line.push_str(&format!(", {:.0} moving keys/s", moving as f64 / seconds));
    }
    if bytes > 0 {
        line.push_str(&format!(", {:.1} MB of values read", bytes as f64 / 1e6));
        if seconds > 0.0 {
            line.push_str(&format!(" ({:.1} MB/s)", bytes as f64 / 1e6 / seconds));
        }
    }
    if let Some(w) = waited {
        line.push_str(&format!(", {w:.1} s waiting for the byte limit"));
    }
    line.push('\n');
    line
}

/// The table of a run.
pub(crate) fn outcome_table(
    pl: &Placement,
    a: &RunArgs,
    o: &Outcome,
    waited: Option<Duration>,
) -> String {
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
    out.push_str(&speed_line(
        o.seconds,
        o.list_seconds,
        moving,
        get(&o.counts.bytes_read),
        waited.map(|w| w.as_secs_f64()),
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
pub(crate) fn outcome_json(
    pl: &Placement,
    a: &RunArgs,
    o: &Outcome,
    waited: Option<Duration>,
) -> serde_json::Value {
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
        "bytes_read": get(&o.counts.bytes_read),
        "min_ttl": a.scale.keys.min_ttl,
        "hot_first": a.scale.hot_first.then_some(a.scale.keys.hot_window),
        "max_bytes_per_s": a.scale.max_bytes_per_s,
        "max_bytes_per_s_per_server": a.scale.max_bytes_per_s_per_server,
        "seconds_waiting_byte_limit": waited.map(|w| w.as_secs_f64()),
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
