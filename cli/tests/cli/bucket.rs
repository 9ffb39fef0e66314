//! `ketama bucket` through the real binary: every vector file in `tests/vectors/buckets/`
//! (bucket counts with at least 10 cases, one process per count), argument and stdin input,
//! formats, and one-line exit-2 errors.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::common;

fn ketama(args: &[&str], stdin: Option<&str>) -> Output {
    common::ketama_stdin(args, stdin.map(str::as_bytes))
}

fn ok(args: &[&str], stdin: Option<&str>) -> String {
    common::stdout_of(args, ketama(args, stdin))
}

fn fails(args: &[&str], stdin: Option<&str>, needle: &str) {
    let out = ketama(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.starts_with("ketama: ") && err.contains(needle),
        "{args:?}: {err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn every_vector_file_through_the_binary() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/buckets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    for path in files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let algorithm = v["algorithm"].as_str().unwrap();
        let mut by_count: BTreeMap<u64, Vec<(String, u64)>> = BTreeMap::new();
        for c in v["cases"].as_array().unwrap() {
            by_count
                .entry(c[1].as_u64().unwrap())
                .or_default()
                .push((c[0].as_str().unwrap().to_string(), c[2].as_u64().unwrap()));
        }
        let mut checked = 0;
        for (n, cases) in by_count.into_iter().filter(|(_, c)| c.len() >= 10) {
            let stdin: String = cases.iter().map(|(i, _)| format!("{i}\n")).collect();
            let out = ok(
                &[
                    "bucket",
                    "--algorithm",
                    algorithm,
                    "--buckets",
                    &n.to_string(),
                ],
                Some(&stdin),
            );
            let got: Vec<u64> = out.lines().map(|l| l.parse().unwrap()).collect();
            let want: Vec<u64> = cases.iter().map(|c| c.1).collect();
            assert_eq!(got, want, "{}: {n} buckets", path.display());
            checked += cases.len();
        }
        assert!(checked >= 500, "{}: only {checked} cases", path.display());
    }
}

#[test]
fn arguments_formats_and_guava_example() {
    let args = [
        "bucket",
        "-a",
        "guava",
        "-n",
        "807",
        "2687259751451158933",
        "0",
    ];
    assert_eq!(ok(&args, None), "195\n0\n");
    let args = ["bucket", "-a", "jump", "-n", "807", "2687259751451158933"];
    assert_eq!(ok(&args, None), "576\n");
    let j: Value = serde_json::from_str(&ok(
        &[
            "-f",
            "json",
            "bucket",
            "-a",
            "fliphash",
            "-n",
            "1",
            "18446744073709551615",
        ],
        None,
    ))
    .unwrap();
    assert_eq!(j["algorithm"], "fliphash");
    assert_eq!(j["results"][0]["input"], "18446744073709551615");
    assert_eq!(j["results"][0]["bucket"], 0);
    let csv = ok(
        &["-f", "csv", "bucket", "-a", "jumpback", "-n", "1", "5"],
        None,
    );
    assert_eq!(csv, "input,bucket\n5,0\n");
    // Blank lines and CRLF on stdin are fine.
    assert_eq!(
        ok(&["bucket", "-a", "jump", "-n", "1"], Some("1\r\n\n2\n")),
        "0\n0\n"
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    fails(
        &["bucket", "-a", "nope", "-n", "3", "1"],
        None,
        "unknown bucket algorithm 'nope'",
    );
    fails(
        &["bucket", "-a", "jump", "-n", "0", "1"],
        None,
        "takes 1 to 2147483647",
    );
    fails(
        &["bucket", "-a", "jump", "-n", "2147483648", "1"],
        None,
        "takes 1 to",
    );
    fails(
        &["bucket", "-a", "maglev-go", "-n", "65538", "1"],
        None,
        "takes 1 to 65537",
    );
    fails(
        &["bucket", "-a", "mpchash-go", "-n", "65537", "1"],
        None,
        "takes 1 to 65536",
    );
    fails(
        &["bucket", "-a", "jump", "-n", "x", "1"],
        None,
        "bad --buckets 'x'",
    );
    fails(&["bucket", "-a", "jump", "-n", "3", "-1"], None, "");
    fails(
        &["bucket", "-a", "jump", "-n", "3", "1x"],
        None,
        "bad input '1x'",
    );
    fails(
        &["bucket", "-a", "jump", "-n", "3", "18446744073709551616"],
        None,
        "above",
    );
    fails(
        &["bucket", "-a", "jump", "-n", "3"],
        Some("1\nabc\n"),
        "stdin line 2",
    );
    fails(
        &["bucket", "-a", "jump", "-n", "3"],
        Some("+1\n"),
        "bad input '+1'",
    );
}
