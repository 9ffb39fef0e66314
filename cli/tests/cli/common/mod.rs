//! What the integration tests share: running the real `ketama` binary (its path is known
//! here only), the fixtures of `ketama-testkit`, and the helpers of some test files.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

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
pub fn ketama_in(tmp: &std::path::Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .expect("run ketama")
}

/// Expects `out` (of `ketama args`) to have succeeded; returns its standard output.
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
pub fn peak(args: &[&str]) -> (Output, u64) {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    ketama_testkit::signal::peak(cmd, Duration::from_secs(60))
}

pub mod migrate;
pub mod run;

pub use ketama_testkit::{fake, memcached, meta_fake};

/// Runs `ketama args` (no standard input, stdout and stderr captured), sends it SIGINT after
/// `after`, and returns its output with how long it took to stop after the signal.
pub fn interrupted(args: &[&str], after: Duration) -> (Output, Duration) {
    interrupted_when(args, None, || {
        std::thread::sleep(after);
        true
    })
}

/// [`interrupted`] with TMPDIR set to `tmp` when given, signalled once `ready` (polled every
/// 10 ms, for at most 30 s) returns `true`.
pub fn interrupted_when(
    args: &[&str],
    tmp: Option<&std::path::Path>,
    ready: impl FnMut() -> bool,
) -> (Output, Duration) {
    let mut cmd = Command::new(BIN);
    if let Some(t) = tmp {
        cmd.env("TMPDIR", t);
    }
    cmd.args(args);
    ketama_testkit::signal::interrupted_when(cmd, ready)
}
