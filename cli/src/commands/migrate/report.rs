//! `ketama migrate report FILE...`: the JSON reports of the shards of one run (`run --shard
//! I/N --format json`, one process per shard: a Kubernetes Indexed Job, GNU parallel) summed
//! into the report of the whole run. Counters and bytes add up; the time is the longest
//! shard's; failed servers are listed together. Every file must report the same run (same
//! OLD and NEW servers files, same mode) and each shard once; a shard missing from 0..N is
//! named, and the report is then incomplete (exit 3).

use std::collections::BTreeSet;
use std::io::Read;

use serde_json::{json, Map, Value};

use super::args::ReportArgs;
use super::run_report::{row_defs, speed_line};
use super::setup::{CACHEDUMP_NOTE, EXIT_SERVER};
use crate::output::{Format, Table};
use crate::shared::Fail;

/// The largest report file read (a run's report is a few KB).
const MAX_FILE: u64 = 16 << 20;

/// One shard's report, as read.
struct Shard {
    file: String,
    v: Value,
}

impl Shard {
    fn text(&self, field: &str) -> String {
        match &self.v[field] {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            v => v.to_string(),
        }
    }

    fn num(&self, field: &str) -> f64 {
        self.v[field].as_f64().unwrap_or(0.0)
    }
}

/// Reads one report: a JSON object with the counters of a run.
fn read(file: &str) -> Result<Shard, Fail> {
    let f = std::fs::File::open(file).map_err(|e| Fail::new(format!("{file}: {e}")))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Fail::new(format!("{file}: not a regular file")));
    }
    let mut text = String::new();
    f.take(MAX_FILE + 1)
        .read_to_string(&mut text)
        .map_err(|e| Fail::new(format!("{file}: {e}")))?;
    if text.len() as u64 > MAX_FILE {
        return Err(Fail::new(format!(
            "{file}: larger than {MAX_FILE} bytes: not the report of a run"
        )));
    }
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        Fail::new(format!(
            "{file}: not JSON ({e}): give the output of `ketama migrate run --format json`"
        ))
    })?;
    if !v["counts"].is_object() {
        return Err(Fail::new(format!(
            "{file}: not the JSON report of `ketama migrate run` (no counts)"
        )));
    }
    Ok(Shard {
        file: file.to_string(),
        v,
    })
}

/// The shard of a report (`I/N`), `None` for an unsharded run.
fn shard_of(s: &Shard) -> Result<Option<(usize, usize)>, Fail> {
    match &s.v["shard"] {
        Value::Null => Ok(None),
        Value::String(t) => super::args::parse_shard(t)
            .map(Some)
            .map_err(|e| Fail::new(format!("{}: {}", s.file, e.0))),
        v => Err(Fail::new(format!("{}: a shard of {v}", s.file))),
    }
}

/// Checks the reports are shards of one run; the shards' count and the missing ones.
fn check(shards: &[Shard]) -> Result<(Option<usize>, Vec<usize>), Fail> {
    let first = &shards[0];
    for s in &shards[1..] {
        for field in ["old", "new", "dry_run", "delete_moved"] {
            if s.text(field) != first.text(field) {
                return Err(Fail::new(format!(
                    "{} and {} are not shards of one run: {field} is '{}' in one, '{}' in the other",
                    first.file,
                    s.file,
                    first.text(field),
                    s.text(field)
                )));
            }
        }
    }
    let mut n = None;
    let mut seen = BTreeSet::new();
    for s in shards {
        let (i, k) = match shard_of(s)? {
            Some(x) => x,
            None if shards.len() == 1 => return Ok((None, Vec::new())),
            None => {
                return Err(Fail::new(format!(
                    "{}: a run without --shard cannot be summed with others (it did every \
                     OLD server)",
                    s.file
                )))
            }
        };
        if *n.get_or_insert(k) != k {
            return Err(Fail::new(format!(
                "{}: shard {i}/{k}, but another report is of {} shards",
                s.file,
                n.unwrap_or(k)
            )));
        }
        if !seen.insert(i) {
            return Err(Fail::new(format!(
                "{}: shard {i}/{k} is given twice",
                s.file
            )));
        }
    }
    let missing = (0..n.unwrap_or(0)).filter(|i| !seen.contains(i)).collect();
    Ok((n, missing))
}

/// Runs `ketama migrate report`: the output and the exit status.
pub(crate) fn run(a: &ReportArgs, f: Format) -> Result<(String, i32), Fail> {
    let shards = a
        .files
        .iter()
        .map(|file| read(file))
        .collect::<Result<Vec<_>, _>>()?;
    let (n, missing) = check(&shards)?;
    let delete_moved = shards[0].v["delete_moved"].as_bool().unwrap_or(false);
    let names: Vec<(String, &str, &str)> = row_defs(delete_moved)
        .into_iter()
        .map(|(name, what, _)| (name.replace(' ', "_"), name, what))
        .collect();
    let mut counts = Map::new();
    for (key, _, _) in &names {
        let sum: u64 = shards
            .iter()
            .map(|s| s.v["counts"][key].as_u64().unwrap_or(0))
            .sum();
        counts.insert(key.clone(), json!(sum));
    }
    let sum = |field: &str| {
        shards
            .iter()
            .map(|s| s.v[field].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let longest = |field: &str| shards.iter().map(|s| s.num(field)).fold(0.0, f64::max);
    let any = |field: &str| shards.iter().any(|s| s.v[field].as_bool() == Some(true));
    let failed: Vec<Value> = shards
        .iter()
        .flat_map(|s| {
            s.v["failed_servers"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    let count = |key: &str| counts[key].as_u64().unwrap_or(0);
    let interrupted = any("interrupted");
    let code = if interrupted {
        2
    } else if !failed.is_empty()
        || count("failed") > 0
        || count("refused") > 0
        || !missing.is_empty()
    {
        EXIT_SERVER
    } else {
        0
    };
    let waited: Vec<f64> = shards
        .iter()
        .filter_map(|s| s.v["seconds_waiting_byte_limit"].as_f64())
        .collect();
    let merged = json!({
        "old": shards[0].v["old"],
        "new": shards[0].v["new"],
        "dry_run": shards[0].v["dry_run"],
        "delete_moved": delete_moved,
        "reports": shards.len(),
        "shards": n,
        "missing_shards": missing,
        "counts": counts,
        "seconds": longest("seconds"),
        "seconds_listing": longest("seconds_listing"),
        "bytes_read": sum("bytes_read"),
        "seconds_waiting_byte_limit": (!waited.is_empty())
            .then(|| waited.iter().copied().fold(0.0, f64::max)),
        "failed_servers": failed,
        "cachedump": any("cachedump"),
        "interrupted": interrupted,
    });
    let out = match f {
        Format::Json => crate::output::json(&merged),
        _ => table(
            &merged,
            &names,
            n,
            &missing,
            merged["seconds_waiting_byte_limit"].as_f64(),
        ),
    };
    Ok((out, code))
}

/// The merged report as a table.
fn table(
    m: &Value,
    names: &[(String, &str, &str)],
    n: Option<usize>,
    missing: &[usize],
    waited: Option<f64>,
) -> String {
    let reports = m["reports"].as_u64().unwrap_or(0);
    let mut out = format!(
        "migrate report: {reports} report{} of {} -> {}{}\n\n",
        if reports == 1 { "" } else { "s" },
        m["old"].as_str().unwrap_or("?"),
        m["new"].as_str().unwrap_or("?"),
        match n {
            Some(n) if missing.is_empty() => format!(", shards 0 to {} of {n}: every shard", n - 1),
            Some(n) => format!(", shards of {n}"),
            None => String::new(),
        }
    );
    let mut t = Table::new(&["keys", "count", "what"]);
    for (key, name, what) in names {
        let v = m["counts"][key].as_u64().unwrap_or(0);
        t.row(vec![name.to_string(), v.to_string(), what.to_string()]);
    }
    out.push_str(&t.text());
    out.push_str(&speed_line(
        m["seconds"].as_f64().unwrap_or(0.0),
        m["seconds_listing"].as_f64().unwrap_or(0.0),
        m["counts"]["moving"].as_u64().unwrap_or(0),
        m["bytes_read"].as_u64().unwrap_or(0),
        waited,
    ));
    out.push_str("(seconds: the longest shard's)\n");
    if m["cachedump"].as_bool() == Some(true) {
        out.push_str(CACHEDUMP_NOTE);
        out.push('\n');
    }
    if !missing.is_empty() {
        let shown: Vec<String> = missing
            .iter()
            .map(|i| format!("{i}/{}", n.unwrap_or(0)))
            .collect();
        out.push_str(&format!(
            "INCOMPLETE: no report of shard {}: its OLD servers are not counted\n",
            shown.join(", ")
        ));
    }
    for f in m["failed_servers"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "FAILED: server {}: {}\n",
            f["server"].as_str().unwrap_or("?"),
            f["error"].as_str().unwrap_or("?")
        ));
    }
    if m["interrupted"].as_bool() == Some(true) {
        out.push_str("INTERRUPTED: a shard was stopped; a rerun of it resumes\n");
    }
    out
}
