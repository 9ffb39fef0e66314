//! `--tls` against real `memcached -Z` processes on 127.0.0.1, with a CA, server and client
//! certificates the test makes: audit and migrate over TLS, an untrusted CA, a name
//! mismatch and `--tls-name`, `--tls-insecure`, client certificates the server requires, a
//! plain server given `--tls` and a TLS server not given it, a handshake that stalls, Ctrl-C
//! in a handshake, bad CA files.
//!
//! Needs Debian's `memcached` (built with TLS) and the `openssl` command; both are installed
//! when missing. Every process a test starts is killed by its PID when the test ends.

use crate::common;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use common::{ketama_stdin, stdout_of};
use ketama_testkit::memcached::{free_port, memcached};
use ketama_testkit::tls::{ca, get, items, leaf, silent, store, store_value, Pem, TlsMemcached};

/// A fresh temporary folder for test `name`.
fn tmpdir(name: &str) -> std::path::PathBuf {
    ketama_testkit::memcached::tmpdir("tls", name)
}

fn ketama(args: &[&str]) -> Output {
    ketama_stdin(args, None)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn servers_file(dir: &Path, name: &str, labels: &[&str]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, labels.join("\n") + "\n").unwrap();
    p.to_str().unwrap().to_string()
}

fn keys(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}:{i}")).collect()
}

/// A CA and a server certificate for 127.0.0.1 (and localhost) signed by it.
fn pki(dir: &Path) -> (Pem, Pem) {
    let ca = ca(dir, "ca");
    let server = leaf(
        dir,
        "server",
        &ca,
        "IP:127.0.0.1,DNS:localhost",
        "serverAuth",
    );
    (ca, server)
}

/// `audit` of `servers` with `extra` flags, JSON.
fn audit(servers: &str, extra: &[&str]) -> Output {
    let mut a = vec![
        "audit",
        "-s",
        servers,
        "-p",
        "twemproxy",
        "--format",
        "json",
    ];
    a.extend_from_slice(extra);
    ketama(&a)
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(out)))
}

#[test]
fn audit_and_migrate_run_and_verify_over_tls() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("migrate");
    let (ca, server) = pki(&d);
    let a = TlsMemcached::start(&mc, &server, None);
    let b = TlsMemcached::start(&mc, &server, None);
    let ks = keys("user", 400);
    store(&a.plain, &ks);
    // Values of many TLS records each.
    let big: Vec<(String, Vec<u8>)> = (0..30)
        .map(|i| {
            let v: Vec<u8> = (0..100_000u32).map(|j| (j * 7 + i) as u8).collect();
            (format!("big:{i}"), v)
        })
        .collect();
    for (k, v) in &big {
        store_value(&a.plain, k, v);
    }
    let old = servers_file(&d, "old", &[&a.label]);
    let new = servers_file(&d, "new", &[&a.label, &b.label]);
    let tls = ["--tls", "--tls-ca", ca.cert()];

    let out = audit(&old, &tls);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(v["keys"], 430);

    let migrate = |verb: &str| {
        let mut args = vec![
            "migrate",
            verb,
            "--servers",
            &old,
            "--to",
            &new,
            "--profile",
            "libmemcached-weighted",
        ];
        args.extend_from_slice(&tls);
        ketama(&args)
    };
    let before = migrate("verify");
    assert_eq!(before.status.code(), Some(1), "{}", stderr(&before));
    let run = migrate("run");
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let copied = items(&b.plain);
    assert!(copied > 100 && copied < 320, "{copied} of 430 keys moved");
    let mut big_moved = 0;
    for (k, v) in &big {
        if let Some((flags, got)) = get(&b.plain, k) {
            assert_eq!((flags, got.len()), (7, v.len()), "{k}");
            assert!(got == *v, "{k}: the copy differs");
            big_moved += 1;
        }
    }
    assert!(big_moved > 0, "no 100 KB value moved");
    let after = migrate("verify");
    assert_eq!(after.status.code(), Some(0), "{}", stderr(&after));
}

#[test]
fn a_tls_server_without_tls_and_a_plain_server_with_it_say_so() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("mixed");
    let (ca, server) = pki(&d);
    let a = TlsMemcached::start(&mc, &server, None);
    let out = audit(&servers_file(&d, "tls", &[&a.label]), &[]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(e.contains(&a.label) && e.contains("add --tls"), "{e}");

    // The plain port of the same server, given --tls.
    let out = audit(
        &servers_file(&d, "plain", &[&a.plain]),
        &["--tls", "--tls-ca", ca.cert(), "--timeout", "2"],
    );
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains(&format!("the TLS handshake with {}", a.plain)),
        "{e}"
    );
    assert!(
        e.contains("drop --tls") || e.contains("was --tls meant"),
        "{e}"
    );
}

#[test]
fn an_untrusted_ca_or_a_wrong_name_is_refused_and_tls_name_or_insecure_pass() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("names");
    let ca1 = ca(&d, "ca");
    let other = ca(&d, "other-ca");
    let named = leaf(
        &d,
        "named",
        &ca1,
        "DNS:cache-1.example.internal",
        "serverAuth",
    );
    let s = TlsMemcached::start(&mc, &named, None);
    store(&s.plain, &keys("k", 10));
    let servers = servers_file(&d, "servers", &[&s.label]);

    let out = audit(&servers, &["--tls", "--tls-ca", other.cert()]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "the TLS handshake with {} failed: certificate not trusted",
            s.label
        )),
        "{e}"
    );

    let out = audit(&servers, &["--tls", "--tls-ca", ca1.cert()]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "the TLS handshake with {} failed: the server's certificate is not valid for the name '127.0.0.1'",
            s.label
        )),
        "{e}"
    );
    assert!(e.contains("--tls-name"), "{e}");

    let out = audit(
        &servers,
        &[
            "--tls",
            "--tls-ca",
            ca1.cert(),
            "--tls-name",
            "cache-2.example.internal",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "another name fails too");
    let out = audit(
        &servers,
        &[
            "--tls",
            "--tls-ca",
            ca1.cert(),
            "--tls-name",
            "cache-1.example.internal",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["keys"], 10);
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));

    let out = audit(&servers, &["--tls", "--tls-insecure"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["keys"], 10);
    assert!(
        stderr(&out)
            .contains("warning: --tls-insecure: the servers' certificates are not verified"),
        "{}",
        stderr(&out)
    );

    let out = audit(&servers, &["--tls-insecure"]);
    assert_eq!(out.status.code(), Some(2), "--tls-insecure needs --tls");
}

#[test]
fn a_client_certificate_the_server_requires() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("client");
    let (ca1, server) = pki(&d);
    let other = ca(&d, "other-ca");
    let client = leaf(&d, "client", &ca1, "DNS:ketama-client", "clientAuth");
    let stranger = leaf(&d, "stranger", &other, "DNS:ketama-client", "clientAuth");
    let s = TlsMemcached::start(&mc, &server, Some(&ca1));
    store(&s.plain, &keys("c", 20));
    let servers = servers_file(&d, "servers", &[&s.label]);

    let out = audit(&servers, &["--tls", "--tls-ca", ca1.cert()]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(e.contains(&s.label), "{e}");
    assert!(
        e.contains("requires a client certificate: give one with --tls-cert and --tls-key"),
        "{e}"
    );

    let with = |p: &Pem| {
        audit(
            &servers,
            &[
                "--tls",
                "--tls-ca",
                ca1.cert(),
                "--tls-cert",
                p.cert(),
                "--tls-key",
                p.key(),
            ],
        )
    };
    let out = with(&client);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["keys"], 20);

    let out = with(&stranger);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains(&s.label) && e.contains("refused our client certificate"),
        "{e}"
    );

    // A key that is not the certificate's.
    let mixed = Pem {
        cert: client.cert.clone(),
        key: stranger.key.clone(),
    };
    let out = with(&mixed);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("does not go with the certificate"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_stalled_handshake_hits_the_deadline_and_ctrl_c_stops_it() {
    let (addr, _h) = silent();
    let d = tmpdir("stall");
    let servers = servers_file(&d, "servers", &[&addr]);
    let t = Instant::now();
    let out = audit(&servers, &["--tls", "--tls-insecure", "--timeout", "1"]);
    assert!(
        t.elapsed() < Duration::from_millis(2500),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "timed out after 1 s in the TLS handshake with {addr}"
        )),
        "{}",
        stderr(&out)
    );

    let audit = [
        "audit",
        "-s",
        &servers,
        "-p",
        "twemproxy",
        "--tls",
        "--tls-insecure",
    ];
    let (out, stopped) = common::interrupted(&audit, Duration::from_millis(500));
    ketama_testkit::signal::assert_stopped_in_time(stopped);
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
}

#[test]
fn bad_ca_files_are_named() {
    let d = tmpdir("files");
    let servers = servers_file(&d, "servers", &[&format!("127.0.0.1:{}", free_port())]);
    let missing = d.join("missing.pem");
    let out = audit(&servers, &["--tls", "--tls-ca", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "cannot read the CA file {}: no such file or directory",
            missing.display()
        )),
        "{}",
        stderr(&out)
    );
    let text = d.join("ca.txt");
    std::fs::write(&text, "hello\n").unwrap();
    let out = audit(&servers, &["--tls", "--tls-ca", text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds no PEM certificate"),
        "{}",
        stderr(&out)
    );
    // The flags show in the help of each command that talks to servers.
    for cmd in [
        &["audit"][..],
        &["migrate", "run"],
        &["migrate", "plan"],
        &["migrate", "verify"],
    ] {
        let mut a = cmd.to_vec();
        a.push("--help");
        let help = stdout_of(&a, ketama(&a));
        for flag in [
            "--tls-ca",
            "--tls-name",
            "--tls-cert",
            "--tls-key",
            "--tls-insecure",
        ] {
            assert!(help.contains(flag), "{cmd:?} --help lacks {flag}");
        }
        let tls_section = &help[help.find("TLS:").unwrap()..];
        assert!(
            !tls_section.contains("--timeout") && !tls_section.contains("--state"),
            "{cmd:?}: only the TLS flags are under TLS:\n{help}"
        );
    }
}
