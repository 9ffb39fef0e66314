//! `ketama conformance`: the reference driver (our core) agrees on every vector file, and
//! drivers that answer wrongly, partly wrongly or not at all are reported (exit status 1).

use crate::common;

use std::process::Output;

use common::ketama_stdin;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");
const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors");

fn kit(select: &[&str], driver: &[&str], json: bool) -> Output {
    let mut args = vec!["conformance", "--vectors", VECTORS];
    args.extend_from_slice(select);
    if json {
        args.extend_from_slice(&["--format", "json"]);
    }
    args.push("--");
    args.extend_from_slice(driver);
    ketama_stdin(&args, None)
}

fn report(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A shell driver: `script` runs under `sh -c`.
fn sh(script: &str) -> [&str; 3] {
    ["sh", "-c", script]
}

/// The files recorded with placement options (`tests/vectors/options`) go with `option` lines.
#[test]
fn the_reference_driver_agrees_on_the_option_files() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/options");
    let out = ketama_stdin(
        &[
            "conformance",
            "--vectors",
            dir,
            "--all",
            "--format",
            "json",
            "--",
            BIN,
            "conformance-driver",
        ],
        None,
    );
    let r = report(&out);
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert!(r["files_total"].as_u64().unwrap() >= 18, "{r}");
    assert_eq!(r["keys_agree"], r["keys_total"]);
    // a driver that ignores the options disagrees
    let script = format!("grep -v '^option ' | {BIN} conformance-driver");
    let out = ketama_stdin(
        &[
            "conformance",
            "--vectors",
            dir,
            "--all",
            "--format",
            "json",
            "--",
            "sh",
            "-c",
            &script,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_reference_driver_agrees_on_every_vector_file() {
    let out = kit(&["--all"], &[BIN, "conformance-driver"], true);
    let r = report(&out);
    assert_eq!(out.status.code(), Some(0), "{r}");
    assert_eq!(r["ok"], true);
    let files = r["files"].as_array().unwrap();
    // Every top-level vector file of the three kinds is fed.
    let on_disk = std::fs::read_dir(VECTORS)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(files.len(), on_disk);
    for k in ["locate", "hash", "failover"] {
        assert!(files.iter().any(|f| f["kind"] == k), "{k}");
    }
    assert_eq!(r["files_agree"], r["files_total"]);
    assert_eq!(r["keys_agree"], r["keys_total"]);
}

#[test]
fn a_driver_answering_null_disagrees() {
    // Reads each case and answers `null` for every key.
    let null = sh("n=0; while read w rest; do case $w in key) n=$((n+1));; \
                   end) while [ $n -gt 0 ]; do echo null; n=$((n-1)); done; echo end;; esac; done");
    let out = kit(&["--profile", "libketama"], &null, false);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0 of 4 files agree"), "{text}");
    assert!(text.contains("NOT conformant"), "{text}");
    assert!(text.contains("got 'null', want '"), "{text}");
}

#[test]
fn a_driver_with_one_wrong_rule_is_caught() {
    // The reference driver told that php-memcached's rings are libketama's: most keys still
    // agree, every file does not.
    let script = format!(
        "sed -u 's/^profile libmemcached-weighted$/profile libketama/' | {BIN} conformance-driver"
    );
    let out = kit(&["--profile", "libmemcached-weighted"], &sh(&script), true);
    assert_eq!(out.status.code(), Some(1));
    let r = report(&out);
    assert_eq!(r["ok"], false);
    let files = r["files"].as_array().unwrap();
    assert!(files.len() > 5);
    // Partly right: some keys agree somewhere, and some file disagrees.
    assert!(r["keys_agree"].as_u64().unwrap() > 0);
    assert!(r["keys_agree"].as_u64() < r["keys_total"].as_u64());
    assert!(files.iter().any(|f| f["agree"] != f["total"]));
}

#[test]
fn a_driver_that_stops_is_reported_without_hanging() {
    let out = kit(&["--profile", "libketama"], &sh("read line; exit 0"), true);
    assert_eq!(out.status.code(), Some(1));
    let r = report(&out);
    for f in r["files"].as_array().unwrap() {
        assert_eq!(f["agree"], 0);
        assert!(f["note"].as_str().unwrap().contains("ended"), "{f}");
    }
    // Broken protocol: too few answer lines.
    let out = kit(
        &["--profile", "libketama"],
        &sh("while read w rest; do [ \"$w\" = end ] && echo end; done"),
        true,
    );
    assert_eq!(out.status.code(), Some(1));
    let r = report(&out);
    let note = r["files"][0]["note"].as_str().unwrap();
    assert!(note.contains("answer lines for"), "{note}");
}

#[test]
fn a_silent_driver_is_stopped() {
    // Reads every case, answers nothing and stays alive: stopped after the idle limit.
    let mut args = vec![
        "conformance",
        "--vectors",
        VECTORS,
        "--profile",
        "libketama",
    ];
    args.extend_from_slice(&["--format", "json", "--", "sh", "-c"]);
    args.push("while read l; do :; done; exec sleep 30");
    let start = std::time::Instant::now();
    let out = std::process::Command::new(BIN)
        .args(&args)
        .env("KETAMA_CONFORMANCE_IDLE", "1")
        .output()
        .unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1));
    let r = report(&out);
    let note = r["files"][0]["note"].as_str().unwrap();
    assert!(note.contains("no answer for 1 s"), "{note}");
}

#[test]
fn error_lines_count_as_disagreement() {
    let err =
        sh("while read w rest; do [ \"$w\" = end ] && printf 'error BadLabel nope\\nend\\n'; done");
    let out = kit(&["--profile", "libketama"], &err, true);
    assert_eq!(out.status.code(), Some(1));
    let r = report(&out);
    assert_eq!(r["files"][0]["note"], "error BadLabel nope");
}

#[test]
fn hash_selects_files_within_a_profile() {
    let out = kit(
        &["--profile", "libmemcached", "--hash", "md5"],
        &[BIN, "conformance-driver"],
        true,
    );
    let r = report(&out);
    assert_eq!(out.status.code(), Some(0), "{r}");
    let names: Vec<&str> = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert!(!names.is_empty());
    assert!(names.iter().all(|n| n.contains("md5")), "{names:?}");
}

#[test]
fn bad_usage_exits_2() {
    let driver = [BIN, "conformance-driver"];
    for select in [
        &["--all", "--profile", "libketama"][..],
        &["--profile", "nope"],
        &["--hash", "md5", "--all"],
        &["--profile", "jump"], // no vector file
        &["--profile", "libmemcached", "--hash", "nope"],
    ] {
        let out = kit(select, &driver, false);
        assert_eq!(out.status.code(), Some(2), "{select:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = ketama_stdin(&["conformance", "--all"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = kit(&["--all"], &["/nonexistent/driver"], false);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
}
