//! What the integration tests share: running the real `ketama` binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

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

#[path = "fake.rs"]
pub mod fake;
