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
    // SIGINT to exactly this child; the time runs from the signal to the exit.
    let sent = Instant::now();
    interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed())
}

/// Sends SIGINT to process `pid`.
#[cfg(target_os = "linux")]
fn interrupt(pid: u32) {
    let pid = libc::pid_t::try_from(pid).expect("a process id");
    // SAFETY: kill(2) signals the process `pid` (a child of this process, not yet reaped,
    // so the id is still its own); it reads no memory of ours.
    let r = unsafe { libc::kill(pid, libc::SIGINT) };
    assert_eq!(r, 0, "kill -INT {pid}");
}

/// Sends SIGINT to process `pid`.
#[cfg(not(target_os = "linux"))]
fn interrupt(pid: u32) {
    let st = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(st.success(), "kill -INT {pid}");
}

/// The project's rule: Ctrl-C (SIGINT) and SIGTERM are honoured within a second of the
/// signal.
pub const STOP_WITHIN: Duration = Duration::from_secs(1);

/// What every test allows on top of [`STOP_WITHIN`] for a loaded machine (two cores shared
/// by many builds and tests can leave a process unscheduled for most of a second).
pub const LOAD_ALLOWANCE: Duration = Duration::from_secs(1);

/// Fails the test unless `took` (from the signal to the exit) keeps [`STOP_WITHIN`], with
/// [`LOAD_ALLOWANCE`] for a loaded machine.
pub fn assert_stopped_in_time(took: Duration) {
    assert!(
        took < STOP_WITHIN + LOAD_ALLOWANCE,
        "stopped {took:?} after the signal (the rule: within {STOP_WITHIN:?}, {LOAD_ALLOWANCE:?} \
         more allowed for a loaded machine)"
    );
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
