//! Paths that are not regular files: a FIFO given as `--state` is refused at once (it used to
//! block before the run started, deaf to Ctrl-C), and `/dev/zero` given as `--state`,
//! `--servers`, `--keys`, `--tls-ca`, `--tls-cert` or `--password-file` is refused by name instead of read until
//! memory runs out; keys from standard input stay allowed, each line bounded.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::ketama_stdin;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

/// Runs `ketama args` (no stdin, at most 10 s): its exit status, stderr, peak RSS in kB.
fn refused(args: &[&str]) -> (Option<i32>, String, u64) {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    let (out, kb) = ketama_testkit::signal::peak(cmd, Duration::from_secs(10));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        kb,
    )
}

#[test]
fn a_fifo_or_a_device_is_refused_by_name_at_once() {
    let dir = ketama_testkit::memcached::tmpdir("paths", "devices");
    let servers = dir.join("servers");
    std::fs::write(&servers, "127.0.0.1:1\n127.0.0.1:2\n").unwrap();
    let servers = servers.to_str().unwrap();
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let fifo = fifo.to_str().unwrap();
    let run = |state: &'static str| -> Vec<String> {
        [
            "migrate",
            "run",
            "--servers",
            servers,
            "--to",
            servers,
            "--profile",
            "libketama",
            "--to-profile",
            "twemproxy",
            "--state",
            state,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let fifo_state: Vec<String> = run("X")
        .into_iter()
        .map(|a| if a == "X" { fifo.to_string() } else { a })
        .collect();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (fifo_state, "a FIFO"),
        (run("/dev/zero"), "a device"),
        (
            [
                "migrate",
                "plan",
                "--servers",
                "/dev/zero",
                "--to",
                servers,
                "--profile",
                "libketama",
            ]
            .map(String::from)
            .to_vec(),
            "a device",
        ),
        (
            [
                "lookup",
                "-s",
                servers,
                "-p",
                "libketama",
                "--keys",
                "/dev/zero",
            ]
            .map(String::from)
            .to_vec(),
            "a device",
        ),
        (
            [
                "simulate",
                "-s",
                servers,
                "-p",
                "libketama",
                "--keys",
                "/dev/zero",
            ]
            .map(String::from)
            .to_vec(),
            "a device",
        ),
        (
            [
                "audit",
                "-s",
                servers,
                "-p",
                "libketama",
                "--tls",
                "--tls-ca",
                "/dev/zero",
            ]
            .map(String::from)
            .to_vec(),
            "a device",
        ),
        (
            [
                "audit",
                "-s",
                servers,
                "-p",
                "libketama",
                "--tls",
                "--tls-cert",
                "/dev/zero",
                "--tls-key",
                "/dev/zero",
            ]
            .map(String::from)
            .to_vec(),
            "a device",
        ),
        (
            [
                "migrate",
                "plan",
                "--servers",
                servers,
                "--to",
                servers,
                "--profile",
                "libketama",
                "--to-profile",
                "twemproxy",
                "--backend",
                "redis",
                "--password-file",
                "/dev/zero",
            ]
            .map(String::from)
            .to_vec(),
            "a device",
        ),
    ];
    for (args, said) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let t = Instant::now();
        let (code, err, kb) = refused(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(said) && err.contains("not a regular file"),
            "{args:?}: {err}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{args:?}: {:?}",
            t.elapsed()
        );
        assert!(kb < 64 * 1024, "{args:?}: peak RSS {kb} kB");
    }
}

#[test]
fn keys_from_stdin_are_allowed_and_each_line_is_bounded() {
    let dir = ketama_testkit::memcached::tmpdir("paths", "stdin");
    let servers = dir.join("servers");
    std::fs::write(&servers, "127.0.0.1:1\n127.0.0.1:2\n").unwrap();
    let servers = servers.to_str().unwrap();
    let args = ["lookup", "-s", servers, "-p", "libketama", "--keys", "-"];
    let out = ketama_stdin(&args, Some(b"a\nb\n"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
    let mut long = vec![b'k'; (1 << 20) + 1];
    long.push(b'\n');
    let out = ketama_stdin(&args, Some(&long));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("line 1 is longer than 1048576 bytes"), "{err}");
}
