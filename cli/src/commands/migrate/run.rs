//! `ketama migrate run`: the copy (or the sync with `--state`, or `--delete-moved`), its
//! progress bar on a terminal, its report and exit status.

use std::sync::Mutex;

use ketama_migrate::run::{changed, get, until_quiet};
use ketama_migrate::{Outcome, Progress, RunError, RunOptions};
use serde_json::json;

use super::args::{parse_shard, RunArgs};
use super::run_report;
use super::setup::{self, EXIT_SERVER};
use crate::output::Format;
use crate::progress::{Progress as Bar, Unit};
use crate::shared::Fail;

/// The run's progress bar (drawn on a terminal only).
struct RunBar {
    bar: Mutex<(Bar, u64)>,
}

impl Progress for RunBar {
    fn advance(&self, listed: u64, handled: u64) {
        if let Ok(mut b) = self.bar.lock() {
            let (bar, shown) = &mut *b;
            bar.set_len(listed);
            bar.inc(handled.saturating_sub(*shown));
            *shown = handled;
        }
    }
}

/// Runs `ketama migrate run`: the output and the exit status.
pub(crate) fn run(a: &RunArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = setup::placement(&a.place)?;
    if a.concurrency == 0 || a.concurrency > 1024 {
        return Err(Fail::new("--concurrency must be 1 to 1024"));
    }
    if a.rate == Some(0) {
        return Err(Fail::new("--rate must be at least 1 key per second"));
    }
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if let Some(state) = a.state.as_deref().map(std::path::Path::new) {
        // A FIFO or a device given as the state file is refused before the run starts.
        if state.exists() {
            crate::files::open(state, "state file")?;
        }
    }
    if pl.is_identity() {
        return Ok((
            match f {
                Format::Json => crate::output::json(&json!({"nothing_moves": true})),
                _ => "nothing moves: OLD and NEW are the same servers under the same placement\n"
                    .to_string(),
            },
            0,
        ));
    }
    let backend = setup::backend(&a.place)?;
    let bar = RunBar {
        bar: Mutex::new((Bar::new(0, "migrate", Unit::Items), 0)),
    };
    let opts = RunOptions {
        state: a.state.clone(),
        rate: a.rate,
        concurrency: a.concurrency,
        dry_run: a.dry_run,
        delete_moved: a.delete_moved,
        shard,
        stop: crate::stop::flag(),
        progress: Some(&bar),
        scale: a.scale.scale(),
    };
    let mut quiet = None;
    let r = match a.until_quiet {
        None => ketama_migrate::run(&pl, &backend, &opts),
        Some(below) => {
            let mut each = |o: &Outcome| {
                eprintln!(
                    "ketama: migrate run: pass: {} keys changed in {:.1} s",
                    changed(o),
                    o.seconds
                );
            };
            until_quiet(&pl, &backend, &opts, below, a.max_passes, &mut each).map(|mut p| {
                let passes = p.passes.iter().map(|o| (changed(o), o.seconds)).collect();
                quiet = Some(run_report::Quiet {
                    below,
                    passes,
                    quiet: p.quiet,
                });
                p.passes.pop().expect("at least one pass")
            })
        }
    };
    let waited = opts.scale.throttle.as_ref().map(|t| t.waited());
    if let Ok(b) = bar.bar.into_inner() {
        b.0.finish();
    }
    let o = match r {
        Ok(o) => o,
        Err(RunError::Down(down)) => {
            eprintln!("ketama: migrate run: {}", RunError::Down(down));
            return Ok((String::new(), EXIT_SERVER));
        }
        Err(e) => return Err(Fail::new(e.to_string())),
    };
    notes(a, &o);
    let code = if o.interrupted {
        2
    } else if o.incomplete() {
        EXIT_SERVER
    } else {
        0
    };
    let out = match f {
        Format::Json => {
            let mut j = run_report::outcome_json(&pl, a, &o, waited);
            if let Some(q) = &quiet {
                j["until_quiet"] = q.json();
            }
            crate::output::json(&j)
        }
        _ => {
            let mut t = run_report::outcome_table(&pl, a, &o, waited);
            if let Some(q) = &quiet {
                t.push_str(&q.text());
            }
            t
        }
    };
    Ok((out, code))
}

/// What the run says on stderr: failed servers, skipped lines, keys not done, a stop.
fn notes(a: &RunArgs, o: &Outcome) {
    if o.forgotten > 0 {
        eprintln!(
            "ketama: migrate: {}: {} recorded copies name servers that are not in the servers files; they are forgotten",
            a.state.as_deref().unwrap_or_default(),
            o.forgotten
        );
    }
    for (label, l) in &o.listings {
        setup::bad_lines("migrate run", label, l);
    }
    for (label, e) in &o.dead {
        eprintln!("ketama: migrate run: {}", run_report::failure(label, e));
    }
    let failed = get(&o.counts.failed);
    if failed > 0 {
        eprintln!(
            "ketama: migrate run: {failed} keys not {} because a server failed; run again when it is back{}",
            if a.delete_moved { "deleted" } else { "copied" },
            if a.state.is_some() { " (same --state file)" } else { "" }
        );
    }
    if o.interrupted {
        eprintln!(
            "ketama: migrate run: interrupted; what was done is kept{}, a rerun resumes",
            if a.state.is_some() {
                " (and recorded in the state file)"
            } else {
                ""
            }
        );
    }
}
