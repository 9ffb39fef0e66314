//! Real memcached processes for tests: found (installed with tests/lib/need.sh when
//! missing), started on free ports of 127.0.0.1, and killed by their PIDs when the test ends
//! (Drop), so none outlives it.
//!
//! Where `memcached` cannot be installed [`memcached`] says so and the test passes, unless
//! KETAMA_REQUIRE_MEMCACHED=1 (as tests/run-all.sh sets), where it fails.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::packages::need;

/// The memcached binary, installed when missing; `None` (the test is skipped, saying so)
/// only when it cannot be installed, unless KETAMA_REQUIRE_MEMCACHED=1.
pub fn memcached() -> Option<String> {
    need("memcached", "memcached");
    for p in ["/usr/bin/memcached", "/usr/local/bin/memcached"] {
        if Path::new(p).exists() {
            return Some(p.to_string());
        }
    }
    if std::env::var("KETAMA_REQUIRE_MEMCACHED").as_deref() == Ok("1") {
        panic!("memcached is required (KETAMA_REQUIRE_MEMCACHED=1) but cannot be installed");
    }
    eprintln!(
        "memcached not installed and not installable: test skipped (set \
         KETAMA_REQUIRE_MEMCACHED=1 to fail)"
    );
    None
}

/// A fresh temporary directory `ketama-<suite>-<pid>-<name>`.
pub fn tmpdir(suite: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ketama-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An executable `d/name` to give as `--memcached`: a shell script that runs the lines
/// `before` (with the arguments in `$@`), then execs `mc` with the same arguments.
pub fn wrapper(d: &Path, name: &str, mc: &str, before: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = d.join(name);
    std::fs::write(
        &script,
        format!("#!/bin/sh\n{before}\nexec '{mc}' \"$@\"\n"),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// A port of 127.0.0.1 free right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `mc` on 127.0.0.1:`port` (TCP only) with `args` and waits until it accepts
/// connections; a server that does not start within 10 s is killed and the test fails.
pub fn spawn(mc: &str, port: u16, args: &[&str]) -> Child {
    let mut c = Command::new(mc)
        .args(["-l", "127.0.0.1", "-p", &port.to_string(), "-U", "0"])
        .args(args)
        .args(["-u", "root"]) // ignored unless root, where it is required
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(10) {
            // Stopped before failing, so no process outlives the test.
            let _ = c.kill();
            let _ = c.wait();
            panic!("memcached on {port} did not start");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    c
}

/// memcached processes started by a test, killed on drop.
#[derive(Debug)]
pub struct Fleet {
    /// The binary.
    pub mc: String,
    /// The processes (`None`: stopped).
    pub procs: Vec<Option<Child>>,
    /// Their labels, `127.0.0.1:port`.
    pub labels: Vec<String>,
    /// The arguments of each (for a restart).
    args: Vec<Vec<String>>,
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for p in self.procs.iter_mut().flatten() {
            let _ = p.kill();
            let _ = p.wait();
        }
    }
}

impl Fleet {
    /// No servers yet.
    pub fn empty(mc: &str) -> Fleet {
        Fleet {
            mc: mc.to_string(),
            procs: Vec::new(),
            labels: Vec::new(),
            args: Vec::new(),
        }
    }

    /// `n` servers, each with `args`.
    pub fn start(mc: &str, n: usize, args: &[&str]) -> Fleet {
        let mut f = Fleet::empty(mc);
        for _ in 0..n {
            f.add(args);
        }
        f
    }

    /// One server per entry of `each`, with those arguments.
    pub fn start_each(mc: &str, each: &[&[&str]]) -> Fleet {
        let mut f = Fleet::empty(mc);
        for args in each {
            f.add(args);
        }
        f
    }

    /// Starts one more server with `args`; its label.
    pub fn add(&mut self, args: &[&str]) -> String {
        let port = free_port();
        self.procs.push(Some(spawn(&self.mc, port, args)));
        self.args.push(args.iter().map(|a| a.to_string()).collect());
        let label = format!("127.0.0.1:{port}");
        self.labels.push(label.clone());
        label
    }

    /// Kills server `i`.
    pub fn stop(&mut self, i: usize) {
        if let Some(mut p) = self.procs[i].take() {
            let _ = p.kill();
            let _ = p.wait();
        }
    }

    /// Kills server `i` and starts it again, empty, on the same port.
    pub fn restart(&mut self, i: usize) {
        self.stop(i);
        let port: u16 = self.labels[i].rsplit(':').next().unwrap().parse().unwrap();
        let args: Vec<&str> = self.args[i].iter().map(String::as_str).collect();
        self.procs[i] = Some(spawn(&self.mc, port, &args));
    }
}

/// The JSON on a command's standard output (the test fails, showing both streams, when it
/// is not JSON).
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "bad json ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Sends one text-protocol command and reads the reply up to a line equal to `end` (or one line).
pub fn talk(addr: &str, cmd: &str, end: Option<&str>) -> Vec<String> {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    (&s).write_all(cmd.as_bytes()).unwrap();
    let mut r = BufReader::new(&s);
    let mut lines = Vec::new();
    loop {
        let mut l = String::new();
        r.read_line(&mut l).unwrap();
        let l = l.trim_end().to_string();
        let done = end.is_none_or(|e| l == e);
        lines.push(l);
        if done {
            return lines;
        }
    }
}

/// Stores `key` = `v` with the text protocol.
pub fn set(addr: &str, key: &str) {
    assert_eq!(
        talk(addr, &format!("set {key} 0 0 1\r\nv\r\n"), None),
        ["STORED"]
    );
}

/// One counter of `stats`.
pub fn stat(addr: &str, name: &str) -> u64 {
    talk(addr, "stats\r\n", Some("END"))
        .iter()
        .find_map(|l| l.strip_prefix(&format!("STAT {name} "))?.parse().ok())
        .unwrap()
}
