//! `ketama simulate`: the xmemcached author's experiment (the user's original notes; see README).
//!
//! Word-count a text, take the distinct words as keys, place them on 10 nodes
//! (`192.168.0.100:12000`..`12009`, as xmemcached sees them), add 2 nodes, and report for each
//! hash the hit rate after the change (keys whose server is unchanged), the keys per node
//! before and after, the min~max range, the ideal hit rate, the hit rate of plain
//! `hash % n` with the same hash, and the hash's speed.

use std::time::{Duration, Instant};

use clap::Args;
use ketama_core::{Hash, Profile, Ring, Server};
use serde_json::{json, Value};

use crate::algos::{self, KeySet, Setup};
use crate::live::Live;
use crate::output::{pct, Table};
use crate::placement::Algorithm;
use crate::plot;
use crate::progress::{Progress, Unit};
use crate::servers::{self, Fleet};
use crate::{keys, Fail, Format};

/// The hash functions of the 10 -> 12 nodes experiment, in its table's column order.
pub const DEFAULT_HASHES: &[&str] = &[
    "CRC32_HASH",
    "KETAMA_HASH",
    "FNV1_32_HASH",
    "NATIVE_HASH",
    "MYSQL_HASH",
];

/// `ketama simulate` options.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Text to word-count: its distinct words are the keys (default: the built-in corpus).
    #[arg(long, conflicts_with = "keys", value_parser = crate::path_arg())]
    pub text: Option<String>,
    /// Keys file, one key per line (distinct non-empty lines are used).
    #[arg(long, value_parser = crate::path_arg())]
    pub keys: Option<String>,
    /// Client profile; or a comma-separated list of algorithms to compare on the same keys
    /// and fleet changes (add, remove, one server failing, a weighted fleet): profiles, the
    /// bucket functions (jump, guava, jumpback, fliphash, maglev-go, mpchash-go), anchor,
    /// memento, jumpback-anchor. E.g.
    /// jump,guava,jumpback,fliphash,maglev,rendezvous,anchor,memento,libketama.
    #[arg(long, short = 'p', default_value = "xmemcached")]
    pub profile: String,
    /// Use the generated keys `key:0` .. `key:<N-1>` (when comparing algorithms, the default
    /// is 100000 of them).
    #[arg(long, value_name = "N", conflicts_with_all = ["text", "keys"])]
    pub key_count: Option<usize>,
    /// Compare the --profile list as algorithms and draw load per server and keys moved per
    /// change into this SVG file.
    #[arg(long, value_name = "FILE.svg", value_parser = crate::path_arg())]
    pub plot: Option<String>,
    /// Hashes to compare: a comma-separated list, or `all` for every hash
    /// [default: CRC32_HASH,KETAMA_HASH,FNV1_32_HASH,NATIVE_HASH,MYSQL_HASH].
    #[arg(long = "hash", short = 'H')]
    pub hash: Option<String>,
    /// Nodes before the change: 192.168.0.100:12000 and up.
    #[arg(long, default_value_t = 10, conflicts_with = "servers")]
    pub nodes: usize,
    /// Nodes to add (default 2, or 0 when --remove is given; comparing algorithms: default 2).
    #[arg(long)]
    pub add: Option<usize>,
    /// Nodes to remove (the last ones of the original fleet; comparing algorithms, 0 means as
    /// many as added).
    #[arg(long, default_value_t = 0)]
    pub remove: usize,
    /// Servers file for the original fleet instead of --nodes; added nodes take the next
    /// ports after the highest one, on the last server's host.
    #[arg(long, short = 's', value_parser = crate::path_arg())]
    pub servers: Option<String>,
    /// Also run the experiment on real memcached processes started on 127.0.0.1 (one per
    /// node, free ports; the node labels are still what is hashed) and print the live hit
    /// rates and item counts beside the simulated ones.
    #[arg(long)]
    pub live: bool,
    /// --live: between storing and reading, copy the moving keys with `ketama migrate run`
    /// and read again ("hit rate after migrating", expected 100%).
    #[arg(long, requires = "live")]
    pub migrate: bool,
    /// The memcached binary for --live [default: memcached on the PATH].
    #[arg(long, requires = "live", value_name = "PATH", value_parser = crate::path_arg())]
    pub memcached: Option<String>,
    /// --live: the longest any one step may wait on a server, in seconds (a step is the
    /// connect, a `stats`, or one batch of up to 1000 keys); a server that takes longer fails
    /// the run, naming the server and the command.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::seconds, requires = "live")]
    pub timeout: std::time::Duration,
}

/// The result for one hash.
#[derive(Clone, Debug)]
pub struct HashResult {
    /// The name as the user spelled it (column header).
    pub shown: String,
    /// The hash.
    pub hash: Hash,
    /// Keys placed both before and after.
    pub placed: usize,
    /// Keys the client refuses (not counted in the rates).
    pub refused: usize,
    /// Fraction of placed keys whose server is unchanged.
    pub hit_rate: f64,
    /// The same for `hash % n`.
    pub modula_hit_rate: f64,
    /// Keys per node before (original fleet order).
    pub before: Vec<usize>,
    /// Keys per node after (new fleet order).
    pub after: Vec<usize>,
    /// Nanoseconds per key for the hash alone.
    pub ns_per_key: f64,
}

/// The whole experiment.
#[derive(Clone, Debug)]
pub struct Report {
    /// Profile used.
    pub profile: &'static Profile,
    /// Where the keys came from.
    pub source: String,
    /// Number of distinct keys.
    pub keys: usize,
    /// Fleet before.
    pub old: Vec<Server>,
    /// Fleet after.
    pub new: Vec<Server>,
    /// Labels added.
    pub added: Vec<String>,
    /// Labels removed.
    pub removed: Vec<String>,
    /// The best possible hit rate.
    pub ideal: f64,
    /// Per hash.
    pub results: Vec<HashResult>,
}

/// Runs `ketama simulate`.
pub fn run(a: &SimulateArgs, f: Format) -> Result<String, Fail> {
    if let Some(names) = algorithm_list(a) {
        return run_algorithms(a, &names, f);
    }
    let report = simulate(a)?;
    let live = if a.live {
        let (_, keys) = load_keys(a)?;
        Some(crate::live::run(a, &report, &keys)?)
    } else {
        None
    };
    let live = live.as_ref();
    Ok(match f {
        Format::Table => table(&report, live),
        Format::Json => crate::output::json(&to_json(&report, live)),
        Format::Csv => csv(&report, live),
    })
}

/// Computes the report.
pub fn simulate(a: &SimulateArgs) -> Result<Report, Fail> {
    let profile = crate::profile(&a.profile)?;
    let hashes = hash_list(a.hash.as_deref(), profile)?;
    let (source, keys) = load_keys(a)?;
    if keys.is_empty() {
        return Err(Fail::new(format!("{source}: no keys")));
    }
    let old_fleet = fleet(a)?;
    let old = old_fleet.servers();
    let n = old.len();
    let add = a.add.unwrap_or(if a.remove > 0 { 0 } else { 2 });
    if a.remove > n {
        return Err(Fail::new(format!(
            "--remove {}: the fleet has only {n} nodes",
            a.remove
        )));
    }
    if a.remove == n && add == 0 {
        return Err(Fail::new(format!(
            "--remove {}: no node would be left",
            a.remove
        )));
    }
    if add == 0 && a.remove == 0 {
        return Err(Fail::new(
            "nothing changes: give --add or --remove a positive number",
        ));
    }
    let added = new_nodes(&old, add)?;
    let mut new: Vec<Server> = old[..n - a.remove].to_vec();
    new.extend(added.iter().cloned());
    let removed: Vec<String> = old[n - a.remove..]
        .iter()
        .map(|s| s.label.clone())
        .collect();
    let kept = (n - a.remove) as f64;
    let ideal = kept / n as f64 * kept / (kept + add as f64);

    let modula = crate::profile("modula")?;
    let new_fleet = Fleet::from_servers("the changed fleet", new.clone());
    let mut results = Vec::new();
    let total = (hashes.len() as u64).saturating_mul(keys.len() as u64);
    let mut bar = Progress::new(total, "simulate", Unit::Items);
    for (shown, h) in hashes {
        let before_ring = servers::ring(profile, Some(h), &old_fleet)?;
        let after_ring = servers::ring(profile, Some(h), &new_fleet)?;
        let mod_before = Ring::with_servers(modula, Some(h), old.clone())
            .map_err(|e| Fail::new(e.to_string()))?;
        let mod_after = Ring::with_servers(modula, Some(h), new.clone())
            .map_err(|e| Fail::new(e.to_string()))?;
        let mut before = vec![0usize; old.len()];
        let mut after = vec![0usize; new.len()];
        let (mut placed, mut refused, mut hits, mut mod_hits) = (0usize, 0usize, 0usize, 0usize);
        for k in &keys {
            bar.inc(1);
            let (b, af) = match (before_ring.locate(k), after_ring.locate(k)) {
                (Ok(b), Ok(af)) => (b, af),
                _ => {
                    refused += 1;
                    continue;
                }
            };
            placed += 1;
            if let Some(i) = before_ring.position(&b.label) {
                before[i] += 1;
            }
            if let Some(i) = after_ring.position(&af.label) {
                after[i] += 1;
            }
            if b.label == af.label {
                hits += 1;
            }
            if let (Ok(x), Ok(y)) = (mod_before.locate(k), mod_after.locate(k)) {
                if x.label == y.label {
                    mod_hits += 1;
                }
            }
        }
        let rate = |x: usize| {
            if placed == 0 {
                0.0
            } else {
                x as f64 / placed as f64
            }
        };
        results.push(HashResult {
            shown,
            hash: h,
            placed,
            refused,
            hit_rate: rate(hits),
            modula_hit_rate: rate(mod_hits),
            before,
            after,
            ns_per_key: speed(h, &keys),
        });
    }
    bar.finish();
    Ok(Report {
        profile,
        source,
        keys: keys.len(),
        old,
        new,
        added: added.iter().map(|s| s.label.clone()).collect(),
        removed,
        ideal,
        results,
    })
}

/// The fleet before the change: `--servers`, or `--nodes` generated labels.
fn fleet(a: &SimulateArgs) -> Result<Fleet, Fail> {
    Ok(match &a.servers {
        Some(path) => servers::load(path)?,
        None => {
            if a.nodes == 0 || a.nodes > 50_000 {
                return Err(Fail::new(format!(
                    "--nodes {}: expected 1 to 50000",
                    a.nodes
                )));
            }
            let servers = (0..a.nodes)
                .map(|i| Server::parse(&format!("192.168.0.100:{}", 12000 + i), 1))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| Fail::new(format!("generated node: {e}")))?;
            Fleet::from_servers("--nodes", servers)
        }
    })
}

/// The algorithm names when `simulate` compares algorithms: a list (a comma), `--plot`, or a
/// single name that is an algorithm but not a profile (e.g. `anchor`).
fn algorithm_list(a: &SimulateArgs) -> Option<Vec<String>> {
    let names: Vec<String> = a
        .profile
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let single_algorithm = names.len() == 1
        && Profile::by_name(&names[0]).is_err()
        && Algorithm::from_name(&names[0]).is_ok();
    (names.len() > 1 || a.plot.is_some() || single_algorithm || a.profile.contains(','))
        .then_some(names)
}

/// `simulate --profile A,B,...`: see [`crate::algos`].
fn run_algorithms(a: &SimulateArgs, names: &[String], f: Format) -> Result<String, Fail> {
    if a.hash.is_some() {
        return Err(Fail::new(
            "--hash applies to one profile's hash comparison, not to a list of algorithms (each uses its own hash)",
        ));
    }
    if a.live {
        return Err(Fail::new(
            "--live applies to one profile's hash comparison, not to a list of algorithms",
        ));
    }
    if names.is_empty() {
        return Err(Fail::new("--profile: empty list"));
    }
    if let Some(path) = &a.plot {
        plot::check_writable(path)?;
    }
    let mut algorithms: Vec<(String, Algorithm)> = Vec::new();
    for n in names {
        let alg = Algorithm::from_name(n)?;
        if !algorithms.iter().any(|(_, x)| *x == alg) {
            algorithms.push((n.clone(), alg));
        }
    }
    let (source, keys) = if a.keys.is_some() || a.text.is_some() {
        let (source, keys) = load_keys(a)?;
        (source, KeySet::from_keys(&keys))
    } else {
        let n = a.key_count.unwrap_or(keys::GENERATED_KEYS);
        if n == 0 || n > u32::MAX as usize {
            return Err(Fail::new(format!(
                "--key-count {n}: expected 1 to {}",
                u32::MAX
            )));
        }
        (
            format!("generated key:0 .. key:{}", n - 1),
            KeySet::generated(n),
        )
    };
    // The comparison's base fleet is unweighted (its `weighted` change sets the weights).
    let fleet: Vec<Server> = fleet(a)?
        .servers()
        .into_iter()
        .map(|mut s| {
            s.weight = 1;
            s
        })
        .collect();
    let n = fleet.len();
    let add = a.add.unwrap_or(2);
    let remove = if a.remove > 0 {
        a.remove
    } else {
        add.max(1).min(n.saturating_sub(1))
    };
    let added = new_nodes(&fleet, add)?;
    let report = algos::compare(&Setup {
        algorithms,
        source,
        keys,
        fleet,
        added,
        remove,
    })?;
    if let Some(path) = &a.plot {
        plot::write(&report, path)?;
    }
    Ok(algos::render(&report, f))
}

fn hash_list(spec: Option<&str>, profile: &Profile) -> Result<Vec<(String, Hash)>, Fail> {
    let names: Vec<String> = match spec {
        None => DEFAULT_HASHES.iter().map(|s| s.to_string()).collect(),
        Some("all") => return Ok(Hash::all().map(|h| (h.name().to_string(), h)).collect()),
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    };
    if names.is_empty() {
        return Err(Fail::new("--hash: empty list"));
    }
    let mut out: Vec<(String, Hash)> = Vec::new();
    for n in names {
        let h = crate::hash(&n, Some(profile))?;
        if !out.iter().any(|(_, x)| *x == h) {
            out.push((n, h));
        }
    }
    Ok(out)
}

fn load_keys(a: &SimulateArgs) -> Result<(String, Vec<Vec<u8>>), Fail> {
    if let Some(n) = a.key_count {
        let keys = KeySet::generated(n);
        return Ok((
            format!("generated key:0 .. key:{}", n.saturating_sub(1)),
            keys.iter().map(<[u8]>::to_vec).collect(),
        ));
    }
    if let Some(path) = &a.keys {
        let mut seen = std::collections::HashSet::new();
        let keys: Vec<Vec<u8>> = keys::file_keys(path)?
            .into_iter()
            .filter(|k| !k.is_empty() && seen.insert(k.clone()))
            .collect();
        return Ok((format!("distinct lines of {path}"), keys));
    }
    let (source, words) = match &a.text {
        Some(path) => {
            let words = std::fs::File::open(path)
                .and_then(|f| keys::WordCounter::default().read(f))
                .map_err(|e| Fail::new(format!("{path}: cannot read text: {e}")))?;
            (format!("distinct words of {path}"), words)
        }
        None => (
            format!("distinct words of the {}", keys::DEFAULT_CORPUS_NAME),
            keys::word_count(keys::DEFAULT_CORPUS),
        ),
    };
    Ok((
        source,
        words.into_iter().map(|(w, _)| w.into_bytes()).collect(),
    ))
}

/// `k` new nodes after the fleet: the last server's host, ports above the highest one.
fn new_nodes(old: &[Server], k: usize) -> Result<Vec<Server>, Fail> {
    let Some(last) = old.last() else {
        return Ok(Vec::new());
    };
    let top = old.iter().map(|s| u32::from(s.port)).max().unwrap_or(11211);
    if k > 65535 - top as usize {
        return Err(Fail::new(format!(
            "--add {k}: not enough ports above {top} for the new nodes"
        )));
    }
    let host = if last.host.contains(':') {
        format!("[{}]", last.host)
    } else {
        last.host.clone()
    };
    let mut out = Vec::new();
    for j in 1..=k as u32 {
        let label = format!("{host}:{}", top + j);
        if old.iter().any(|s| s.label == label) {
            return Err(Fail::new(format!(
                "new node {label} is already in the fleet"
            )));
        }
        out.push(
            Server::parse(&label, 1).map_err(|e| Fail::new(format!("new node {label}: {e}")))?,
        );
    }
    Ok(out)
}

/// Nanoseconds per key: passes over all keys until about 20 ms have gone by.
fn speed(h: Hash, keys: &[Vec<u8>]) -> f64 {
    let start = Instant::now();
    let mut n = 0usize;
    let mut acc = 0u32;
    while n == 0 || start.elapsed() < Duration::from_millis(20) {
        for k in keys {
            acc = acc.wrapping_add(h.hash(std::hint::black_box(k)));
        }
        n += keys.len();
    }
    std::hint::black_box(acc);
    start.elapsed().as_nanos() as f64 / n.max(1) as f64
}

impl Report {
    /// Keys on the server `label` before and after the change under one hash (`None` where
    /// the server was not on the ring).
    fn keys_on(&self, x: &HashResult, label: &str) -> (Option<usize>, Option<usize>) {
        let count = |servers: &[Server], counts: &[usize]| {
            servers
                .iter()
                .position(|s| s.label == label)
                .and_then(|i| counts.get(i).copied())
        };
        (count(&self.old, &x.before), count(&self.new, &x.after))
    }
}

fn range(v: &[usize]) -> (usize, usize) {
    (
        v.iter().copied().min().unwrap_or(0),
        v.iter().copied().max().unwrap_or(0),
    )
}

fn table(r: &Report, live: Option<&Live>) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "profile {}: {} keys ({})\n",
        r.profile.name, r.keys, r.source
    ));
    let mut change = format!("nodes {} -> {}", r.old.len(), r.new.len());
    if !r.added.is_empty() {
        change.push_str(&format!(", added {}", r.added.join(" ")));
    }
    if !r.removed.is_empty() {
        change.push_str(&format!(", removed {}", r.removed.join(" ")));
    }
    out.push_str(&change);
    out.push_str(&format!("; ideal hit rate {}\n\n", pct(r.ideal)));

    let mut t = Table::new(&[
        "hash",
        "hit rate",
        "ideal",
        "modula",
        "before min~max",
        "after min~max",
        "ns/key",
    ]);
    for x in &r.results {
        let (b0, b1) = range(&x.before);
        let (a0, a1) = range(&x.after);
        t.row(vec![
            x.shown.clone(),
            pct(x.hit_rate),
            pct(r.ideal),
            pct(x.modula_hit_rate),
            format!("{b0}~{b1}"),
            format!("{a0}~{a1}"),
            format!("{:.1}", x.ns_per_key),
        ]);
    }
    out.push_str(&t.text());
    if let Some(l) = live {
        out.push_str(&live_table(r, l));
    }

    // Keys per node, before -> after; five hashes per block.
    let mut labels: Vec<String> = r.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(r.added.iter().cloned());
    for chunk in r.results.chunks(5) {
        out.push('\n');
        let mut headers = vec!["keys per node".to_string()];
        headers.extend(chunk.iter().map(|x| x.shown.clone()));
        let mut t = Table::new(&headers);
        for label in &labels {
            let mut row = vec![label.clone()];
            for x in chunk {
                let (b, a) = r.keys_on(x, label);
                let cell = |v: Option<usize>| v.map_or("-".to_string(), |v| v.to_string());
                row.push(format!("{} -> {}", cell(b), cell(a)));
            }
            t.row(row);
        }
        out.push_str(&t.text());
    }
    let refused: usize = r.results.iter().map(|x| x.refused).max().unwrap_or(0);
    if refused > 0 {
        out.push_str(&format!(
            "\n{refused} keys refused by the client are not counted\n"
        ));
    }
    out
}

fn to_json(r: &Report, live: Option<&Live>) -> Value {
    let labels = |v: &[Server]| v.iter().map(|s| s.label.clone()).collect::<Vec<_>>();
    let mut v = json!({
        "profile": r.profile.name,
        "source": r.source,
        "keys": r.keys,
        "nodes_before": labels(&r.old),
        "nodes_after": labels(&r.new),
        "added": r.added,
        "removed": r.removed,
        "ideal_hit_rate": r.ideal,
        "results": r.results.iter().map(|x| {
            let (b0, b1) = range(&x.before);
            let (a0, a1) = range(&x.after);
            json!({
                "hash": x.shown,
                "hash_name": x.hash.name(),
                "placed": x.placed,
                "refused": x.refused,
                "hit_rate": x.hit_rate,
                "modula_hit_rate": x.modula_hit_rate,
                "ns_per_key": x.ns_per_key,
                "before": r.old.iter().zip(&x.before).map(|(s, c)| json!({"node": s.label, "keys": c})).collect::<Vec<_>>(),
                "after": r.new.iter().zip(&x.after).map(|(s, c)| json!({"node": s.label, "keys": c})).collect::<Vec<_>>(),
                "before_range": [b0, b1],
                "after_range": [a0, a1],
            })
        }).collect::<Vec<_>>(),
    });
    if let Some(l) = live {
        add_live_json(&mut v, r, l);
    }
    v
}

/// The live section of the table: hit rates live vs simulated, then each server's
/// `curr_items` after storing beside the simulated keys per node before the change.
fn live_table(r: &Report, l: &Live) -> String {
    let mut out = format!("\n{}\n", crate::live::describe(l));
    let mut t = Table::new(&[
        "hash",
        "hit rate (simulated)",
        "hit rate (live)",
        "found / stored",
        "live = simulated",
    ]);
    let migrated = l.results.iter().any(|lx| lx.migrated_hits.is_some());
    if migrated {
        t.headers.push("hit rate after migrating".into());
    }
    for (x, lx) in r.results.iter().zip(&l.results) {
        let mut row = vec![
            x.shown.clone(),
            pct(x.hit_rate),
            pct(lx.hit_rate),
            format!("{} / {}", lx.hits, lx.stored),
            if lx.hit_rate == x.hit_rate && lx.stored == x.placed {
                "yes".into()
            } else {
                "NO".into()
            },
        ];
        if let Some(m) = lx.migrated_hit_rate() {
            row.push(pct(m));
        }
        t.row(row);
    }
    out.push_str(&t.text());
    for (chunk, lchunk) in r.results.chunks(5).zip(l.results.chunks(5)) {
        out.push('\n');
        let mut headers = vec![
            "items before (simulated / live)".to_string(),
            "server".into(),
        ];
        headers.extend(chunk.iter().map(|x| x.shown.clone()));
        let mut t = Table::new(&headers);
        for (i, s) in r.old.iter().enumerate() {
            let addr = l.address(&s.label).map_or("-".into(), |a| a.to_string());
            let mut row = vec![s.label.clone(), addr];
            for (x, lx) in chunk.iter().zip(lchunk) {
                let sim = x.before.get(i).copied().unwrap_or(0);
                let got = lx.items.get(i).copied().unwrap_or(0);
                row.push(format!("{sim} / {got}"));
            }
            t.row(row);
        }
        out.push_str(&t.text());
    }
    out
}

fn add_live_json(v: &mut Value, r: &Report, l: &Live) {
    v["live"] = json!({
        "memcached": l.version,
        "servers": l.addresses.iter().map(|(n, a)| json!({"node": n, "address": a.to_string()})).collect::<Vec<_>>(),
    });
    if let Some(results) = v["results"].as_array_mut() {
        for (o, lx) in results.iter_mut().zip(&l.results) {
            o["live_hit_rate"] = json!(lx.hit_rate);
            if let Some(m) = lx.migrated_hit_rate() {
                o["live_hit_rate_migrated"] = json!(m);
            }
            o["live_hits"] = json!(lx.hits);
            o["live_stored"] = json!(lx.stored);
            o["live_items_before"] = Value::Array(
                r.old
                    .iter()
                    .zip(&lx.items)
                    .map(|(s, n)| json!({"node": s.label, "items": n}))
                    .collect(),
            );
        }
    }
}

/// One row per (hash, node), the hash's summary repeated on each.
fn csv(r: &Report, live: Option<&Live>) -> String {
    let mut headers = vec![
        "hash",
        "hit_rate",
        "ideal_hit_rate",
        "modula_hit_rate",
        "ns_per_key",
        "node",
        "keys_before",
        "keys_after",
    ];
    if live.is_some() {
        headers.extend(["live_hit_rate", "live_items_before"]);
    }
    let mut t = Table::new(&headers);
    let mut labels: Vec<String> = r.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(r.added.iter().cloned());
    for (i, x) in r.results.iter().enumerate() {
        let lx = live.and_then(|l| l.results.get(i));
        for label in &labels {
            let (b, a) = r.keys_on(x, label);
            let cell = |v: Option<usize>| v.map_or(String::new(), |v| v.to_string());
            let mut row = vec![
                x.shown.clone(),
                format!("{:.6}", x.hit_rate),
                format!("{:.6}", r.ideal),
                format!("{:.6}", x.modula_hit_rate),
                format!("{:.1}", x.ns_per_key),
                label.clone(),
                cell(b),
                cell(a),
            ];
            if let Some(lx) = lx {
                let items = r
                    .old
                    .iter()
                    .position(|s| &s.label == label)
                    .and_then(|j| lx.items.get(j));
                row.push(format!("{:.6}", lx.hit_rate));
                row.push(items.map_or(String::new(), |n| n.to_string()));
            }
            t.row(row);
        }
    }
    t.csv()
}
