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

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ketama_core::{Hash, Profile, Ring};
use serde_json::{json, Value};

use crate::memcache::{Conn, KeyListing, Options, TlsArgs};
use crate::output::{key_fields, key_text, pct, Table};
use crate::servers::{self, Fleet};
use crate::{Fail, Format};

/// Exit status of an audit that could not reach every server.
pub const EXIT_PARTIAL: i32 = 3;

/// `ketama audit` options.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Servers file: `host:port [weight] [name]` per line, as the clients are configured.
    #[arg(long, short = 's', value_parser = crate::path_arg())]
    pub servers: String,
    /// The profile to check the keys against (see `ketama profiles`).
    #[arg(
        long,
        short = 'p',
        required_unless_present = "detect",
        conflicts_with = "detect"
    )]
    pub profile: Option<String>,
    /// Key hash for --profile (default: the profile's).
    #[arg(long = "hash", short = 'H', requires = "profile")]
    pub hash: Option<String>,
    /// Rank every profile (with its default hash and the hashes its client offers) by the
    /// share of keys that sit where it would put them.
    #[arg(long)]
    pub detect: bool,
    /// Misplaced keys listed in the table (JSON lists them all, as they are found).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub show: usize,
    /// The longest one server may take, in seconds, from the connect to the end of its
    /// listing; a server that takes longer is reported unreachable (the others are still
    /// audited).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::seconds)]
    pub timeout: Duration,
    #[command(flatten)]
    pub tls: TlsArgs,
}

/// What one server holds.
#[derive(Clone, Debug)]
pub struct Holding {
    /// The server's label in the servers file.
    pub label: String,
    /// How the keys were listed.
    pub listing: KeyListing,
    /// How many distinct keys were listed.
    pub keys: usize,
    /// Its `curr_items` (`stats`).
    pub items: u64,
    /// Listing lines skipped (memcached never sends them).
    pub bad_lines: u64,
}

/// A server that did not answer, or failed during its listing.
#[derive(Clone, Debug)]
pub struct Unreachable {
    /// The server's label.
    pub label: String,
    /// Why.
    pub error: String,
}

/// A key a profile looks for elsewhere.
#[derive(Clone, Debug)]
pub struct Misplaced {
    /// The key.
    pub key: Vec<u8>,
    /// The server holding it.
    pub on: String,
    /// Where the profile looks (`None`: the client refuses the key).
    pub expected: Option<String>,
}

/// One profile and hash scored against the fleet's contents.
#[derive(Clone, Debug)]
pub struct Score {
    /// The profile.
    pub profile: &'static Profile,
    /// The key hash.
    pub hash: Hash,
    /// Keys held where this profile looks, per server (holdings order).
    pub agree_per_server: Vec<usize>,
    /// How many keys it looks for elsewhere.
    pub misplaced: usize,
    /// The first misplaced keys (as many as asked for, in holdings order).
    pub shown: Vec<Misplaced>,
}

impl Score {
    /// Keys that agree, over all servers.
    pub fn agree(&self) -> usize {
        self.agree_per_server.iter().sum()
    }
}

/// One candidate's counts on one server: only counts grow with the keys; at most `keep`
/// misplaced keys are kept.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Keys where the candidate looks.
    pub agree: usize,
    /// Keys it looks for elsewhere.
    pub misplaced: usize,
    /// The first of those.
    pub first: Vec<Misplaced>,
}

/// Scores the keys of one server against every candidate ring as they are listed.
#[derive(Debug)]
pub struct Scorer<'a> {
    rings: &'a [Ring],
    /// Per ring, the index of this server in it (`None`: the ring does not have it).
    index: Vec<Option<usize>>,
    label: String,
    keep: usize,
    /// Per ring, in order.
    pub tallies: Vec<Tally>,
}

impl<'a> Scorer<'a> {
    /// A scorer for the server `label`, keeping the first `keep` misplaced keys per ring.
    pub fn new(rings: &'a [Ring], label: &str, keep: usize) -> Scorer<'a> {
        Scorer {
            rings,
            index: rings
                .iter()
                .map(|r| r.servers().position(|s| s.label == label))
                .collect(),
            label: label.to_string(),
            keep,
            tallies: vec![Tally::default(); rings.len()],
        }
    }

    /// Counts one key held by this server; returns the first ring's verdict when it looks
    /// elsewhere.
    pub fn key(&mut self, key: &[u8]) -> Option<Misplaced> {
        let mut first = None;
        for (i, (ring, t)) in self.rings.iter().zip(&mut self.tallies).enumerate() {
            match ring.locate_index(key) {
                Ok(at) if Some(at) == self.index[i] => t.agree += 1,
                r => {
                    t.misplaced += 1;
                    if t.first.len() < self.keep || i == 0 {
                        let m = Misplaced {
                            key: key.to_vec(),
                            on: self.label.clone(),
                            expected: r
                                .ok()
                                .and_then(|at| ring.server(at))
                                .map(|s| s.label.clone()),
                        };
                        if t.first.len() < self.keep {
                            t.first.push(m.clone());
                        }
                        if i == 0 {
                            first = Some(m);
                        }
                    }
                }
            }
        }
        first
    }
}

/// Each ring's score from the tallies of every server that answered (holdings order).
pub fn scores(rings: &[Ring], per_server: &[Vec<Tally>], keep: usize) -> Vec<Score> {
    rings
        .iter()
        .enumerate()
        .map(|(i, ring)| {
            let mut shown = Vec::new();
            for t in per_server {
                let left = keep.saturating_sub(shown.len());
                shown.extend(t[i].first.iter().take(left).cloned());
            }
            Score {
                profile: ring.profile(),
                hash: ring.hash(),
                agree_per_server: per_server.iter().map(|t| t[i].agree).collect(),
                misplaced: per_server.iter().map(|t| t[i].misplaced).sum(),
                shown,
            }
        })
        .collect()
}

/// The address to connect to for a server of the file.
fn address(s: &ketama_core::Server) -> String {
    if s.host.contains(':') {
        format!("[{}]:{}", s.host, s.port)
    } else {
        format!("{}:{}", s.host, s.port)
    }
}

/// The most servers asked at the same time.
pub const MAX_PARALLEL: usize = 16;

/// What asking one server gave.
type Answer = Result<(Holding, Vec<Tally>), Unreachable>;

/// Lists the keys of every server (read-only, up to [`MAX_PARALLEL`] at a time, each within
/// `opts.timeout`) and scores them against `rings` as they come; `stream` receives each key
/// the first ring looks for elsewhere. Returns the answers in the fleet's order.
pub fn collect(
    fleet: &Fleet,
    rings: &[Ring],
    keep: usize,
    opts: &Options,
    stream: Option<SyncSender<Misplaced>>,
    bar: &ProgressBar,
) -> Vec<Answer> {
    let servers = fleet.servers();
    let next = AtomicUsize::new(0);
    let listed = AtomicU64::new(0);
    let answers: Vec<Mutex<Option<Answer>>> = servers.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..servers.len().clamp(1, MAX_PARALLEL) {
            let stream = stream.clone();
            let (next, listed, answers, servers) = (&next, &listed, &answers, &servers);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(s) = servers.get(i) else { return };
                let a = ask(s, rings, keep, opts, stream.as_ref(), listed, bar);
                if let Ok(mut slot) = answers[i].lock() {
                    *slot = Some(a);
                }
                bar.inc(1);
            });
        }
    });
    answers
        .into_iter()
        .zip(&servers)
        .map(|(a, s)| {
            a.into_inner().ok().flatten().unwrap_or_else(|| {
                Err(Unreachable {
                    label: s.label.clone(),
                    error: "not asked".into(),
                })
            })
        })
        .collect()
}

/// Lists and scores one server.
fn ask(
    s: &ketama_core::Server,
    rings: &[Ring],
    keep: usize,
    opts: &Options,
    stream: Option<&SyncSender<Misplaced>>,
    listed: &AtomicU64,
    bar: &ProgressBar,
) -> Answer {
    let mut scorer = Scorer::new(rings, &s.label, keep);
    let mut n = 0u64;
    let r = Conn::connect(&address(s), opts.clone()).and_then(|mut c| {
        c.list_keys(|k| {
            if let (Some(m), Some(tx)) = (scorer.key(k), stream) {
                let _ = tx.send(m);
            }
            n += 1;
            if n % 4096 == 0 {
                let total = listed.fetch_add(4096, Ordering::Relaxed) + 4096;
                bar.set_message(total.to_string());
            }
        })
    });
    match r {
        Ok(l) => {
            for b in &l.bad {
                eprintln!(
                    "ketama: audit: server {}: line {} of the reply to `{}` skipped: {}",
                    s.label,
                    b.line,
                    l.listing.command(),
                    b.reason
                );
            }
            if l.bad_count > l.bad.len() as u64 {
                eprintln!(
                    "ketama: audit: server {}: {} bad lines skipped in all",
                    s.label, l.bad_count
                );
            }
            Ok((
                Holding {
                    label: s.label.clone(),
                    listing: l.listing,
                    keys: l.keys as usize,
                    items: l.items,
                    bad_lines: l.bad_count,
                },
                scorer.tallies,
            ))
        }
        Err(e) => Err(Unreachable {
            label: s.label.clone(),
            error: e.message,
        }),
    }
}

/// The rings `--detect` scores: every profile with its default and offered hashes (the
/// default first, then `ketama profiles` order). Profiles that cannot build a ring from this
/// fleet are left out.
pub fn candidates(fleet: &Fleet) -> Vec<Ring> {
    let mut rings = Vec::new();
    for p in Profile::all() {
        for &h in p.hashes {
            if let Ok(ring) = servers::ring(p, Some(h), fleet) {
                rings.push(ring);
            }
        }
    }
    rings
}

/// Best agreement first. Stable: equal scores keep the candidates' order, defaults first (a
/// client left at its default hash is the likelier explanation of a tie).
pub fn rank(mut scores: Vec<Score>) -> Vec<Score> {
    scores.sort_by_key(|s| {
        (
            std::cmp::Reverse(s.agree()),
            s.hash != s.profile.default_hash,
        )
    });
    scores
}

/// Share of `n` in `total` (0 when there are no keys).
fn share(n: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        n as f64 / total as f64
    }
}

/// A progress bar over the servers on a terminal's stderr (hidden elsewhere).
fn progress(servers: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(servers as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "audit [{bar:30}] {pos}/{len} servers done, {msg} keys listed ({elapsed})",
    ) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_message("0");
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

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

/// One misplaced key as JSON.
fn misplaced_json(m: &Misplaced) -> Value {
    let mut o = serde_json::Map::new();
    key_fields(&mut o, &m.key);
    o.insert("on".into(), json!(m.on));
    o.insert("expected".into(), json!(m.expected));
    Value::Object(o)
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
            let p = crate::profile(name)?;
            let h = a
                .hash
                .as_deref()
                .map(|n| crate::hash(n, Some(p)))
                .transpose()?;
            vec![servers::ring(p, h, &fleet)?]
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

fn servers_json(held: &[Holding], down: &[Unreachable], s: Option<&Score>) -> Value {
    let mut v: Vec<Value> = held
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let mut o = json!({
                "server": h.label,
                "keys": h.keys,
                "curr_items": h.items,
                "listing": h.listing.command(),
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

fn profile_json(s: &Score, held: &[Holding], down: &[Unreachable], keys: usize) -> Value {
    json!({
        "keys": keys,
        "partial": !down.is_empty(),
        "profiles": [{"profile": s.profile.name, "hash": s.hash.name(), "agree": share(s.agree(), keys)}],
        "servers": servers_json(held, down, Some(s)),
    })
}

fn detect_json(scores: &[Score], held: &[Holding], down: &[Unreachable], keys: usize) -> Value {
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
    if held.iter().any(|h| h.listing == KeyListing::Cachedump) {
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

fn profile_table(
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
            h.listing.command().into(),
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

fn detect_table(
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
            h.listing.command().into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_agreement_and_misplacement() {
        let p = crate::profile("libmemcached-weighted").unwrap();
        let servers: Vec<_> = ["127.0.0.1:20001", "127.0.0.1:20002", "127.0.0.1:20003"]
            .iter()
            .map(|l| ketama_core::Server::parse(l, 1).unwrap())
            .collect();
        let ring = Ring::with_servers(p, None, servers.clone()).unwrap();
        let keys: Vec<Vec<u8>> = (0..300).map(|i| format!("k{i}").into_bytes()).collect();
        let mut held: Vec<Vec<Vec<u8>>> = vec![Vec::new(); 3];
        for k in &keys {
            held[ring.locate_index(k).unwrap()].push(k.clone());
        }
        // Keys moved by hand to a server where the profile does not look.
        let moved: Vec<Vec<u8>> = (0..3).map(|_| held[0].pop().unwrap()).collect();
        held[1].extend(moved.iter().cloned());
        let fleet = Fleet::from_servers("test", servers.clone());
        let mut rings = vec![ring];
        rings.extend(candidates(&fleet));
        let tallies: Vec<Vec<Tally>> = servers
            .iter()
            .zip(&held)
            .map(|(s, keys)| {
                let mut sc = Scorer::new(&rings, &s.label, 2);
                for k in keys {
                    sc.key(k);
                }
                sc.tallies
            })
            .collect();
        let all = scores(&rings, &tallies, 2);
        let s = &all[0];
        assert_eq!(s.agree(), 297);
        assert_eq!(s.misplaced, 3);
        // Only the first two are kept.
        assert_eq!(s.shown.len(), 2);
        assert_eq!(s.shown[0].key, moved[0]);
        assert_eq!(s.shown[0].on, "127.0.0.1:20002");
        assert_eq!(s.shown[0].expected.as_deref(), Some("127.0.0.1:20001"));
        let ranked = rank(all[1..].to_vec());
        assert_eq!(ranked[0].agree(), 297);
        assert!(ranked
            .iter()
            .take_while(|x| x.agree() == 297)
            .any(|x| x.profile.name == "libmemcached-weighted" && x.hash == Hash::Md5));
        assert!(ranked.iter().any(|x| x.agree() < 200));
        assert!(ranked.iter().all(|x| x.shown.len() <= 2));
    }
}
