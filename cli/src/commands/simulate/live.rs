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
//! Every process started here is stopped by its PID when [`Daemons`] is dropped: at the end,
//! on any error, and on Ctrl-C or SIGTERM (the handler only raises [`crate::stop::flag`];
//! every wait on a server checks it within [`crate::memcache::POLL`], and the run unwinds
//! normally). On Linux each process also gets SIGKILL when the thread that started it ends,
//! so even a `ketama` killed by SIGKILL (the OOM killer, `timeout -s KILL`) leaves none behind.
//! Each step (the connect, a `stats`, a batch of keys) may wait on a server at most
//! `--timeout`.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use std::path::Path;
use std::sync::Arc;

use super::args::SimulateArgs;
use super::experiment::Report;
use super::live_tls::LiveTls;
use crate::memcache::tls::Tls;
use crate::memcache::{key_ok, Conn, Options};
use crate::output::key_text;
use crate::servers::{self, Fleet};
use crate::shared::Fail;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The memcached binary used when `--memcached` is not given.
pub const DEFAULT_MEMCACHED: &str = "memcached";

/// The most memcached processes one run starts.
pub const MAX_NODES: usize = 100;

/// Keys per step between two checks for Ctrl-C.
const CHUNK: usize = 1000;

/// How long a new process may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(10);

const INTERRUPTED: &str = "interrupted: the memcached processes started for --live were stopped";

fn check_interrupt() -> Result<(), Fail> {
    if crate::stop::requested() {
        Err(Fail::new(INTERRUPTED))
    } else {
        Ok(())
    }
}

/// One memcached process we started.
#[derive(Debug)]
struct Daemon {
    child: Child,
}

/// The processes of one run; dropping it stops each one by its PID and reaps it.
#[derive(Debug, Default)]
pub struct Daemons {
    list: Vec<Daemon>,
}

impl Drop for Daemons {
    fn drop(&mut self) {
        for d in &mut self.list {
            // SIGKILL to exactly this child (std's Child::kill), then wait so no zombie stays.
            let _ = d.child.kill();
            let _ = d.child.wait();
        }
    }
}

fn running_as_root() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// A port nobody listens on right now (the kernel's choice); memcached may still lose a race
/// for it, which [`Daemons::start`] notices and retries.
fn free_port() -> Result<u16, Fail> {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|e| Fail::new(format!("--live: cannot find a free port on 127.0.0.1: {e}")))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| Fail::new(format!("--live: cannot find a free port on 127.0.0.1: {e}")))
}

impl Daemons {
    /// Starts one more memcached on 127.0.0.1; returns its address once it answers and its
    /// `stats` name the PID we started (so we never talk to someone else's server).
    pub fn start(
        &mut self,
        binary: &str,
        timeout: Duration,
        tls: Option<&LiveTls>,
    ) -> Result<SocketAddr, Fail> {
        let mut last = String::new();
        for _ in 0..5 {
            check_interrupt()?;
            let port = free_port()?;
            let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
            let mut cmd = Command::new(binary);
            cmd.args(["-l", "127.0.0.1", "-p", &port.to_string()])
                .args(["-U", "0", "-m", "64", "-t", "1", "-c", "64"]);
            if running_as_root() {
                cmd.args(["-u", "root"]); // memcached refuses root without it
            }
            let stderr = match tls {
                Some(t) => {
                    cmd.args(t.server_args());
                    // Kept to explain a process that refuses -Z or the certificate.
                    let path = t.stderr_path(self.list.len());
                    let f = std::fs::File::create(&path).map_err(|e| {
                        Fail::new(format!(
                            "--live --tls: cannot create {}: {e}",
                            path.display()
                        ))
                    })?;
                    Some((Stdio::from(f), path))
                }
                None => None,
            };
            let (err_to, err_path) = match stderr {
                Some((s, p)) => (s, Some(p)),
                None => (Stdio::null(), None),
            };
            cmd.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(err_to);
            #[cfg(unix)]
            {
                // Its own process group: a terminal's Ctrl-C reaches us, and we stop it.
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            die_with_parent(&mut cmd);
            let child = cmd.spawn().map_err(|e| {
                Fail::new(format!(
                    "--live: cannot start memcached ('{binary}'): {e} (install Debian's memcached or give --memcached PATH)"
                ))
            })?;
            let pid = child.id();
            self.list.push(Daemon { child });
            let opts = Options::new(timeout).with_tls(tls.map(LiveTls::client));
            match self.wait_ready(addr, pid, opts) {
                Ok(()) => return Ok(addr),
                Err(e) => {
                    last = e;
                    let mut exited = false;
                    if let Some(mut d) = self.list.pop() {
                        exited = matches!(d.child.try_wait(), Ok(Some(_)));
                        let _ = d.child.kill();
                        let _ = d.child.wait();
                    }
                    if let (true, Some(path)) = (exited, &err_path) {
                        return Err(tls_refused(binary, &last, path));
                    }
                }
            }
        }
        Err(Fail::new(format!(
            "--live: memcached ('{binary}') did not start: {last}"
        )))
    }

    fn wait_ready(&mut self, addr: SocketAddr, pid: u32, opts: Options) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if let Some(d) = self.list.last_mut() {
                if let Ok(Some(status)) = d.child.try_wait() {
                    return Err(format!("it exited ({status}) on port {}", addr.port()));
                }
            }
            if crate::stop::requested() {
                return Err("interrupted".into());
            }
            if let Ok(mut c) = Conn::connect_addr(addr, &addr.to_string(), opts.clone()) {
                let stats = c.stats("")?;
                let theirs = stats
                    .iter()
                    .find(|(k, _)| k == "pid")
                    .map(|(_, v)| v.clone());
                return if theirs.as_deref() == Some(pid.to_string().as_str()) {
                    Ok(())
                } else {
                    Err(format!(
                        "port {} answers, but not as the process we started",
                        addr.port()
                    ))
                };
            }
            if start.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "no answer on port {} after {:?}",
                    addr.port(),
                    START_TIMEOUT
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// What the live run measured for one hash (same order as [`Report::results`]).
#[derive(Clone, Debug)]
pub struct LiveResult {
    /// Keys stored (the placed keys).
    pub stored: usize,
    /// Keys found after the change, with the value stored.
    pub hits: usize,
    /// `hits / stored`.
    pub hit_rate: f64,
    /// `curr_items` of each server of the original fleet after storing (fleet order).
    pub items: Vec<u64>,
    /// With `--migrate`: keys found after `migrate run` copied the moving keys.
    pub migrated_hits: Option<usize>,
}

impl LiveResult {
    /// With `--migrate`: `migrated_hits / stored`.
    pub fn migrated_hit_rate(&self) -> Option<f64> {
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
pub struct Live {
    /// `version` of the memcached processes.
    pub version: String,
    /// Each node label and the local address standing in for it.
    pub addresses: Vec<(String, SocketAddr)>,
    /// Per hash.
    pub results: Vec<LiveResult>,
    /// Whether the processes spoke TLS (`--tls`).
    pub tls: bool,
}

impl Live {
    /// The local address standing in for a node label.
    pub fn address(&self, label: &str) -> Option<SocketAddr> {
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

/// Runs the experiment of `report` on real servers.
pub fn run(a: &SimulateArgs, report: &Report, keys: &[Vec<u8>]) -> Result<Live, Fail> {
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
    crate::stop::install();
    let binary = a.memcached.as_deref().unwrap_or(DEFAULT_MEMCACHED);
    let mut labels: Vec<String> = report.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(report.added.iter().cloned());

    // Dropped after the processes (declared first), so memcached never loses its files
    // while running.
    let tls = if a.tls { Some(LiveTls::new()?) } else { None };
    let mut daemons = Daemons::default();
    let mut addresses = Vec::new();
    for l in &labels {
        addresses.push((l.clone(), daemons.start(binary, a.timeout, tls.as_ref())?));
    }
    let client_tls = tls.as_ref().map(LiveTls::client);
    let opts = Options::new(a.timeout).with_tls(client_tls.clone());
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

    let passes = if a.migrate { 3 } else { 2 };
    let pb = progress((report.results.len() * keys.len() * passes) as u64);
    let mut results = Vec::new();
    let old_fleet = Fleet::from_servers("the fleet", report.old.clone());
    let new_fleet = Fleet::from_servers("the changed fleet", report.new.clone());
    for (i, x) in report.results.iter().enumerate() {
        pb.set_message(x.shown.clone());
        let before = servers::ring(report.profile, Some(x.hash), &old_fleet)?;
        let after = servers::ring(report.profile, Some(x.hash), &new_fleet)?;
        // Placed keys (both rings place them), grouped by server before and after.
        let mut store: HashMap<&str, Vec<&[u8]>> = HashMap::new();
        let mut fetch: HashMap<&str, Vec<&[u8]>> = HashMap::new();
        for k in keys {
            if let (Ok(b), Ok(af)) = (before.locate(k), after.locate(k)) {
                store.entry(b.label.as_str()).or_default().push(k);
                fetch.entry(af.label.as_str()).or_default().push(k);
            }
        }
        let value = format!("ketama-live-{i}");
        let mut stored = 0usize;
        for (label, ks) in &store {
            let conn = step(&mut conns, label, a.timeout)?;
            for chunk in ks.chunks(CHUNK) {
                check_interrupt()?;
                let items: Vec<(&[u8], &[u8])> =
                    chunk.iter().map(|k| (*k, value.as_bytes())).collect();
                conn.set_many(&items).map_err(interrupted)?;
                stored += chunk.len();
                pb.inc(chunk.len() as u64);
            }
        }
        let mut items = Vec::new();
        for s in &report.old {
            items.push(
                step(&mut conns, &s.label, a.timeout)?
                    .item_count()
                    .map_err(interrupted)?,
            );
        }
        let read_back = |conns: &mut HashMap<String, Conn>| -> Result<usize, Fail> {
            let mut hits = 0usize;
            for (label, ks) in &fetch {
                let conn = step(conns, label, a.timeout)?;
                for chunk in ks.chunks(CHUNK) {
                    check_interrupt()?;
                    let found = conn.get_many(chunk).map_err(interrupted)?;
                    hits += chunk
                        .iter()
                        .filter(|k| found.get(**k).is_some_and(|v| v == value.as_bytes()))
                        .count();
                    pb.inc(chunk.len() as u64);
                }
            }
            Ok(hits)
        };
        let hits = read_back(&mut conns)?;
        let migrated_hits = if a.migrate {
            migrate(&before, &after, &addresses, a.timeout, client_tls.clone())?;
            Some(read_back(&mut conns)?)
        } else {
            None
        };
        // The copies the migration made sit where the changed fleet looks.
        if a.migrate {
            for (label, ks) in &fetch {
                let conn = step(&mut conns, label, a.timeout)?;
                for chunk in ks.chunks(CHUNK) {
                    check_interrupt()?;
                    conn.delete_many(chunk).map_err(interrupted)?;
                }
            }
        }
        // Empty the servers for the next hash, and make sure they are.
        for (label, ks) in &store {
            let conn = step(&mut conns, label, a.timeout)?;
            for chunk in ks.chunks(CHUNK) {
                check_interrupt()?;
                conn.delete_many(chunk).map_err(interrupted)?;
            }
        }
        for l in &labels {
            let left = step(&mut conns, l, a.timeout)?
                .item_count()
                .map_err(interrupted)?;
            if left != 0 {
                return Err(Fail::new(format!(
                    "--live: {left} items left on the server for {l} after deleting the keys"
                )));
            }
        }
        results.push(LiveResult {
            stored,
            hits,
            hit_rate: if stored == 0 {
                0.0
            } else {
                hits as f64 / stored as f64
            },
            items,
            migrated_hits,
        });
    }
    pb.finish_and_clear();
    drop(conns);
    drop(daemons);
    drop(tls);
    Ok(Live {
        version,
        addresses,
        results,
        tls: a.tls,
    })
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
/// processes standing in for the node labels; every moving key must be copied.
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
    let mut pl = crate::migrate::Placement::from_rings(
        before.clone(),
        after.clone(),
        |l| map.get(l).cloned().unwrap_or_default(),
        timeout,
    );
    pl.tls = tls;
    let clock = crate::migrate::run::preflight(&pl)
        .map_err(|e| Fail::new(format!("--migrate: the changed fleet is not ready: {e:?}")))?;
    let o = crate::migrate::run::execute(&pl, &crate::migrate::run::RunOptions::default(), &clock)?;
    check_interrupt()?;
    if let Some((label, e)) = o.dead.first() {
        return Err(Fail::new(format!("--migrate: server {label} failed: {e}")));
    }
    Ok(())
}

/// The failure of a memcached that exited at start when asked for TLS: a build without TLS
/// support refuses `-Z` as an unknown option.
fn tls_refused(binary: &str, why: &str, stderr: &Path) -> Fail {
    let said = std::fs::read_to_string(stderr).unwrap_or_default();
    let said = said.trim();
    let lower = said.to_ascii_lowercase();
    let unknown_z = lower.contains("invalid option")
        || lower.contains("illegal argument")
        || lower.contains("unrecognized option")
        || lower.contains("unknown option");
    let shown = if said.is_empty() {
        String::new()
    } else {
        format!(
            "; it said: {}",
            said.lines().take(3).collect::<Vec<_>>().join(" / ")
        )
    };
    if unknown_z {
        Fail::new(format!(
            "--live --tls: memcached ('{binary}') refused -Z: it was built without TLS support ({why}{shown}); use a memcached built with TLS (Debian's is) via --memcached PATH, or run without --tls"
        ))
    } else {
        Fail::new(format!(
            "--live --tls: memcached ('{binary}') exited at start with TLS (-Z and this run's certificate): {why}{shown}"
        ))
    }
}

/// A client error as the run's failure; a stop request reads as the interruption it is.
fn interrupted(e: crate::memcache::Error) -> Fail {
    if e.kind == crate::memcache::ErrorKind::Interrupted {
        Fail::new(INTERRUPTED)
    } else {
        Fail::new(format!("--live: {e}"))
    }
}

/// Asks the kernel to SIGKILL the child when the thread that spawns it ends (Linux), so
/// no memcached outlives a `ketama` killed without a chance to clean up.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: the hook runs in the forked child before exec and only makes two
    // async-signal-safe system calls (prctl, getppid) and `_exit`; it touches no memory
    // shared with the parent and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before the request took effect.
            if libc::getppid() as u32 != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// Elsewhere the processes are stopped by [`Daemons`]'s `Drop` only.
#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut Command) {}

/// The servers of the experiment, for messages.
pub fn describe(live: &Live) -> String {
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
