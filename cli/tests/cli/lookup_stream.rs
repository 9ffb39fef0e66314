//! `ketama lookup` streams its keys: answers come out while the input is
//! still open, `--keys FILE` reads a file the same way, and JSON/CSV output keeps different
//! non-UTF-8 keys different.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::ketama_stdin;

fn servers_file(dir: &str) -> String {
    let d = std::env::temp_dir().join(format!("ketama-lookup-stream-{dir}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("servers");
    std::fs::write(&p, "10.0.0.1:11211\n10.0.0.2:11211\n10.0.0.3:11211\n").unwrap();
    p.to_string_lossy().into_owned()
}

/// The first answers arrive before stdin is closed: the keys are not all read first.
#[test]
fn answers_come_before_the_input_ends() {
    let servers = servers_file("open");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ketama"))
        .args(["lookup", "-p", "libketama", "-s", &servers])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Drain stdout from the start (the first line goes to the channel), so that neither pipe
    // fills up.
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        if let Some(Ok(first)) = lines.next() {
            let _ = tx.send(first);
        }
        lines.for_each(drop);
    });
    // More answers than any output buffer holds, then the input stays open.
    let keys: String = (0..50_000).map(|i| format!("key:{i}\n")).collect();
    stdin.write_all(keys.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let first = rx.recv_timeout(Duration::from_secs(60));
    drop(stdin);
    let _ = child.wait();
    let first = first.expect("no answer while stdin was open: lookup reads every key first");
    assert!(first.starts_with("10.0.0."), "{first:?}");
}

#[test]
fn keys_file_equals_stdin() {
    let servers = servers_file("file");
    let keys = b"apple\r\nuser:1\n\nk\xff\n";
    let path = std::env::temp_dir().join(format!("ketama-lookup-keys-{}", std::process::id()));
    std::fs::write(&path, keys).unwrap();
    let p = path.to_string_lossy().into_owned();
    for format in [None, Some("json"), Some("csv"), Some("table")] {
        let mut base = vec!["lookup", "-p", "libketama", "-s", &servers];
        if let Some(f) = format {
            base.extend(["--format", f]);
        }
        let from_stdin = ketama_stdin(&base, Some(keys));
        let mut with_file = base.clone();
        with_file.extend(["--keys", &p]);
        let from_file = ketama_stdin(&with_file, None);
        assert!(from_file.status.success(), "{format:?}");
        assert_eq!(from_file.stdout, from_stdin.stdout, "{format:?}");
        assert_eq!(
            String::from_utf8_lossy(&from_file.stdout)
                .matches("10.0.0.")
                .count(),
            4
        );
    }
    let missing = ketama_stdin(
        &[
            "lookup",
            "-p",
            "libketama",
            "-s",
            &servers,
            "--keys",
            "/nonexistent/k",
        ],
        None,
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/k: cannot read keys file")
    );
}

#[test]
fn non_utf8_keys_stay_distinct_in_json_and_csv() {
    let servers = servers_file("utf8");
    let keys = b"a\xff\na\xfe\na\\xff\n";
    let json = ketama_stdin(
        &[
            "lookup",
            "-p",
            "libketama",
            "-s",
            &servers,
            "--format",
            "json",
        ],
        Some(keys),
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(
        (rows[0]["key"].as_str(), rows[0]["key_hex"].as_str()),
        (Some("a\\xff"), Some("61ff"))
    );
    assert_eq!(
        (rows[1]["key"].as_str(), rows[1]["key_hex"].as_str()),
        (Some("a\\xfe"), Some("61fe"))
    );
    assert_eq!(
        (rows[2]["key"].as_str(), rows[2].get("key_hex")),
        (Some("a\\xff"), None)
    );
    let csv = ketama_stdin(
        &[
            "lookup",
            "-p",
            "libketama",
            "-s",
            &servers,
            "--format",
            "csv",
        ],
        Some(keys),
    );
    let text = String::from_utf8(csv.stdout).unwrap();
    let keys: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(keys, ["a\\xff", "a\\xfe", "a\\xff"]);
    assert!(!text.contains('\u{fffd}'));
    let empty = ketama_stdin(
        &[
            "lookup",
            "-p",
            "libketama",
            "-s",
            &servers,
            "--format",
            "json",
        ],
        Some(b""),
    );
    assert_eq!(empty.stdout, b"[]\n");
}
