//! `ketama audit`: which client placed the keys of a live fleet, and which keys sit where a
//! client will never look.
//!
//! Each server of the servers file is asked for its keys (`lru_crawler metadump all`, or
//! `stats cachedump` where the crawler is missing; the report says which). Only read commands
//! are sent: nothing is ever written to the servers. For a profile, a key *agrees* when the
//! profile's ring names the server that holds it; the others are *misplaced*: a client using
//! that profile looks for them elsewhere and misses. `--detect` ranks every profile, with its
//! default hash and each hash its client offers, by the share of keys that agree.
//!
//! Exit status: 0 when every server was audited, 3 when some could not be reached (each is
//! named on stderr; the others are still audited), 2 on bad usage or when none answered.
//!
//! Modules, each using only those listed before it: [`args`], [`score`], [`collect`],
//! [`report`].

use std::io::Write;
use std::sync::mpsc::sync_channel;

use serde_json::json;

use crate::memcache::Options;
use crate::output::Format;
use crate::servers;
use crate::shared::Fail;

pub mod args;
pub mod collect;
pub mod report;
pub mod score;

use args::{AuditArgs, EXIT_PARTIAL};
use collect::{collect, progress};
use report::{detect_json, detect_table, misplaced_json, profile_json, profile_table};
use score::{candidates, rank, scores, Misplaced};

/// Writes to the output; a closed pipe silences the rest, another error is kept for the end.
struct Out<'a> {
    w: &'a mut dyn Write,
    closed: bool,
    error: Option<std::io::Error>,
}

impl Out<'_> {
    fn put(&mut self, s: &str) {
        if self.closed || self.error.is_some() {
            return;
        }
        if let Err(e) = self.w.write_all(s.as_bytes()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                self.closed = true;
            } else {
                self.error = Some(e);
            }
        }
    }

    fn finish(mut self) -> Result<(), Fail> {
        if !self.closed && self.error.is_none() {
            if let Err(e) = self.w.flush() {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    self.error = Some(e);
                }
            }
        }
        match self.error {
            Some(e) => Err(Fail::new(format!("cannot write output: {e}"))),
            None => Ok(()),
        }
    }
}

/// Runs `ketama audit`, writing its report to `w`; returns whether the audit was partial.
/// JSON output of `--profile` streams the misplaced keys as the servers list them (a server
/// that fails after listing some keeps those in `misplaced`).
pub fn run(a: &AuditArgs, f: Format, w: &mut dyn Write) -> Result<bool, Fail> {
    if f == Format::Csv {
        return Err(Fail::new(
            "audit: --format csv is not available; use table or json",
        ));
    }
    let fleet = servers::load(&a.servers)?;
    // Resolve names before connecting, so bad usage costs no network round trip.
    let rings = match &a.profile {
        Some(name) => {
            let p = crate::args::profile(name)?;
            let h = a
                .hash
                .as_deref()
                .map(|n| crate::args::hash(n, Some(p)))
                .transpose()?;
            vec![a.options.apply(servers::ring(p, h, &fleet)?)?]
        }
        None => candidates(&fleet),
    };
    let detecting = a.profile.is_none();
    let keep = if detecting { 0 } else { a.show };
    let streaming = f == Format::Json && !detecting;
    let tls = a.tls.load().map_err(Fail::new)?;
    crate::stop::install();
    let opts = Options::new(a.timeout).with_tls(tls);
    let bar = progress(fleet.servers().len());
    let mut out = Out {
        w,
        closed: false,
        error: None,
    };
    let mut streamed = 0usize;
    let answers = if streaming {
        let (tx, rx) = sync_channel::<Misplaced>(4096);
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| collect(&fleet, &rings, 0, &opts, Some(tx), &bar));
            for m in rx {
                out.put(if streamed == 0 {
                    "{\n  \"misplaced\": [\n    "
                } else {
                    ",\n    "
                });
                out.put(&serde_json::to_string(&misplaced_json(&m)).unwrap_or_default());
                streamed += 1;
            }
            worker.join().unwrap_or_default()
        })
    } else {
        collect(&fleet, &rings, keep, &opts, None, &bar)
    };
    bar.finish_and_clear();
    let mut held = Vec::new();
    let mut tallies = Vec::new();
    let mut down = Vec::new();
    for a in answers {
        match a {
            Ok((h, t)) => {
                held.push(h);
                tallies.push(t);
            }
            Err(u) => down.push(u),
        }
    }
    if crate::stop::requested() {
        return Err(Fail::new("audit: interrupted"));
    }
    for d in &down {
        eprintln!(
            "ketama: audit: server {} is unreachable ({}); the other servers are still audited",
            d.label, d.error
        );
    }
    let keys: usize = held.iter().map(|h| h.keys).sum();
    let scores = scores(&rings, &tallies, keep);
    if held.is_empty() && streamed == 0 {
        return Err(Fail::new(format!(
            "audit: no server of {} answered",
            fleet.path
        )));
    }
    match (detecting, f) {
        (false, Format::Json) => {
            let s = &scores[0];
            let mut v = profile_json(s, &held, &down, keys);
            if streamed == 0 {
                v["misplaced"] = json!([]);
                out.put(&crate::output::json(&v));
            } else {
                // The rest of the object after the streamed list.
                let rest = crate::output::json(&v);
                out.put("\n  ],\n");
                out.put(rest.strip_prefix("{\n").unwrap_or(&rest));
            }
        }
        (false, _) => out.put(&profile_table(
            &scores[0],
            &held,
            &down,
            keys,
            &fleet.path,
            a.show,
        )),
        (true, Format::Json) => out.put(&crate::output::json(&detect_json(
            &rank(scores),
            &held,
            &down,
            keys,
        ))),
        (true, _) => out.put(&detect_table(
            &rank(scores),
            &held,
            &down,
            keys,
            &fleet.path,
        )),
    }
    out.finish()?;
    if held.is_empty() {
        return Err(Fail::new(format!(
            "audit: no server of {} answered",
            fleet.path
        )));
    }
    Ok(!down.is_empty())
}

/// `ketama audit` from the command line: prints, returns the exit status.
pub fn main(a: &AuditArgs, f: Option<Format>) -> i32 {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match run(a, f.unwrap_or(Format::Table), &mut stdout) {
        Ok(partial) => {
            if partial {
                EXIT_PARTIAL
            } else {
                0
            }
        }
        Err(Fail(msg)) => {
            drop(stdout);
            eprintln!("ketama: {msg}");
            2
        }
    }
}
