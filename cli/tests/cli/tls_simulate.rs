//! `simulate --live --tls`: the live experiment (and its migration step) on memcached
//! processes started with `-Z` and a certificate the tool makes for the run; the same hit
//! rates and item counts as without TLS, no trace of the certificates afterwards, and a
//! memcached built without TLS named in a clear error.
//!
//! Needs Debian's `memcached` (built with TLS), installed when missing as for the other TLS
//! tests.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::ketama_in;
use common::memcached::{json, wrapper};
use ketama_testkit::memcached::memcached;
use serde_json::Value;

/// A fresh temporary folder for test `name`.
fn tmpdir(name: &str) -> std::path::PathBuf {
    ketama_testkit::memcached::tmpdir("tls", name)
}

/// The JSON of a run that must have succeeded.
fn success(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(out)
}

/// What the run left in `tmp`, besides the files the test put there.
fn leftovers(tmp: &Path, ours: &[&str]) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !ours.contains(&n.as_str()))
        .collect()
}

/// The live figures of each hash: (hash, live hit rate, migrated hit rate, items per node).
fn live_figures(v: &Value) -> Vec<(Value, Value, Value, Value)> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["hash"].clone(),
                r["live_hit_rate"].clone(),
                r["live_hit_rate_migrated"].clone(),
                r["live_items_before"].clone(),
            )
        })
        .collect()
}

#[test]
fn live_tls_gives_the_plain_figures_and_leaves_no_certificates() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("simulate-same");
    // Logs the arguments of each process it starts, one line each.
    let log = d.join("args.log");
    let logging = format!("echo \"$*\" >> '{}'", log.display());
    let script = wrapper(&d, "memcached-logging", &mc, &logging);
    let base = [
        "simulate",
        "--live",
        "--migrate",
        "--memcached",
        script.to_str().unwrap(),
        "--key-count",
        "3000",
        "--hash",
        "KETAMA_HASH,CRC32_HASH",
        "--format",
        "json",
    ];
    let plain = success(&ketama_in(&d, &base));
    std::fs::remove_file(&log).unwrap();
    let with_tls = [&base[..], &["--tls"]].concat();
    let tls = success(&ketama_in(&d, &with_tls));

    assert_eq!(plain["live"]["tls"], false);
    assert_eq!(tls["live"]["tls"], true);
    let (p, t) = (live_figures(&plain), live_figures(&tls));
    assert_eq!(p.len(), 2);
    assert_eq!(p, t, "live figures differ with --tls");
    for (hash, rate, migrated, _) in &t {
        assert!(rate.as_f64().unwrap() < 1.0, "{hash}: nothing moved");
        assert_eq!(migrated.as_f64(), Some(1.0), "{hash}: migration over TLS");
    }
    // Every process of the TLS run got -Z and this run's certificate and key, and the
    // private directory they lived in is gone.
    let runs = std::fs::read_to_string(&log).unwrap();
    assert_eq!(runs.lines().count(), 12, "{runs}");
    for line in runs.lines() {
        assert!(line.contains("-Z -o ssl_chain_cert="), "{line}");
        assert!(line.contains("ketama-live-tls-"), "{line}");
        assert!(line.contains(",ssl_key="), "{line}");
    }
    assert_eq!(
        leftovers(&d, &["memcached-logging", "args.log"]),
        Vec::<String>::new()
    );
    // The table names the TLS.
    let out = ketama_in(&d, &["simulate", "--live", "--tls", "--key-count", "100"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        table.contains("one per node, over TLS (a certificate made for this run, verified)"),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn memcached_without_tls_support_is_named() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("simulate-notls");
    // What a memcached built without TLS does: getopt rejects -Z and the process exits.
    let refuse_z = "for a in \"$@\"; do\n  if [ \"$a\" = -Z ]; then\n    echo \"$0: invalid option -- 'Z'\" >&2\n    echo 'Illegal argument \"?\"' >&2\n    exit 64\n  fi\ndone";
    let fake = wrapper(&d, "memcached-notls", &mc, refuse_z);
    let f = fake.to_str().unwrap();
    let args = ["simulate", "--live", "--memcached", f, "--key-count", "100"];
    // Without --tls the same binary runs the experiment.
    let out = ketama_in(&d, &args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let with_tls = [&args[..], &["--tls"]].concat();
    let out = ketama_in(&d, &with_tls);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("memcached ('{f}') refused -Z")),
        "{err}"
    );
    assert!(err.contains("built without TLS support"), "{err}");
    assert!(err.contains("invalid option"), "{err}");
    assert_eq!(leftovers(&d, &["memcached-notls"]), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tls_needs_live() {
    let d = tmpdir("simulate-usage");
    let out = ketama_in(&d, &["simulate", "--tls"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--live"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
