//! `ketama simulate --live`: the experiment on real memcached servers, or redis-server ones
//! with `--backend redis`.
//!
//! One server process per node is started on 127.0.0.1 (a free port each, picked at run
//! time). The node labels (`192.168.0.100:12000`, ...) stay what the ring hashes; each label is
//! only *mapped* to its local process, so placement is the experiment's own and no connection
//! ever leaves the loopback interface. For each hash: every key is stored on the server the
//! ring of the original fleet names, each server's `curr_items` is read from `stats`, then
//! every key is read back from the server the ring of the changed fleet names; a hit is a key
//! found there with the value stored. The stored keys are then deleted, so the next hash starts
//! on empty servers. Each server is spoken to through [`conn`] (`curr_items` or `DBSIZE`
//! counts its keys).
//!
//! The processes are started and stopped by [`daemons`] (redis-server: [`redis_daemon`]); with
//! `--tls` memcached processes serve TLS with a
//! certificate made for the run ([`certs`]), and every connection, the `--migrate` copy's
//! included, verifies it. Each step (the connect, a `stats`, a batch of keys) may wait on a
//! server at most `--timeout`.

pub(crate) mod certs;
pub(crate) mod conn;
pub(crate) mod daemons;
pub(crate) mod redis_daemon;

use std::collections::HashMap;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use super::args::SimulateArgs;
use super::experiment::{HashResult, Report};
use crate::output::key_text;
use crate::servers::{self, Fleet};
use crate::shared::Fail;
use certs::LiveTls;
use conn::{Kind, LiveConn};
use daemons::{check_interrupt, Daemons, DEFAULT_MEMCACHED};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ketama_memcache::tls::Tls;
use ketama_memcache::{key_ok, Options};
use ketama_migrate::{AnyBackend, Fleet as MigrateFleet, Memcached, Placement, Redis, RunOptions};
use redis_daemon::DEFAULT_REDIS;

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
    /// The kind of the processes.
    pub(crate) kind: Kind,
    /// `version` of the memcached processes (`Redis 7.0.15` for redis-server ones).
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
    conns: HashMap<String, LiveConn>,
    /// `version` of the first.
    version: String,
    kind: Kind,
}

/// Runs the experiment of `report` on real servers.
pub(crate) fn run(a: &SimulateArgs, report: &Report, keys: &[Vec<u8>]) -> Result<Live, Fail> {
    let kind = if a.backend == crate::backend_args::BackendKind::Redis {
        Kind::Redis
    } else {
        Kind::Memcached
    };
    check(kind, a, report, keys)?;
    // Ctrl-C from here on stops the processes this run starts (its handler raises the flag).
    crate::stop::flag();
    let mut servers = start(kind, a, report)?;
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
        kind,
    } = servers;
    drop(conns);
    drop(daemons);
    let tls = certs.is_some();
    drop(certs);
    Ok(Live {
        kind,
        version,
        addresses,
        results,
        tls,
    })
}

/// Refuses keys the text protocol cannot carry (memcached), options of the other kind, and
/// fleets too large to start.
fn check(kind: Kind, a: &SimulateArgs, report: &Report, keys: &[Vec<u8>]) -> Result<(), Fail> {
    match kind {
        Kind::Redis if a.tls || a.memcached.is_some() => {
            return Err(Fail::new(
                "--tls and --memcached apply to memcached processes, not to --backend redis",
            ))
        }
        Kind::Memcached if a.redis_server.is_some() => {
            return Err(Fail::new("--redis-server needs --backend redis"))
        }
        _ => {}
    }
    if let Some(bad) = keys.iter().find(|k| kind == Kind::Memcached && !key_ok(k)) {
        let n = keys.iter().filter(|k| !key_ok(k)).count();
        return Err(Fail::new(format!(
            "--live: {n} keys cannot be sent in memcached's text protocol (empty, over 250 bytes, or with a space or control byte), e.g. '{}'",
            key_text(bad)
        )));
    }
    let nodes = report.old.len() + report.added.len();
    if nodes > MAX_NODES {
        return Err(Fail::new(format!(
            "--live starts one {} per node: {nodes} nodes, at most {MAX_NODES}",
            kind.name()
        )));
    }
    Ok(())
}

/// Starts one server per node (the original fleet, then the added nodes), memcached with
/// `--tls` on a certificate made for the run, and connects (over TLS, verifying it).
fn start(kind: Kind, a: &SimulateArgs, report: &Report) -> Result<Servers, Fail> {
    let binary = match kind {
        Kind::Memcached => a.memcached.as_deref().unwrap_or(DEFAULT_MEMCACHED),
        Kind::Redis => a.redis_server.as_deref().unwrap_or(DEFAULT_REDIS),
    };
    let mut labels: Vec<String> = report.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(report.added.iter().cloned());
    // Declared before the processes, so dropped after them on an early return.
    let certs = if a.tls { Some(LiveTls::new()?) } else { None };
    let mut daemons = Daemons::default();
    let mut addresses = Vec::new();
    for l in &labels {
        let addr = match kind {
            Kind::Memcached => daemons.start(binary, a.timeout, certs.as_ref())?,
            Kind::Redis => daemons.start_redis(binary, a.timeout)?,
        };
        addresses.push((l.clone(), addr));
    }
    let opts =
        Options::new(a.timeout, crate::stop::flag()).with_tls(certs.as_ref().map(LiveTls::client));
    let mut conns: HashMap<String, LiveConn> = HashMap::new();
    for (l, addr) in &addresses {
        conns.insert(l.clone(), LiveConn::connect(kind, *addr, l, opts.clone())?);
    }
    let version = match conns.get_mut(&labels[0]) {
        Some(c) => {
            c.step(a.timeout);
            c.version()?
        }
        None => String::new(),
    };
    Ok(Servers {
        daemons,
        certs,
        addresses,
        conns,
        version,
        kind,
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
        items.push(step(conns, &s.label, a.timeout)?.item_count()?);
    }
    let read_back = |conns: &mut HashMap<String, LiveConn>| -> Result<usize, Fail> {
        let mut hits = 0usize;
        batches(conns, &fetch, a.timeout, |conn, chunk| {
            hits += conn.hits(chunk, value.as_bytes())?;
            pb.inc(chunk.len() as u64);
            Ok(())
        })?;
        Ok(hits)
    };
    let hits = read_back(conns)?;
    let migrated_hits = if a.migrate {
        let tls = servers.certs.as_ref().map(LiveTls::client);
        let to = (servers.addresses.as_slice(), servers.kind);
        migrate(&before, &after, to, a.timeout, tls)?;
        let hits = read_back(conns)?;
        // The copies the migration made sit where the changed fleet looks.
        batches(conns, &fetch, a.timeout, |conn, chunk| {
            conn.delete_many(chunk)
        })?;
        Some(hits)
    } else {
        None
    };
    // Empty the servers for the next hash, and make sure they are.
    batches(conns, &store, a.timeout, |conn, chunk| {
        conn.delete_many(chunk)
    })?;
    for (l, _) in &servers.addresses {
        let left = step(conns, l, a.timeout)?.item_count()?;
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
    conns: &mut HashMap<String, LiveConn>,
    groups: &Groups<'k>,
    timeout: Duration,
    mut f: impl FnMut(&mut LiveConn, &[&'k [u8]]) -> Result<(), Fail>,
) -> Result<(), Fail> {
    for (label, ks) in groups {
        let conn = step(conns, label, timeout)?;
        for chunk in ks.chunks(CHUNK) {
            check_interrupt()?;
            conn.step(timeout);
            f(conn, chunk)?;
        }
    }
    Ok(())
}

/// The connection for `label`, with `timeout` for its next step.
fn step<'a>(
    conns: &'a mut HashMap<String, LiveConn>,
    label: &str,
    timeout: Duration,
) -> Result<&'a mut LiveConn, Fail> {
    let c = conns
        .get_mut(label)
        .ok_or_else(|| Fail::new(format!("--live: no server started for {label}")))?;
    c.step(timeout);
    Ok(c)
}

/// `ketama migrate run` from the original fleet's ring to the changed one, on the local
/// processes standing in for the node labels (of `kind`; over TLS with `tls`); every moving
/// key must be copied.
fn migrate(
    before: &ketama_core::Ring,
    after: &ketama_core::Ring,
    (addresses, kind): (&[(String, SocketAddr)], Kind),
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
    let net = Options::new(timeout, stop.clone()).with_tls(tls);
    let backend = match kind {
        Kind::Memcached => AnyBackend::Memcached(Memcached::new(net)),
        Kind::Redis => AnyBackend::Redis(Redis::new(conn::redis_options(net))),
    };
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

/// The servers of the experiment, for messages.
pub(crate) fn describe(live: &Live) -> String {
    let ports: Vec<String> = live
        .addresses
        .iter()
        .map(|(_, a)| a.port().to_string())
        .collect();
    let what = match live.kind {
        Kind::Memcached => format!("memcached {}", live.version),
        Kind::Redis => format!("redis-server ({})", live.version),
    };
    format!(
        "live: {} {what} processes on 127.0.0.1 (ports {}), one per node{}; keys hashed by the node labels",
        live.addresses.len(),
        ports.join(" "),
        if live.tls {
            ", over TLS (a certificate made for this run, verified)"
        } else {
            ""
        }
    )
}
