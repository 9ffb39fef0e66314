//! `ketama migrate plan`: what a migration would copy (read-only), as a table or JSON.

use serde_json::{json, Value};

use ketama_migrate::{Placement, Plan, Tally};

use super::args::PlanArgs;
use super::setup::{self, duration_text, CACHEDUMP_NOTE, EXIT_SERVER};
use crate::output::{pct, Format, Table};
use crate::shared::Fail;

/// Runs `ketama migrate plan`: the output and the exit status.
pub(crate) fn run(a: &PlanArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = setup::placement(&a.place)?;
    if pl.is_identity() {
        return Ok((
            match f {
                Format::Json => crate::output::json(&json!({"nothing_moves": true, "moves": []})),
                _ => "nothing moves: OLD and NEW are the same servers under the same placement\n"
                    .to_string(),
            },
            0,
        ));
    }
    let plan = ketama_migrate::plan_with(&pl, &setup::backend(&a.place)?, &a.keys.plan())
        .map_err(|e| Fail::new(e.to_string()))?;
    if crate::stop::requested() {
        return Err(Fail::new("interrupted"));
    }
    setup::unsupported(plan.servers.iter().filter_map(|r| r.as_ref().err()))?;
    let mut code = 0;
    for (label, r) in pl.old.labels().zip(&plan.servers) {
        match r {
            Err(e) => {
                eprintln!("ketama: migrate plan: OLD server {label} did not answer ({e}); the plan leaves its keys out");
                code = EXIT_SERVER;
            }
            Ok(l) => setup::bad_lines("migrate plan", label, l),
        }
    }
    let out = match f {
        Format::Json => crate::output::json(&plan_json(&pl, &plan, a)),
        _ => plan_table(&pl, &plan, a),
    };
    Ok((out, code))
}

fn estimate(keys: u64, rate: Option<u64>) -> Option<f64> {
    rate.filter(|&r| r > 0).map(|r| keys as f64 / r as f64)
}

fn plan_json(pl: &Placement, plan: &Plan, a: &PlanArgs) -> Value {
    let rate = a.rate;
    let t = |t: &Tally| json!({"keys": t.keys, "bytes": t.bytes});
    json!({
        "old": {"servers": pl.old.name, "profile": pl.old.ring.profile().name, "hash": pl.old.ring.hash().name()},
        "new": {"servers": pl.new.name, "profile": pl.new.ring.profile().name, "hash": pl.new.ring.hash().name()},
        "nothing_moves": plan.moves.keys == 0,
        "stay": t(&plan.stay),
        "move": t(&plan.moves),
        "stale": t(&plan.stale),
        "expired": t(&plan.expired),
        "no_new_owner": t(&plan.no_new_owner),
        "short_ttl": t(&plan.short_ttl),
        "min_ttl": a.keys.min_ttl,
        "hot": t(&plan.hot),
        "hot_window": a.keys.hot_window,
        "moves": plan.flows.iter().map(|((s, d), x)| json!({
            "from": pl.old.label(*s), "to": pl.new.label(*d), "keys": x.keys, "bytes": x.bytes,
        })).collect::<Vec<_>>(),
        "servers": pl.old.labels().zip(&plan.servers).map(|(l, r)| match r {
            Ok(listing) => json!({"server": l, "listing": listing.command, "keys": listing.keys, "heat": listing.heat}),
            Err(e) => json!({"server": l, "unreachable": e.message}),
        }).collect::<Vec<_>>(),
        "rate": rate,
        "estimated_seconds": estimate(plan.moves.keys, rate),
    })
}

fn plan_table(pl: &Placement, plan: &Plan, a: &PlanArgs) -> String {
    let rate = a.rate;
    let listed = plan.listed();
    let share = |n: u64| {
        if listed == 0 {
            "-".to_string()
        } else {
            pct(n as f64 / listed as f64)
        }
    };
    let mut out = format!("migrate plan: {}\n", pl.describe());
    out.push_str(&format!(
        "listed {listed} keys on {} of {} OLD servers\n\n",
        plan.servers.iter().filter(|r| r.is_ok()).count(),
        plan.servers.len()
    ));
    let mut t = Table::new(&["keys", "count", "share", "bytes", "what happens"]);
    for (name, x, what) in [
        ("stay", plan.stay, "their server does not change"),
        ("move", plan.moves, "copied to their NEW server"),
        (
            "stale",
            plan.stale,
            "already misplaced under the OLD placement: not copied",
        ),
        ("expired", plan.expired, "TTL passed: not copied"),
        (
            "no new owner",
            plan.no_new_owner,
            "the NEW client refuses the key: not copied",
        ),
        (
            "short ttl",
            plan.short_ttl,
            "would move, but expire within --min-ttl: not copied",
        ),
    ] {
        if name == "short ttl" && a.keys.min_ttl.is_none() {
            continue;
        }
        t.row(vec![
            name.into(),
            x.keys.to_string(),
            share(x.keys),
            x.bytes.to_string(),
            what.into(),
        ]);
    }
    out.push_str(&t.text());
    if plan.moves.keys == 0 {
        out.push_str("\nnothing moves\n");
    } else {
        out.push_str(&hot_line(plan, a.keys.hot_window, pl));
        let cols: Vec<usize> = {
            let mut c: Vec<usize> = plan.flows.keys().map(|&(_, d)| d).collect();
            c.sort_unstable();
            c.dedup();
            c
        };
        out.push_str("\nkeys moving, from OLD server (rows) to NEW server (columns):\n");
        let mut headers = vec!["from \\ to".to_string()];
        headers.extend(cols.iter().map(|&d| pl.new.label(d).to_string()));
        let mut m = Table::new(&headers);
        for (s, label) in pl.old.labels().enumerate() {
            if !plan.flows.keys().any(|&(x, _)| x == s) {
                continue;
            }
            let mut row = vec![label.to_string()];
            row.extend(cols.iter().map(|&d| {
                plan.flows
                    .get(&(s, d))
                    .map_or("-".to_string(), |x| x.keys.to_string())
            }));
            m.row(row);
        }
        out.push_str(&m.text());
        match estimate(plan.moves.keys, rate) {
            Some(s) => out.push_str(&format!(
                "\nestimated copy time at {} keys/s: {}\n",
                rate.unwrap_or(0),
                duration_text(s)
            )),
            None => out.push_str("\n(give --rate KEYS_PER_S for a time estimate)\n"),
        }
    }
    if plan
        .servers
        .iter()
        .any(|r| r.as_ref().is_ok_and(|l| l.partial))
    {
        out.push_str(CACHEDUMP_NOTE);
        out.push('\n');
    }
    for (label, r) in pl.old.labels().zip(&plan.servers) {
        if let Err(e) = r {
            out.push_str(&format!(
                "PARTIAL: OLD server {label} did not answer: {e}\n"
            ));
        }
    }
    out
}

/// How many of the moving keys are hot, and how each server told.
fn hot_line(plan: &Plan, window: u64, pl: &Placement) -> String {
    let mut out = format!(
        "\nhot (read within the last {window} s): {} of the {} moving keys, {} of {} bytes \
         (run --hot-first copies them first)\n",
        plan.hot.keys, plan.moves.keys, plan.hot.bytes, plan.moves.bytes
    );
    let hows: std::collections::BTreeSet<&str> = plan
        .servers
        .iter()
        .filter_map(|r| r.as_ref().ok()?.heat.as_deref())
        .collect();
    if hows.len() == 1 {
        out.push_str(&format!(
            "heat from {}\n",
            hows.iter().next().copied().unwrap_or("")
        ));
    } else {
        for (label, r) in pl.old.labels().zip(&plan.servers) {
            if let Some(h) = r.as_ref().ok().and_then(|l| l.heat.as_deref()) {
                out.push_str(&format!("heat of {label} from {h}\n"));
            }
        }
    }
    out
}
