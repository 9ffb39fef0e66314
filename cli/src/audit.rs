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

use clap::Args;
use ketama_core::{Hash, Profile, Ring};
use serde_json::{json, Value};

use crate::memcache::{Conn, KeyListing};
use crate::output::{key_text, pct, Table};
use crate::servers::{self, Fleet};
use crate::{Fail, Format};

/// Exit status of an audit that could not reach every server.
pub const EXIT_PARTIAL: i32 = 3;

/// `ketama audit` options.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Servers file: `host:port [weight] [name]` per line, as the clients are configured.
    #[arg(long, short = 's')]
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
    /// Misplaced keys listed in the table (JSON lists them all).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub show: usize,
}

/// What one server holds.
#[derive(Clone, Debug)]
pub struct Holding {
    /// The server's label in the servers file.
    pub label: String,
    /// How the keys were listed.
    pub listing: KeyListing,
    /// Its keys.
    pub keys: Vec<Vec<u8>>,
    /// Its `curr_items` (`stats`).
    pub items: u64,
}

/// A server that did not answer.
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
    /// Keys it looks for elsewhere.
    pub misplaced: Vec<Misplaced>,
}

impl Score {
    /// Keys that agree, over all servers.
    pub fn agree(&self) -> usize {
        self.agree_per_server.iter().sum()
    }
}

/// The address to connect to for a server of the file.
fn address(s: &ketama_core::Server) -> String {
    if s.host.contains(':') {
        format!("[{}]:{}", s.host, s.port)
    } else {
        format!("{}:{}", s.host, s.port)
    }
}

/// Lists the keys of every server (read-only); unreachable servers are returned apart.
pub fn collect(fleet: &Fleet) -> (Vec<Holding>, Vec<Unreachable>) {
    let mut held = Vec::new();
    let mut down = Vec::new();
    for s in fleet.servers() {
        let r = Conn::connect(&address(&s)).and_then(|mut c| c.list_keys());
        match r {
            Ok(l) => held.push(Holding {
                label: s.label.clone(),
                listing: l.listing,
                keys: l.keys,
                items: l.items,
            }),
            Err(error) => down.push(Unreachable {
                label: s.label.clone(),
                error,
            }),
        }
    }
    (held, down)
}

/// Scores one ring against the holdings.
pub fn score(ring: &Ring, held: &[Holding]) -> Score {
    let mut agree_per_server = Vec::with_capacity(held.len());
    let mut misplaced = Vec::new();
    for h in held {
        let mut agree = 0;
        for k in &h.keys {
            match ring.locate(k) {
                Ok(s) if s.label == h.label => agree += 1,
                r => misplaced.push(Misplaced {
                    key: k.clone(),
                    on: h.label.clone(),
                    expected: r.ok().map(|s| s.label.clone()),
                }),
            }
        }
        agree_per_server.push(agree);
    }
    Score {
        profile: ring.profile(),
        hash: ring.hash(),
        agree_per_server,
        misplaced,
    }
}

/// Every profile with its default and offered hashes, best agreement first (ties: the
/// default hash before the others, then `ketama profiles` order). Profiles that cannot build
/// a ring from this fleet are left out.
pub fn detect(fleet: &Fleet, held: &[Holding]) -> Vec<Score> {
    let mut scores = Vec::new();
    for p in Profile::all() {
        for &h in p.hashes {
            if let Ok(ring) = servers::ring(p, Some(h), fleet) {
                scores.push(score(&ring, held));
            }
        }
    }
    // Stable: equal scores keep the order above, defaults first (a client left at its
    // default hash is the likelier explanation of a tie).
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

/// Runs `ketama audit`: the output and whether the audit was partial.
pub fn run(a: &AuditArgs, f: Format) -> Result<(String, bool), Fail> {
    if f == Format::Csv {
        return Err(Fail::new(
            "audit: --format csv is not available; use table or json",
        ));
    }
    let fleet = servers::load(&a.servers)?;
    // Resolve names before connecting, so bad usage costs no network round trip.
    let target = match &a.profile {
        Some(name) => {
            let p = crate::profile(name)?;
            let h = a
                .hash
                .as_deref()
                .map(|n| crate::hash(n, Some(p)))
                .transpose()?;
            Some(servers::ring(p, h, &fleet)?)
        }
        None => None,
    };
    let (held, down) = collect(&fleet);
    for d in &down {
        eprintln!(
            "ketama: audit: server {} is unreachable ({}); the other servers are still audited",
            d.label, d.error
        );
    }
    if held.is_empty() {
        return Err(Fail::new(format!(
            "audit: no server of {} answered",
            fleet.path
        )));
    }
    let keys: usize = held.iter().map(|h| h.keys.len()).sum();
    let out = match target {
        Some(ring) => {
            let s = score(&ring, &held);
            match f {
                Format::Json => crate::output::json(&profile_json(&s, &held, &down, keys)),
                _ => profile_table(&s, &held, &down, keys, &fleet.path, a.show),
            }
        }
        None => {
            let scores = detect(&fleet, &held);
            match f {
                Format::Json => crate::output::json(&detect_json(&scores, &held, &down, keys)),
                _ => detect_table(&scores, &held, &down, keys, &fleet.path),
            }
        }
    };
    Ok((out, !down.is_empty()))
}

/// `ketama audit` from the command line: prints, returns the exit status.
pub fn main(a: &AuditArgs, f: Option<Format>) -> i32 {
    match run(a, f.unwrap_or(Format::Table)) {
        Ok((out, partial)) => {
            let code = crate::emit(&out);
            if code == 0 && partial {
                EXIT_PARTIAL
            } else {
                code
            }
        }
        Err(Fail(msg)) => {
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
                "keys": h.keys.len(),
                "curr_items": h.items,
                "listing": h.listing.command(),
            });
            if let Some(s) = s {
                let agree = s.agree_per_server.get(i).copied().unwrap_or(0);
                o["agree"] = json!(agree);
                o["misplaced"] = json!(h.keys.len() - agree);
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
        "misplaced": s.misplaced.iter().map(|m| json!({
            "key": key_text(&m.key),
            "on": m.on,
            "expected": m.expected,
        })).collect::<Vec<_>>(),
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
            h.keys.len().to_string(),
            h.items.to_string(),
            agree.to_string(),
            (h.keys.len() - agree).to_string(),
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
    if !s.misplaced.is_empty() {
        out.push_str(&format!(
            "\nmisplaced keys: {} (a client using {} never finds them){}\n",
            s.misplaced.len(),
            s.profile.name,
            if s.misplaced.len() > show {
                format!("; the first {show} (--show N, or --format json for all)")
            } else {
                String::new()
            }
        ));
        let mut t = Table::new(&["key", "on", "profile looks on"]);
        for m in s.misplaced.iter().take(show) {
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
            h.keys.len().to_string(),
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
        let mut held: Vec<Holding> = servers
            .iter()
            .map(|s| Holding {
                label: s.label.clone(),
                listing: KeyListing::Metadump,
                keys: Vec::new(),
                items: 0,
            })
            .collect();
        for k in &keys {
            let i = ring.locate_index(k).unwrap();
            held[i].keys.push(k.clone());
        }
        // One key moved by hand to a server where the profile does not look.
        let moved = held[0].keys.pop().unwrap();
        held[1].keys.push(moved.clone());
        let s = score(&ring, &held);
        assert_eq!(s.agree(), 299);
        assert_eq!(s.misplaced.len(), 1);
        assert_eq!(s.misplaced[0].key, moved);
        assert_eq!(s.misplaced[0].on, "127.0.0.1:20002");
        assert_eq!(s.misplaced[0].expected.as_deref(), Some("127.0.0.1:20001"));
        let fleet = Fleet::from_servers("test", servers);
        let ranked = detect(&fleet, &held);
        assert_eq!(ranked[0].agree(), 299);
        assert!(ranked
            .iter()
            .take_while(|x| x.agree() == 299)
            .any(|x| x.profile.name == "libmemcached-weighted" && x.hash == Hash::Md5));
        assert!(ranked.iter().any(|x| x.agree() < 200));
    }
}
