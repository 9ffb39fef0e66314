//! TLS per fleet in `ketama migrate`, on real memcached processes (`memcached -Z` on one
//! side): a plain fleet moves to a TLS fleet (`--to-tls --to-tls-ca`, the way to turn on
//! in-transit encryption on ElastiCache), and a TLS fleet to a plain one (`--tls --to-plain`).
//!
//! Needs Debian's `memcached` (built with TLS) and the `openssl` command, as tls.rs.

use crate::common;

use std::process::Output;

use common::ketama_stdin;
use ketama_testkit::memcached::{json, memcached, tmpdir, Fleet};
use ketama_testkit::tls::{ca, get, leaf, TlsMemcached};

fn file(dir: &std::path::Path, name: &str, labels: &[&str]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, labels.join("\n") + "\n").unwrap();
    p.to_string_lossy().into_owned()
}

fn migrate(verb: &str, old: &str, new: &str, extra: &[&str]) -> Output {
    let mut a = vec![
        "migrate",
        verb,
        "--servers",
        old,
        "--to",
        new,
        "--profile",
        "libmemcached-weighted",
        "--format",
        "json",
    ];
    a.extend_from_slice(extra);
    ketama_stdin(&a, None)
}

fn err(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_plain_fleet_moves_to_a_tls_fleet_and_a_tls_fleet_to_a_plain_one() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("tls-side", "both");
    let ca = ca(&d, "ca");
    let cert = leaf(
        &d,
        "server",
        &ca,
        "IP:127.0.0.1,DNS:localhost",
        "serverAuth",
    );
    let plain = Fleet::start(&mc, 2, &["-m", "16"]);
    let (t1, t2) = (
        TlsMemcached::start(&mc, &cert, None),
        TlsMemcached::start(&mc, &cert, None),
    );
    let keys: Vec<String> = (0..300).map(|i| format!("user:{i}")).collect();
    for k in &keys {
        ketama_testkit::memcached::set(&plain.labels[0], k);
    }
    let old = file(&d, "old", &[&plain.labels[0]]);
    let tls_fleet = file(&d, "tls", &[&t1.label, &t2.label]);
    let to_tls = ["--to-tls", "--to-tls-ca", ca.cert()];

    // Without TLS on NEW, the TLS servers are refused before anything is copied.
    let refused = migrate("run", &old, &tls_fleet, &[]);
    assert_eq!(refused.status.code(), Some(3), "{}", err(&refused));
    assert!(err(&refused).contains("add --tls"), "{}", err(&refused));

    let run = migrate("run", &old, &tls_fleet, &to_tls);
    assert_eq!(run.status.code(), Some(0), "{}", err(&run));
    assert_eq!(json(&run)["counts"]["copied"], 300);
    let verify = migrate("verify", &old, &tls_fleet, &to_tls);
    assert_eq!(verify.status.code(), Some(0), "{}", err(&verify));
    let on_tls = keys
        .iter()
        .filter(|k| get(&t1.plain, k).or_else(|| get(&t2.plain, k)).is_some())
        .count();
    assert_eq!(on_tls, 300);

    // And back: the TLS fleet to a plain one.
    let back = file(&d, "back", &[&plain.labels[1]]);
    let tls = ["--tls", "--tls-ca", ca.cert(), "--to-plain"];
    let run = migrate("run", &tls_fleet, &back, &tls);
    assert_eq!(run.status.code(), Some(0), "{}", err(&run));
    assert_eq!(json(&run)["counts"]["copied"], 300);
    for k in &keys {
        assert!(
            common::migrate::fetch(&plain.labels[1], k.as_bytes()).is_some(),
            "{k}"
        );
    }
}
