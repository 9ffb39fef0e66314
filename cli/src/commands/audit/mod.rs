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

use crate::output::Format;
use crate::servers;
use crate::shared::Fail;
use ketama_memcache::Options;

pub(crate) mod args;
pub(crate) mod collect;
pub(crate) mod report;
pub(crate) mod score;

use args::{AuditArgs, EXIT_PARTIAL};
use collect::{collect, progress, Lister};
use report::{detect_json, detect_table, misplaced_json, profile_json, profile_table};
use score::{candidates, rank, scores, Holding, Misplaced, Score, Tally, Unreachable};

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
pub(crate) fn run(a: &AuditArgs, f: Format, w: &mut dyn Write) -> Result<bool, Fail> {
    if f == Format::Csv {
        return Err(Fail::new(
            "audit: --format csv is not available; use table or json",
        ));
    }
    // Ctrl-C from here on stops the audit with its own message.
    let stop = crate::stop::flag();
    let fleet = servers::load(&a.servers)?;
    // Resolve names before connecting, so bad usage costs no network round trip.
    let rings = rings(a, &fleet)?;
    let detecting = a.profile.is_none();
    let keep = if detecting { 0 } else { a.show };
    let streaming = f == Format::Json && !detecting;
    a.servers_kind.check()?;
    let tls = a.tls.load().map_err(Fail::new)?;
    let net = Options::new(a.timeout, stop).with_tls(tls);
    let opts = if a.servers_kind.is_redis() {
        Lister::Redis(a.servers_kind.redis(net)?)
    } else {
        Lister::Memcached(net)
    };
    let mut out = Out {
        w,
        closed: false,
        error: None,
    };
    let (answers, streamed) = gather(&fleet, &rings, keep, &opts, streaming.then_some(&mut out));
    let (held, tallies, down) = split(answers);
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
    let found = Found {
        held: &held,
        down: &down,
        keys,
        path: &fleet.path,
    };
    write_report(&mut out, a, f, scores, &found, streamed);
    out.finish()?;
    if held.is_empty() {
        return Err(Fail::new(format!(
            "audit: no server of {} answered",
            fleet.path
        )));
    }
    Ok(!down.is_empty())
}

/// The ring of `--profile`, or every candidate of `--detect`.
fn rings(a: &AuditArgs, fleet: &servers::Fleet) -> Result<Vec<ketama_core::Ring>, Fail> {
    Ok(match &a.profile {
        Some(name) => {
            let p = crate::args::profile(name)?;
            let h = a
                .hash
                .as_deref()
                .map(|n| crate::args::hash(n, Some(p)))
                .transpose()?;
            vec![a.options.apply(servers::ring(p, h, fleet)?)?]
        }
        None => candidates(fleet),
    })
}

/// Asks every server; with `stream`, writes each misplaced key to it as it is found (the
/// start of the JSON object). Returns the answers and how many keys were streamed.
fn gather(
    fleet: &servers::Fleet,
    rings: &[ketama_core::Ring],
    keep: usize,
    opts: &Lister,
    stream: Option<&mut Out<'_>>,
) -> (Vec<collect::Answer>, usize) {
    let bar = progress(fleet.servers().len());
    let mut streamed = 0usize;
    let answers = match stream {
        Some(out) => {
            let (tx, rx) = sync_channel::<Misplaced>(4096);
            std::thread::scope(|scope| {
                let worker = scope.spawn(|| collect(fleet, rings, 0, opts, Some(tx), &bar));
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
        }
        None => collect(fleet, rings, keep, opts, None, &bar),
    };
    bar.finish_and_clear();
    (answers, streamed)
}

/// The servers that answered (with their tallies) and those that did not.
fn split(answers: Vec<collect::Answer>) -> (Vec<Holding>, Vec<Vec<Tally>>, Vec<Unreachable>) {
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
    (held, tallies, down)
}

/// What the servers gave, for the report.
struct Found<'a> {
    held: &'a [Holding],
    down: &'a [Unreachable],
    keys: usize,
    path: &'a str,
}

/// Writes the report: one profile's (after the streamed keys, in JSON) or the ranking.
fn write_report(
    out: &mut Out<'_>,
    a: &AuditArgs,
    f: Format,
    scores: Vec<Score>,
    r: &Found<'_>,
    streamed: usize,
) {
    let (held, down, keys) = (r.held, r.down, r.keys);
    match (a.profile.is_none(), f) {
        (false, Format::Json) => {
            let mut v = profile_json(&scores[0], held, down, keys);
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
        (false, _) => out.put(&profile_table(&scores[0], held, down, keys, r.path, a.show)),
        (true, Format::Json) => out.put(&crate::output::json(&detect_json(
            &rank(scores),
            held,
            down,
            keys,
        ))),
        (true, _) => out.put(&detect_table(&rank(scores), held, down, keys, r.path)),
    }
}

/// `ketama audit` from the command line: prints, returns the exit status.
pub(crate) fn main(a: &AuditArgs, f: Option<Format>) -> i32 {
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
