//! `simulate --live --tls`: the live experiment (and its migration step) on memcached
//! processes started with `-Z` and a certificate the tool makes for the run; the same hit
//! rates and item counts as without TLS, no trace of the certificates afterwards, and a
//! memcached built without TLS named in a clear error.
//!
//! Needs Debian's `memcached` (built with TLS; tests/setup.sh installs it).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::memcached::{memcached, tmpdir};
use serde_json::Value;

/// `ketama args` with TMPDIR set to `tmp`, so the run's private directory lands there.
fn ketama_in(tmp: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ketama"))
        .args(args)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What the run left in `tmp`, besides the files the test put there.
fn leftovers(tmp: &Path, ours: &[&str]) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !ours.contains(&n.as_str()))
        .collect()
}

/// A `--memcached` wrapper that logs its arguments (one run per line) and runs `memcached`.
fn logging_wrapper(d: &Path, memcached: &str) -> (PathBuf, PathBuf) {
    let log = d.join("args.log");
    let script = d.join("memcached-logging");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{memcached}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    chmod_x(&script);
    (script, log)
}

fn chmod_x(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
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
    let d = tmpdir("tls-simulate", "same");
    let (wrapper, log) = logging_wrapper(&d, &mc);
    let w = wrapper.to_str().unwrap();
    let base = [
        "simulate",
        "--live",
        "--migrate",
        "--memcached",
        w,
        "--key-count",
        "3000",
        "--hash",
        "KETAMA_HASH,CRC32_HASH",
        "--format",
        "json",
    ];
    let plain = json(&ketama_in(&d, &base));
    let _ = std::fs::remove_file(&log);
    let mut with_tls = base.to_vec();
    with_tls.push("--tls");
    let tls = json(&ketama_in(&d, &with_tls));

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
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn memcached_without_tls_support_is_named() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("tls-simulate", "notls");
    // What a memcached built without TLS does: getopt rejects -Z and the process exits.
    let fake = d.join("memcached-notls");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = -Z ]; then\n    echo \"$0: invalid option -- 'Z'\" >&2\n    echo 'Illegal argument \"?\"' >&2\n    exit 64\n  fi\ndone\nexec '{mc}' \"$@\"\n"
        ),
    )
    .unwrap();
    chmod_x(&fake);
    let f = fake.to_str().unwrap();
    let args = ["simulate", "--live", "--memcached", f, "--key-count", "100"];
    // Without --tls the same binary runs the experiment.
    let out = ketama_in(&d, &args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mut with_tls = args.to_vec();
    with_tls.push("--tls");
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
    let d = tmpdir("tls-simulate", "usage");
    let out = ketama_in(&d, &["simulate", "--tls"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let _ = std::fs::remove_dir_all(&d);
}
