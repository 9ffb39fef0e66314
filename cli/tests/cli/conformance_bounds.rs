//! `ketama conformance` against drivers that misbehave without end: one that floods lines,
//! one that prints one endless line, one that trickles a line every 2 s. Each is stopped
//! (with its whole process group) at the bound it passes, its files reported with the
//! reason, in bounded time and memory.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");
const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors");

/// Runs the kit over libketama's files with `script` as the driver: the report, the time it
/// took, the peak RSS in kB.
fn kit(extra: &[&str], script: &str) -> (Value, Duration, u64) {
    let mut cmd = Command::new(BIN);
    cmd.args([
        "conformance",
        "--vectors",
        VECTORS,
        "--profile",
        "libketama",
    ])
    .args(extra)
    .args(["--format", "json", "--", "sh", "-c", script]);
    let t = Instant::now();
    let (out, kb) = ketama_testkit::signal::peak(cmd, Duration::from_secs(60));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    (r, t.elapsed(), kb)
}

fn first_note(r: &Value) -> String {
    r["files"][0]["note"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_driver_flooding_lines_is_stopped_at_the_output_bound() {
    let (r, took, kb) = kit(&["--max-output", "100000"], "yes");
    let note = first_note(&r);
    assert!(
        note.contains("more than 100000 bytes of answers to this file; stopped"),
        "{note}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
    assert!(kb < 64 * 1024, "peak RSS {kb} kB");
}

#[test]
fn a_driver_printing_one_endless_line_is_stopped_at_the_line_bound() {
    let (r, took, kb) = kit(&[], "cat /dev/zero");
    let note = first_note(&r);
    assert!(
        note.contains("an answer line longer than 65536 bytes; stopped"),
        "{note}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
    assert!(kb < 64 * 1024, "peak RSS {kb} kB");
}

#[test]
fn a_driver_trickling_lines_is_stopped_at_the_file_deadline_with_its_group() {
    // A process of the driver's group that outlives the deadline (its sleep, marked by a
    // length no other process has), and the trickle.
    let marker = format!("30.{}", std::process::id());
    let script = format!("sleep {marker} & while :; do echo x; sleep 2; done");
    let (r, took, _) = kit(&["--file-timeout", "3"], &script);
    let note = first_note(&r);
    assert!(
        note.contains("took more than 3 s to answer this file; stopped"),
        "{note}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");
    let left = Command::new("pgrep")
        .args(["-f", &format!("sleep {marker}")])
        .output()
        .unwrap();
    let left = String::from_utf8_lossy(&left.stdout).into_owned();
    for pid in left.split_whitespace() {
        let _ = Command::new("kill").arg(pid).status();
    }
    assert!(left.is_empty(), "left behind: {left}");
}
