//! What the integration tests share: running the real `ketama` binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
const BIN: &str = env!("CARGO_BIN_EXE_ketama");

/// Runs `ketama args`, feeding `stdin` when given (else no standard input).
pub fn ketama_stdin(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ketama");
    if let Some(bytes) = stdin {
        // The command may exit before reading everything (e.g. on a bad servers file).
        let _ = child.stdin.take().unwrap().write_all(bytes);
    }
    child.wait_with_output().unwrap()
}

/// Runs `ketama args` with TMPDIR set to `tmp` (where it makes its temporary files), no
/// standard input.
#[allow(dead_code)]
pub fn ketama_in(tmp: &std::path::Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .expect("run ketama")
}

/// Expects `out` (of `ketama args`) to have succeeded; returns its standard output.
#[allow(dead_code)] // each test crate compiles this module; not every one checks a success
pub fn stdout_of(args: &[&str], out: Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `ketama args`; returns its output and its peak RSS in kB (VmHWM, read while it runs).
#[allow(dead_code)]
pub fn peak(args: &[&str]) -> (Output, u64) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut peak_kb = 0u64;
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if let Ok(s) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            if let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            {
                peak_kb = kb;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{args:?} still running"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), peak_kb)
}

#[path = "fake.rs"]
pub mod fake;

#[path = "memcached.rs"]
pub mod memcached;

#[path = "migrate.rs"]
pub mod migrate;

/// Runs `ketama args` (no standard input, stdout and stderr captured), sends it SIGINT after
/// `after`, and returns its output with how long it took to stop after the signal.
#[allow(dead_code)]
pub fn interrupted(args: &[&str], after: Duration) -> (Output, Duration) {
    interrupted_when(args, None, || {
        std::thread::sleep(after);
        true
    })
}

/// [`interrupted`] with TMPDIR set to `tmp` when given, signalled once `ready` (polled every
/// 10 ms, for at most 30 s) returns `true`.
#[allow(dead_code)]
pub fn interrupted_when(
    args: &[&str],
    tmp: Option<&std::path::Path>,
    mut ready: impl FnMut() -> bool,
) -> (Output, Duration) {
    let mut cmd = Command::new(BIN);
    if let Some(t) = tmp {
        cmd.env("TMPDIR", t);
    }
    let child = cmd
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ketama");
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{args:?}: never ready"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = Instant::now();
    // SIGINT to exactly this child.
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(st.success(), "kill -INT {}", child.id());
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed())
}
