//! `audit` against fake servers that misbehave (tests/common/fake.rs): slow, stalled,
//! endless, garbage, killed mid-reply. Each run has a short `--timeout`, so the whole file
//! takes a few seconds.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::fake::Fake;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

fn servers_file(name: &str, addrs: &[&str]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ketama-fake-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("servers");
    std::fs::write(&f, addrs.join("\n") + "\n").unwrap();
    f
}

fn audit(servers: &Path, extra: &[&str]) -> (Output, Duration) {
    let t = Instant::now();
    let mut args = vec!["audit", "-s", servers.to_str().unwrap()];
    args.extend(extra);
    let out = common::ketama_stdin(&args, None);
    (out, t.elapsed())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn each_server_gets_one_total_deadline_and_servers_are_asked_in_parallel() {
    let (slow, stalled, stalled2) = (Fake::slow(), Fake::stalled(), Fake::stalled());
    let f = servers_file("deadline", &[slow.addr(), stalled.addr(), stalled2.addr()]);
    let (out, took) = audit(&f, &["-p", "libketama", "--timeout", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // One second each, all at once: well under the 3 s of asking them in turn.
    assert!(took < Duration::from_millis(2500), "{took:?}");
    let err = stderr(&out);
    for a in [slow.addr(), stalled.addr(), stalled2.addr()] {
        assert!(
            err.contains(&format!(
                "server {a} is unreachable (timed out after 1 s waiting for the reply to `stats` from {a})"
            )),
            "{err}"
        );
    }
    assert!(err.contains("no server of"), "{err}");
}

#[test]
fn an_endless_listing_is_refused_in_bounded_memory() {
    let f0 = Fake::endless_metadump();
    let f = servers_file("endless", &[f0.addr()]);
    let mut child = Command::new(BIN)
        .args([
            "audit",
            "-s",
            f.to_str().unwrap(),
            "-p",
            "libketama",
            "--timeout",
            "20",
        ])
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
        assert!(start.elapsed() < Duration::from_secs(20), "still listing");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("server {} is unreachable", f0.addr()))
            && err.contains("more than 100020 lines"),
        "{err}"
    );
    assert!(peak_kb < 64 * 1024, "peak RSS {peak_kb} kB");
}

#[test]
fn bad_lines_are_reported_and_skipped_and_never_reach_the_terminal_raw() {
    let g = Fake::garbage();
    let f = servers_file("garbage", &[g.addr()]);
    let (out, _) = audit(
        &f,
        &["-p", "libketama", "--timeout", "5", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["keys"], 3);
    assert_eq!(v["servers"][0]["bad_lines"], 5);
    let err = stderr(&out);
    for (line, why) in [
        (2, "a bad %-escape in key=%+1"),
        (4, "longer than 2048 bytes"),
        (6, "not a metadump line: hello world"),
        (7, "not a memcached key: 'a b' has a space or control byte"),
        (8, "not a memcached key: '\\x1b[2J\\x1b[H'"),
    ] {
        assert!(
            err.contains(&format!(
                "server {}: line {line} of the reply to `lru_crawler metadump all` skipped: {why}",
                g.addr()
            )),
            "{line}: {err}"
        );
    }
    assert!(!err.contains('\x1b'), "raw escape on stderr");
    let (out, _) = audit(&f, &["-p", "libketama", "--timeout", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!out.stdout.contains(&0x1b));
}

#[test]
fn a_connection_closed_mid_line_is_named_as_such() {
    let k = Fake::killed_mid_reply();
    let good = Fake::listing(&["a", "b"], &[]);
    let f = servers_file("killed", &[k.addr(), good.addr()]);
    let (out, _) = audit(&f, &["--detect", "--timeout", "5", "--format", "json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "server {0} is unreachable (connection closed by {0} in the middle of a reply line",
            k.addr()
        )),
        "{err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["keys"], 2);
    assert_eq!(v["partial"], true);
}

#[test]
fn timeouts_are_checked() {
    let f = servers_file("usage", &["127.0.0.1:1"]);
    for bad in ["0", "-1", "x", "1e9"] {
        let arg = format!("--timeout={bad}");
        let (out, _) = audit(&f, &["-p", "libketama", &arg]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("not a number of seconds"),
            "{}",
            stderr(&out)
        );
    }
}
