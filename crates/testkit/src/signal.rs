//! Running a program under test and stopping it the way an operator does: SIGINT to exactly
//! that process once it is ready; its peak memory while it runs.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `cmd` (no standard input, stdout and stderr captured), sends it SIGINT once `ready`
/// (polled every 10 ms, for at most 30 s) returns `true`; its output, and how long it took
/// to stop after the signal.
pub fn interrupted_when(mut cmd: Command, mut ready: impl FnMut() -> bool) -> (Output, Duration) {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the program under test");
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{cmd:?}: never ready"
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

/// Runs `cmd` (no standard input); its output and its peak RSS in kB (VmHWM, read while it
/// runs). A run of more than `limit` fails the test.
pub fn peak(mut cmd: Command, limit: Duration) -> (Output, u64) {
    let mut child = cmd
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
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), peak_kb)
}
