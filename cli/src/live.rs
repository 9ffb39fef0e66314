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
//! on any error, and on Ctrl-C or SIGTERM (the handler only raises a flag; the work loop checks
//! it between batches and unwinds normally).

use std::collections::HashMap;
use std::io::IsTerminal;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

use crate::memcache::{key_ok, Conn};
use crate::output::key_text;
use crate::servers::{self, Fleet};
use crate::simulate::{Report, SimulateArgs};
use crate::Fail;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The memcached binary used when `--memcached` is not given.
pub const DEFAULT_MEMCACHED: &str = "memcached";

/// The most memcached processes one run starts.
pub const MAX_NODES: usize = 100;

/// Keys per step between two checks for Ctrl-C.
const CHUNK: usize = 1000;

/// How long a new process may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(10);

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// Installs the Ctrl-C / SIGTERM handler (once per process): it only sets a flag.
pub(crate) fn install_handler() {
    HANDLER.call_once(|| {
        // If another handler is already installed (an embedding program), keep it: the
        // processes are still stopped by Drop on every other path.
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
}

/// Whether Ctrl-C or SIGTERM arrived since [`install_handler`].
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

fn check_interrupt() -> Result<(), Fail> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        Err(Fail::new(
            "interrupted: the memcached processes started for --live were stopped",
        ))
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
    pub fn start(&mut self, binary: &str) -> Result<SocketAddr, Fail> {
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
            cmd.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            #[cfg(unix)]
            {
                // Its own process group: a terminal's Ctrl-C reaches us, and we stop it.
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            let child = cmd.spawn().map_err(|e| {
                Fail::new(format!(
                    "--live: cannot start memcached ('{binary}'): {e} (install Debian's memcached or give --memcached PATH)"
                ))
            })?;
            let pid = child.id();
            self.list.push(Daemon { child });
            match self.wait_ready(addr, pid) {
                Ok(()) => return Ok(addr),
                Err(e) => {
                    last = e;
                    if let Some(mut d) = self.list.pop() {
                        let _ = d.child.kill();
                        let _ = d.child.wait();
                    }
                }
            }
        }
        Err(Fail::new(format!(
            "--live: memcached ('{binary}') did not start: {last}"
        )))
    }

    fn wait_ready(&mut self, addr: SocketAddr, pid: u32) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if let Some(d) = self.list.last_mut() {
                if let Ok(Some(status)) = d.child.try_wait() {
                    return Err(format!("it exited ({status}) on port {}", addr.port()));
                }
            }
            if INTERRUPTED.load(Ordering::SeqCst) {
                return Err("interrupted".into());
            }
            if let Ok(mut c) = Conn::connect_addr(addr, &addr.to_string()) {
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
    install_handler();
    let binary = a.memcached.as_deref().unwrap_or(DEFAULT_MEMCACHED);
    let mut labels: Vec<String> = report.old.iter().map(|s| s.label.clone()).collect();
    labels.extend(report.added.iter().cloned());

    let mut daemons = Daemons::default();
    let mut addresses = Vec::new();
    for l in &labels {
        addresses.push((l.clone(), daemons.start(binary)?));
    }
    let mut conns: HashMap<String, Conn> = HashMap::new();
    for (l, addr) in &addresses {
        conns.insert(l.clone(), Conn::connect_addr(*addr, l).map_err(Fail)?);
    }
    let version = match conns.get_mut(&labels[0]) {
        Some(c) => c.version().map_err(Fail)?,
        None => String::new(),
    };

    let pb = progress((report.results.len() * keys.len() * 2) as u64);
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
            let conn = conn(&mut conns, label)?;
            for chunk in ks.chunks(CHUNK) {
                check_interrupt()?;
                let items: Vec<(&[u8], &[u8])> =
                    chunk.iter().map(|k| (*k, value.as_bytes())).collect();
                conn.set_many(&items).map_err(Fail)?;
                stored += chunk.len();
                pb.inc(chunk.len() as u64);
            }
        }
        let mut items = Vec::new();
        for s in &report.old {
            items.push(conn(&mut conns, &s.label)?.item_count().map_err(Fail)?);
        }
        let mut hits = 0usize;
        for (label, ks) in &fetch {
            let conn = conn(&mut conns, label)?;
            for chunk in ks.chunks(CHUNK) {
                check_interrupt()?;
                let found = conn.get_many(chunk).map_err(Fail)?;
                hits += chunk
                    .iter()
                    .filter(|k| found.get(**k).is_some_and(|v| v == value.as_bytes()))
                    .count();
                pb.inc(chunk.len() as u64);
            }
        }
        // Empty the servers for the next hash, and make sure they are.
        for (label, ks) in &store {
            let conn = conn(&mut conns, label)?;
            for chunk in ks.chunks(CHUNK) {
                check_interrupt()?;
                conn.delete_many(chunk).map_err(Fail)?;
            }
        }
        for l in &labels {
            let left = conn(&mut conns, l)?.item_count().map_err(Fail)?;
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
        });
    }
    pb.finish_and_clear();
    drop(conns);
    drop(daemons);
    Ok(Live {
        version,
        addresses,
        results,
    })
}

fn conn<'a>(conns: &'a mut HashMap<String, Conn>, label: &str) -> Result<&'a mut Conn, Fail> {
    conns
        .get_mut(label)
        .ok_or_else(|| Fail::new(format!("--live: no server started for {label}")))
}

/// The servers of the experiment, for messages.
pub fn describe(live: &Live) -> String {
    let ports: Vec<String> = live
        .addresses
        .iter()
        .map(|(_, a)| a.port().to_string())
        .collect();
    format!(
        "live: {} memcached {} processes on 127.0.0.1 (ports {}), one per node; keys hashed by the node labels",
        live.addresses.len(),
        live.version,
        ports.join(" ")
    )
}
