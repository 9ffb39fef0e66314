//! `audit` against fake servers that misbehave (tests/common/fake.rs): slow, stalled,
//! endless, garbage, killed mid-reply. Each run has a short `--timeout`, so the whole file
//! takes a few seconds.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use common::fake::Fake;
use serde_json::Value;

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
    let (out, peak_kb) = common::peak(&[
        "audit",
        "-s",
        f.to_str().unwrap(),
        "-p",
        "libketama",
        "--timeout",
        "20",
    ]);
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
fn detect_keeps_counts_not_key_lists() {
    // 20,000 keys on a server no candidate ring gives them all to: most candidates misplace
    // most keys, which --detect must count, not keep.
    let names: Vec<String> = (0..20_000).map(|i| format!("user:{i:05}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (a, b) = (Fake::listing(&refs, &[]), Fake::listing(&[], &[]));
    let f = servers_file("detect", &[a.addr(), b.addr()]);
    let s = f.to_str().unwrap();
    let (out, profile_kb) = common::peak(&["audit", "-s", s, "-p", "libmemcached"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (out, detect_kb) = common::peak(&["audit", "-s", s, "--detect"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("20000 keys"));
    assert!(
        detect_kb < 2 * profile_kb,
        "--detect {detect_kb} kB, --profile {profile_kb} kB"
    );
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
        (7, "not a memcached key: 251 bytes (the limit is 250)"),
        (
            8,
            "a raw byte 0x1b in key=\\x1b[2J\\x1b[H (memcached escapes it)",
        ),
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
}

#[test]
fn keys_with_c1_controls_are_escaped_in_the_table() {
    // A valid memcached key (no byte below 0x21) holding U+009B, a terminal's CSI.
    let g = Fake::listing(&["csi%C2%9B2J"], &[]);
    // A second (unreachable) server where libketama looks for the key: it is misplaced.
    let f = (1..100)
        .map(|port| {
            let down = format!("127.0.0.1:{port}");
            let f = servers_file("csi", &[g.addr(), &down]);
            let out = common::ketama_stdin(
                &[
                    "lookup",
                    "-p",
                    "libketama",
                    "-s",
                    f.to_str().unwrap(),
                    "csi\u{9b}2J",
                ],
                None,
            );
            (f, down, out.stdout)
        })
        .find(|(_, down, owner)| String::from_utf8_lossy(owner).trim() == down)
        .map(|(f, _, _)| f)
        .unwrap();
    let (out, _) = audit(&f, &["-p", "libketama", "--timeout", "5"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\u{9b}'), "{text}");
    assert!(text.contains("csi\\u{009b}2J"), "{text}");
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

#[test]
fn ctrl_c_stops_an_audit_waiting_on_stalled_servers_within_a_second() {
    let (a, b) = (Fake::stalled(), Fake::stalled());
    let f = servers_file("sigint", &[a.addr(), b.addr()]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ketama"))
        .args([
            "audit",
            "-s",
            f.to_str().unwrap(),
            "--detect",
            "--timeout",
            "20",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let st = std::process::Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(st.success());
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("audit still running 5 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).trim(), "ketama: audit: interrupted");
}
