//! Every bucket vector file in `tests/vectors/buckets/` (recorded from the real Guava, hash4j,
//! go-jump, go-maglev, go-mpchash and fliphash) must match 100%, through both [`bucket`] and a
//! [`Bucketer`] built once per bucket count.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ketama_core::alt::bucket::{bucket, Bucket, Bucketer};
use serde_json::Value;

fn bucket_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/buckets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/vectors/buckets exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// `(input, buckets, expect)` of every case; the input is a decimal string.
fn cases(v: &Value) -> Vec<(u64, u32, u32)> {
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let input = c[0]
                .as_str()
                .expect("input is a string")
                .parse()
                .expect("u64");
            let n = u32::try_from(c[1].as_u64().expect("buckets")).expect("u32");
            let expect = u32::try_from(c[2].as_u64().expect("expect")).expect("u32");
            (input, n, expect)
        })
        .collect()
}

#[test]
fn every_bucket_vector_matches() {
    let files = bucket_files();
    let mut seen = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let v: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(v["kind"], "bucket", "{}", path.display());
        assert!(v["source"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(v["generator"]
            .as_str()
            .is_some_and(|s| s.starts_with("tests/oracles/")));
        let algorithm = Bucket::from_name(v["algorithm"].as_str().expect("algorithm"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        seen.push(algorithm);
        let cases = cases(&v);
        assert!(
            cases.len() >= 1000,
            "{}: only {} cases",
            path.display(),
            cases.len()
        );
        let mut by_count: BTreeMap<u32, Vec<(u64, u32)>> = BTreeMap::new();
        let mut failures = Vec::new();
        for &(input, n, expect) in &cases {
            by_count.entry(n).or_default().push((input, expect));
            // The per-call entry rebuilds the Go tables: check it on a sample only.
            let cheap = !matches!(algorithm, Bucket::MaglevGo | Bucket::MpcHashGo);
            if cheap || input % 16 == 0 {
                let got = bucket(algorithm, input, n);
                if got != Ok(expect) {
                    failures.push(format!("bucket({input}, {n}) = {got:?}, want {expect}"));
                }
            }
        }
        for (n, pairs) in by_count {
            let table = Bucketer::new(algorithm, n).expect("within limits");
            for (input, expect) in pairs {
                let got = table.get(input);
                if got != Ok(expect) {
                    failures.push(format!(
                        "Bucketer({n}).get({input}) = {got:?}, want {expect}"
                    ));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{}: {} failures of {}, first: {:?}",
            path.display(),
            failures.len(),
            cases.len(),
            &failures[..failures.len().min(5)]
        );
    }
    for b in Bucket::ALL {
        assert!(seen.contains(&b), "no vector file for {b}");
    }
}

#[test]
fn edge_inputs_and_counts_are_covered() {
    for path in bucket_files() {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let algorithm = Bucket::from_name(v["algorithm"].as_str().unwrap()).unwrap();
        let cases = cases(&v);
        for input in [0, 1 << 63, u64::MAX] {
            assert!(
                cases.iter().any(|c| c.0 == input),
                "{}: {input}",
                path.display()
            );
        }
        for n in [1, algorithm.max_buckets()] {
            assert!(
                cases.iter().any(|c| c.1 == n),
                "{}: {n} buckets",
                path.display()
            );
        }
    }
}
