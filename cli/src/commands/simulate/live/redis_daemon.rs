//! The redis-server processes of `ketama simulate --live --backend redis`: each on a free
//! port of 127.0.0.1, nothing saved to disk (`--save ''`, no append-only file), in its own
//! process group and tied to this process (Linux: SIGKILL when the thread that started it
//! ends), checked to be the process we started (its `INFO`'s `process_id`), and stopped by
//! its PID with the others ([`Daemons`]): at the end, on any error, on Ctrl-C and SIGTERM.

use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::conn::redis_options;
use super::daemons::{check_interrupt, die_with_parent, free_port, Daemons};
use crate::shared::Fail;

/// The redis-server binary used when `--redis-server` is not given.
pub(crate) const DEFAULT_REDIS: &str = "redis-server";

/// How long a new process may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(10);

impl Daemons {
    /// Starts one more redis-server on 127.0.0.1; its address once it answers as the
    /// process we started. A port lost to a race is tried again (5 times).
    pub(crate) fn start_redis(
        &mut self,
        binary: &str,
        timeout: Duration,
    ) -> Result<SocketAddr, Fail> {
        let mut last = String::new();
        for _ in 0..5 {
            check_interrupt()?;
            let port = free_port()?;
            let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
            let mut cmd = Command::new(binary);
            cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no", "--protected-mode", "no"])
                .args(["--loglevel", "warning", "--databases", "1"])
                .arg("--dir")
                .arg(std::env::temp_dir())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            #[cfg(unix)]
            {
                // Its own process group: a terminal's Ctrl-C reaches us, and we stop it.
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            die_with_parent(&mut cmd);
            let child = cmd.spawn().map_err(|e| {
                Fail::new(format!(
                    "--live: cannot start redis-server ('{binary}'): {e} (install Debian's \
                     redis-server or give --redis-server PATH)"
                ))
            })?;
            let pid = child.id();
            self.adopt(child);
            match self.wait_redis(addr, pid, timeout) {
                Ok(()) => return Ok(addr),
                Err(e) => {
                    last = e;
                    self.drop_last();
                }
            }
        }
        Err(Fail::new(format!(
            "--live: redis-server ('{binary}') did not start: {last}"
        )))
    }

    /// Waits until the process just started answers on `addr` and its `INFO` names `pid`.
    fn wait_redis(&mut self, addr: SocketAddr, pid: u32, timeout: Duration) -> Result<(), String> {
        let start = Instant::now();
        let opts = redis_options(ketama_memcache::Options::new(timeout, crate::stop::flag()));
        loop {
            if let Some(status) = self.last_exited() {
                return Err(format!("it exited ({status}) on port {}", addr.port()));
            }
            if crate::stop::requested() {
                return Err("interrupted".into());
            }
            let why = match ketama_redis::Conn::connect(&addr.to_string(), &addr.to_string(), &opts)
            {
                Ok(c) if c.info().pid == u64::from(pid) => return Ok(()),
                Ok(_) => {
                    return Err(format!(
                        "port {} answers, but not as the process we started",
                        addr.port()
                    ))
                }
                Err(e) => e.to_string(),
            };
            if start.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "no answer on port {} after {START_TIMEOUT:?} (last: {why})",
                    addr.port()
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
