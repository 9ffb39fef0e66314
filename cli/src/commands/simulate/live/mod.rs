//! `ketama simulate --live`: the experiment on real memcached servers.
//!
//! One memcached process per node is started on 127.0.0.1 (a free port each, picked at run
//! time). The node labels (`192.168.0.100:12000`, ...) stay what the ring hashes; each label is
//! only *mapped* to its local process, so placement is the experiment's own and no connection
//! ever leaves the loopback interface. For each hash: every key is stored on the server the
//! ring of the original fleet names, each server's `curr_items` is read from `stats`, then
//! every key is read back from the server the ring of the changed fleet names; a hit is a key
//! found there with the value stored. The stored keys are then deleted, so the next hash starts
//! on empty servers.
//!
//! The processes are started and stopped by [`daemons`]; with `--tls` they serve TLS with a
//! certificate made for the run ([`certs`]), and every connection, the `--migrate` copy's
//! included, verifies it. Each step (the connect, a `stats`, a batch of keys) may wait on a
//! server at most `--timeout`.

pub(crate) mod certs;
pub(crate) mod daemons;

use std::collections::HashMap;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::args::SimulateArgs;
use super::experiment::{HashResult, Report};
use crate::output::key_text;
use crate::servers::{self, Fleet};
use crate::shared::Fail;
use certs::LiveTls;
use daemons::{check_interrupt, Daemons, DEFAULT_MEMCACHED, INTERRUPTED};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ketama_memcache::tls::Tls;
use ketama_memcache::{key_ok, Conn, Options};
use ketama_migrate::{Fleet as MigrateFleet, Memcached, Placement, RunOptions};

/// The most memcached processes one run starts.
pub(crate) const MAX_NODES: usize = 100;

/// Keys per step between two checks for Ctrl-C.
const CHUNK: usize = 1000;

/// What the live run measured for one hash (same order as [`Report::results`]).
#[derive(Clone, Debug)]
pub(crate) struct LiveResult {
    /// Keys stored (the placed keys).
    pub(crate) stored: usize,
    /// Keys found after the change, with the value stored.
    pub(crate) hits: usize,
    /// `hits / stored`.
    pub(crate) hit_rate: f64,
    /// `curr_items` of each server of the original fleet after storing (fleet order).
    pub(crate) items: Vec<u64>,
    /// With `--migrate`: keys found after `migrate run` copied the moving keys.
    pub(crate) migrated_hits: Option<usize>,
}

impl LiveResult {
    /// With `--migrate`: `migrated_hits / stored`.
    pub(crate) fn migrated_hit_rate(&self) -> Option<f64> {
        self.migrated_hits.map(|h| {
            if self.stored == 0 {
                0.0
            } else {
                h as f64 / self.stored as f64
            }
        })
    }
}

/// The live half of the report.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    /// `version` of the memcached processes.
    pub(crate) version: String,
    /// Each node label and the local address standing in for it.
    pub(crate) addresses: Vec<(String, SocketAddr)>,
    /// Per hash.
    pub(crate) results: Vec<LiveResult>,
    /// Whether the processes served TLS (`--tls`).
    pub(crate) tls: bool,
}

impl Live {
    /// The local address standing in for a node label.
    pub(crate) fn address(&self, label: &str) -> Option<SocketAddr> {
        self.addresses
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, a)| *a)
    }
}

fn progress(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("live {msg:>14} [{bar:40}] {pos}/{len} keys ({elapsed})")
    {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// The processes standing in for the nodes, and a connection to each.
struct Servers {
    daemons: Daemons,
    /// With `--tls`: the run's certificates (dropped after the processes that read them).
    certs: Option<LiveTls>,
    /// Each node label and its local address, in fleet order (the added nodes last).
    addresses: Vec<(String, SocketAddr)>,
    conns: HashMap<String, Conn>,
    /// `version` of the first.
    version: String,
}

/// Runs the experiment of `report` on real servers.
pub(crate) fn run(a: &SimulateArgs, report: &Report, keys: &[Vec<u8>]) -> Result<Live, Fail> {
    check(report, keys)?;
    // Ctrl-C from here on stops the processes this run starts (its handler raises the flag).
    crate::stop::flag();
    let mut servers = start(a, report)?;
    let passes = if a.migrate { 3 } else { 2 };
    let pb = progress((report.results.len() * keys.len() * passes) as u64);
    let mut results = Vec::new();
    for (i, x) in report.results.iter().enumerate() {
        pb.set_message(x.shown.clone());
        results.push(one_hash(&mut servers, a, report, (i, x), keys, &pb)?);
    }
    pb.finish_and_clear();
    let Servers {
        daemons,
        certs,
        addresses,
        conns,
        version,
    } = servers;
    drop(conns);
    drop(daemons);
    let tls = certs.is_some();
    drop(certs);
    Ok(Live {
        version,
        addresses,
        results,
        tls,
    })
}

/// Refuses keys the text protocol cannot carry, and fleets too large to start.
fn check(report: &Report, keys: &[Vec<u8>]) -> Result<(), Fail> {
    if let Some(bad) = keys.iter().find(|k| !key_ok(k)) {
        let n = keys.iter().filter(|k| !key_ok(k)).count();
        return Err(Fail::new(format!(
            "--live: {n} keys cannot be sent in memcached's text protocol (empty, over 250 bytes, or with a space or control byte), e.g. '{}'",
            key_text(bad)
        )));
    }
    let nodes = report.old.len() + report.added.len();
    if nodes > MAX_NODES {
        return Err(Fail::new(format!(
            "--live starts one memcached per node: {nodes} nodes, at most {MAX_NODES}"
        )));
    }
    Ok(())
}

/// Starts one memcached per node (the original fleet, then the added nodes), with `--tls`
/// on a certificate made for the run, and connects (over TLS, verifying it).
fn start(a: &SimulateArgs, report: &Report) -> Result<Servers, Fail> {
    let binary = a.memcached.as_deref().unwrap_or(DEFAULT_MEMCACHED);
    let mut labels: Vec<String> = report.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(report.added.iter().cloned());
    // Declared before the processes, so dropped after them on an early return.
    let certs = if a.tls { Some(LiveTls::new()?) } else { None };
    let mut daemons = Daemons::default();
    let mut addresses = Vec::new();
    for l in &labels {
        addresses.push((l.clone(), daemons.start(binary, a.timeout, certs.as_ref())?));
    }
    let opts =
        Options::new(a.timeout, crate::stop::flag()).with_tls(certs.as_ref().map(LiveTls::client));
    let mut conns: HashMap<String, Conn> = HashMap::new();
    for (l, addr) in &addresses {
        conns.insert(
            l.clone(),
            Conn::connect_addr(*addr, l, opts.clone()).map_err(interrupted)?,
        );
    }
    let version = match conns.get_mut(&labels[0]) {
        Some(c) => {
            c.set_deadline(Instant::now() + a.timeout);
            c.version().map_err(interrupted)?
        }
        None => String::new(),
    };
    Ok(Servers {
        daemons,
        certs,
        addresses,
        conns,
        version,
    })
}

/// Keys grouped by the server they go to.
type Groups<'k> = HashMap<&'k str, Vec<&'k [u8]>>;

/// One hash: store every placed key where the original fleet puts it, count each server's
/// items, read back where the changed fleet looks (again after `--migrate`), then delete
/// everything and check the servers are empty for the next hash.
fn one_hash(
    servers: &mut Servers,
    a: &SimulateArgs,
    report: &Report,
    (i, x): (usize, &HashResult),
    keys: &[Vec<u8>],
    pb: &ProgressBar,
) -> Result<LiveResult, Fail> {
    let old_fleet = Fleet::from_servers("the fleet", report.old.clone());
    let new_fleet = Fleet::from_servers("the changed fleet", report.new.clone());
    let before = a
        .options
        .apply(servers::ring(report.profile, Some(x.hash), &old_fleet)?)?;
    let after = a
        .options
        .apply(servers::ring(report.profile, Some(x.hash), &new_fleet)?)?;
    // Placed keys (both rings place them), grouped by server before and after.
    let mut store: Groups = HashMap::new();
    let mut fetch: Groups = HashMap::new();
    for k in keys {
        if let (Ok(b), Ok(af)) = (before.locate(k), after.locate(k)) {
            store.entry(b.label.as_str()).or_default().push(k);
            fetch.entry(af.label.as_str()).or_default().push(k);
        }
    }
    let value = format!("ketama-live-{i}");
    let conns = &mut servers.conns;
    let mut stored = 0usize;
    batches(conns, &store, a.timeout, |conn, chunk| {
        let items: Vec<(&[u8], &[u8])> = chunk.iter().map(|k| (*k, value.as_bytes())).collect();
        conn.set_many(&items)?;
        stored += chunk.len();
        pb.inc(chunk.len() as u64);
        Ok(())
    })?;
    let mut items = Vec::new();
    for s in &report.old {
        items.push(
            step(conns, &s.label, a.timeout)?
                .item_count()
                .map_err(interrupted)?,
        );
    }
    let read_back = |conns: &mut HashMap<String, Conn>| -> Result<usize, Fail> {
        let mut hits = 0usize;
        batches(conns, &fetch, a.timeout, |conn, chunk| {
            let found = conn.get_many(chunk)?;
            hits += chunk
                .iter()
                .filter(|k| found.get(**k).is_some_and(|v| v == value.as_bytes()))
                .count();
            pb.inc(chunk.len() as u64);
            Ok(())
        })?;
        Ok(hits)
    };
    let hits = read_back(conns)?;
    let migrated_hits = if a.migrate {
        let tls = servers.certs.as_ref().map(LiveTls::client);
        migrate(&before, &after, &servers.addresses, a.timeout, tls)?;
        let hits = read_back(conns)?;
        // The copies the migration made sit where the changed fleet looks.
        batches(conns, &fetch, a.timeout, |conn, chunk| {
            conn.delete_many(chunk).map(drop)
        })?;
        Some(hits)
    } else {
        None
    };
    // Empty the servers for the next hash, and make sure they are.
    batches(conns, &store, a.timeout, |conn, chunk| {
        conn.delete_many(chunk).map(drop)
    })?;
    for (l, _) in &servers.addresses {
        let left = step(conns, l, a.timeout)?
            .item_count()
            .map_err(interrupted)?;
        if left != 0 {
            return Err(Fail::new(format!(
                "--live: {left} items left on the server for {l} after deleting the keys"
            )));
        }
    }
    Ok(LiveResult {
        stored,
        hits,
        hit_rate: if stored == 0 {
            0.0
        } else {
            hits as f64 / stored as f64
        },
        items,
        migrated_hits,
    })
}

/// Runs `f` on each server's keys in batches of up to [`CHUNK`], each batch within `timeout`
/// and after a check for Ctrl-C.
fn batches<'k>(
    conns: &mut HashMap<String, Conn>,
    groups: &Groups<'k>,
    timeout: Duration,
    mut f: impl FnMut(&mut Conn, &[&'k [u8]]) -> Result<(), ketama_memcache::Error>,
) -> Result<(), Fail> {
    for (label, ks) in groups {
        let conn = step(conns, label, timeout)?;
        for chunk in ks.chunks(CHUNK) {
            check_interrupt()?;
            f(conn, chunk).map_err(interrupted)?;
        }
    }
    Ok(())
}

/// The connection for `label`, with `timeout` for its next step.
fn step<'a>(
    conns: &'a mut HashMap<String, Conn>,
    label: &str,
    timeout: Duration,
) -> Result<&'a mut Conn, Fail> {
    let c = conns
        .get_mut(label)
        .ok_or_else(|| Fail::new(format!("--live: no server started for {label}")))?;
    c.set_deadline(Instant::now() + timeout);
    Ok(c)
}

/// `ketama migrate run` from the original fleet's ring to the changed one, on the local
/// processes standing in for the node labels (over TLS with `tls`); every moving key must be
/// copied.
fn migrate(
    before: &ketama_core::Ring,
    after: &ketama_core::Ring,
    addresses: &[(String, SocketAddr)],
    timeout: Duration,
    tls: Option<Arc<Tls>>,
) -> Result<(), Fail> {
    let map: HashMap<&str, String> = addresses
        .iter()
        .map(|(l, a)| (l.as_str(), a.to_string()))
        .collect();
    let address = |l: &str| map.get(l).cloned().unwrap_or_default();
    let pl = Placement::new(
        MigrateFleet::from_ring("the fleet", before.clone(), address),
        MigrateFleet::from_ring("the changed fleet", after.clone(), address),
    );
    let stop = crate::stop::flag();
    let backend = Memcached::new(Options::new(timeout, stop.clone()).with_tls(tls));
    let o = ketama_migrate::run(&pl, &backend, &RunOptions::new(stop)).map_err(|e| match e {
        ketama_migrate::RunError::Down(_) | ketama_migrate::RunError::Unsupported(_) => {
            Fail::new(format!("--migrate: the changed fleet is not ready: {e}"))
        }
        e => Fail::new(format!("--migrate: {e}")),
    })?;
    check_interrupt()?;
    if let Some((label, e)) = o.dead.first() {
        return Err(Fail::new(format!("--migrate: server {label} failed: {e}")));
    }
    Ok(())
}

/// A client error as the run's failure; a stop request reads as the interruption it is.
fn interrupted(e: ketama_memcache::Error) -> Fail {
    if e.kind == ketama_memcache::ErrorKind::Interrupted {
        Fail::new(INTERRUPTED)
    } else {
        Fail::new(format!("--live: {e}"))
    }
}

/// The servers of the experiment, for messages.
pub(crate) fn describe(live: &Live) -> String {
    let ports: Vec<String> = live
        .addresses
        .iter()
        .map(|(_, a)| a.port().to_string())
        .collect();
    format!(
        "live: {} memcached {} processes on 127.0.0.1 (ports {}), one per node{}; keys hashed by the node labels",
        live.addresses.len(),
        live.version,
        ports.join(" "),
        if live.tls {
            ", over TLS (a certificate made for this run, verified)"
        } else {
            ""
        }
    )
}
