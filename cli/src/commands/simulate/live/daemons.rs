//! The processes of `ketama simulate --live`: memcached (here) or redis-server
//! ([`super::redis_daemon`]), started on free ports of 127.0.0.1 (memcached with `--tls`:
//! with `-Z` and the run's certificate), checked to be the process we started, and stopped
//! by their PIDs.
//!
//! Every process started here is stopped by its PID when [`Daemons`] is dropped: at the end,
//! on any error, and on Ctrl-C or SIGTERM (the handler only raises [`crate::stop::flag`];
//! every wait on a server checks it within [`ketama_memcache::POLL`], and the run unwinds
//! normally). On Linux each process also gets SIGKILL when the thread that started it ends,
//! so even a `ketama` killed by SIGKILL (the OOM killer, `timeout -s KILL`) leaves none behind.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::certs::LiveTls;
use crate::shared::Fail;
use ketama_memcache::{Conn, Options};

/// The memcached binary used when `--memcached` is not given.
pub(crate) const DEFAULT_MEMCACHED: &str = "memcached";

/// How long a new process may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The failure of a run stopped by Ctrl-C or SIGTERM.
pub(crate) const INTERRUPTED: &str =
    "interrupted: the server processes started for --live were stopped";

/// Fails with [`INTERRUPTED`] once a stop was requested.
pub(crate) fn check_interrupt() -> Result<(), Fail> {
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
pub(crate) struct Daemons {
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
pub(super) fn free_port() -> Result<u16, Fail> {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|e| Fail::new(format!("--live: cannot find a free port on 127.0.0.1: {e}")))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| Fail::new(format!("--live: cannot find a free port on 127.0.0.1: {e}")))
}

impl Daemons {
    /// Keeps `child` to be stopped with the others.
    pub(super) fn adopt(&mut self, child: Child) {
        self.list.push(Daemon { child });
    }

    /// Whether the last process adopted has exited (with its status).
    pub(super) fn last_exited(&mut self) -> Option<std::process::ExitStatus> {
        let d = self.list.last_mut()?;
        d.child.try_wait().ok().flatten()
    }

    /// Stops the last process adopted and forgets it; whether it had exited by itself.
    pub(super) fn drop_last(&mut self) -> bool {
        let Some(mut d) = self.list.pop() else {
            return false;
        };
        let exited = matches!(d.child.try_wait(), Ok(Some(_)));
        let _ = d.child.kill();
        let _ = d.child.wait();
        exited
    }

    /// Starts one more memcached on 127.0.0.1; returns its address once it answers and its
    /// `stats` name the PID we started (so we never talk to someone else's server). With
    /// `tls`, the process serves TLS with the run's certificate and is checked over TLS; one
    /// that exits at start is explained from what it wrote on stderr ([`tls_refused`]).
    pub(crate) fn start(
        &mut self,
        binary: &str,
        timeout: Duration,
        tls: Option<&LiveTls>,
    ) -> Result<SocketAddr, Fail> {
        let opts = Options::new(timeout, crate::stop::flag()).with_tls(tls.map(LiveTls::client));
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
                    Some(t.stderr_path(self.list.len()))
                }
                None => None,
            };
            cmd.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(stderr_to(stderr.as_deref())?);
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
            match self.wait_ready(addr, pid, &opts) {
                Ok(()) => return Ok(addr),
                Err(e) => {
                    last = e;
                    let mut exited = false;
                    if let Some(mut d) = self.list.pop() {
                        exited = matches!(d.child.try_wait(), Ok(Some(_)));
                        let _ = d.child.kill();
                        let _ = d.child.wait();
                    }
                    // A port lost to a race is retried; a process refusing TLS would refuse
                    // it on every port.
                    if let (true, Some(path)) = (exited, &stderr) {
                        return Err(tls_refused(binary, &last, path));
                    }
                }
            }
        }
        Err(Fail::new(format!(
            "--live: memcached ('{binary}') did not start: {last}"
        )))
    }

    /// Waits until the process just started answers on `addr` (with `opts`, so over TLS when
    /// it serves TLS) and its `stats` name `pid`.
    fn wait_ready(&mut self, addr: SocketAddr, pid: u32, opts: &Options) -> Result<(), String> {
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
            let refused = match Conn::connect_addr(addr, &addr.to_string(), opts.clone()) {
                Ok(mut c) => {
                    let theirs = c.identity().map_err(|e| e.message)?;
                    return if theirs.pid == u64::from(pid) {
                        Ok(())
                    } else {
                        Err(format!(
                            "port {} answers, but not as the process we started",
                            addr.port()
                        ))
                    };
                }
                Err(e) => e.to_string(),
            };
            if start.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "no answer on port {} after {:?} (last: {refused})",
                    addr.port(),
                    START_TIMEOUT
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Where a new process writes its stderr: a file (kept to explain a process that refuses
/// `-Z` or the certificate) or nowhere.
fn stderr_to(path: Option<&Path>) -> Result<Stdio, Fail> {
    let Some(path) = path else {
        return Ok(Stdio::null());
    };
    std::fs::File::create(path).map(Stdio::from).map_err(|e| {
        Fail::new(format!(
            "--live --tls: cannot create {}: {e}",
            path.display()
        ))
    })
}

/// The failure of a memcached that exited at start when asked for TLS: a build without TLS
/// support refuses `-Z` as an unknown option.
fn tls_refused(binary: &str, why: &str, stderr: &Path) -> Fail {
    let said = std::fs::read_to_string(stderr).unwrap_or_default();
    let said = said.trim();
    let lower = said.to_ascii_lowercase();
    let unknown_z = [
        "invalid option",
        "illegal argument",
        "unrecognized option",
        "unknown option",
    ]
    .iter()
    .any(|w| lower.contains(w));
    let shown = if said.is_empty() {
        String::new()
    } else {
        let first: Vec<&str> = said.lines().take(3).collect();
        format!("; it said: {}", first.join(" / "))
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

/// Asks the kernel to SIGKILL the child when the thread that spawns it ends (Linux), so
/// no memcached outlives a `ketama` killed without a chance to clean up.
#[cfg(target_os = "linux")]
pub(super) fn die_with_parent(cmd: &mut Command) {
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
pub(super) fn die_with_parent(_cmd: &mut Command) {}
