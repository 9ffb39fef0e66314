//! The hash functions of the later client families (whalin, folsom, memjs, mcrouter), checked
//! on every value their real clients recorded (`tests/oracles/{mcrouter,memjs,whalin,folsom}`):
//! - mcrouter CH3 / WeightedCh3: the server index IS `furc_hash` / `weighted_ch3`, so every
//!   `mcrouter-ch3-*` / `mcrouter-wch3-*` locate file is checked in full, plus
//!   `extra/mcrouter-raw-hashes.json` (MurmurHash64A, SpookyHash V2 32/64, furc for n up to 2^32-1);
//! - kind `hash` files `mcrouter-hash-spooky32.json`, `folsom-hash-murmur3_32.json`;
//! - memjs and whalin's bucket algorithms (native / old-compat / new-compat): the index is a
//!   Java-style hash reduced modulo the bucket list, so those files check the hashes exactly.
//!
//! Files are looked up in `tests/vectors/pending/` (where the oracles write them until the
//! profiles exist) and in `tests/vectors/` (where they go then).

use std::path::{Path, PathBuf};

use ketama_core::hash::furc::{furc_hash, murmur64a, weighted_ch3, FURC_MAX_POOL, FURC_SEED};
use ketama_core::hash::{spooky, whalin};
use ketama_core::Hash;
use serde_json::Value;

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// Every JSON file whose name starts with `prefix`, in tests/vectors/pending and tests/vectors.
fn files(prefix: &str) -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    for dir in [vectors_dir().join("pending"), vectors_dir()] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                name.starts_with(prefix) && name.ends_with(".json")
            })
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("readable vector file");
            let v: Value = serde_json::from_str(&text).expect("valid JSON");
            out.push((p, v));
        }
    }
    assert!(!out.is_empty(), "no vector file {prefix}*.json");
    out
}

fn keys(v: &Value) -> Vec<&str> {
    v["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .map(|k| k.as_str().expect("string key"))
        .collect()
}

fn labels(v: &Value) -> Vec<&str> {
    v["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| s["label"].as_str().expect("label"))
        .collect()
}

fn weights(v: &Value) -> Vec<u64> {
    v["servers"]
        .as_array()
        .expect("servers")
        .iter()
        .map(|s| s["weight"].as_u64().unwrap_or(1))
        .collect()
}

/// Checks a locate file whose answer is `pick(key) -> Option<server index>`.
fn check_locate(path: &Path, v: &Value, pick: impl Fn(&[u8]) -> Option<usize>) -> usize {
    let labels = labels(v);
    let expect = v["expect"].as_array().expect("expect");
    let keys = keys(v);
    assert_eq!(keys.len(), expect.len());
    let mut bad = Vec::new();
    for (k, e) in keys.iter().zip(expect) {
        let got = pick(k.as_bytes()).map(|i| labels[i]);
        if got != e.as_str() {
            bad.push(format!("{k:?}: got {got:?}, want {e}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{}: {} mismatches, e.g. {:?}",
        path.display(),
        bad.len(),
        &bad[..bad.len().min(3)]
    );
    keys.len()
}

#[test]
fn mcrouter_ch3_is_furc_hash() {
    let mut checked = 0;
    for (path, v) in files("mcrouter-ch3-") {
        let n = labels(&v).len();
        checked += check_locate(&path, &v, |k| {
            (n >= 1 && n <= FURC_MAX_POOL as usize).then(|| furc_hash(k, n as u32) as usize)
        });
    }
    assert!(checked > 5000);
}

#[test]
fn mcrouter_wch3_is_weighted_ch3() {
    let mut checked = 0;
    for (path, v) in files("mcrouter-wch3-") {
        let w = weights(&v);
        let max = w.iter().copied().max().unwrap_or(0) as f64;
        let scaled: Vec<f64> = w.iter().map(|&x| x as f64 / max).collect();
        checked += check_locate(&path, &v, |k| weighted_ch3(k, &scaled));
    }
    assert!(checked > 5000);
}

#[test]
fn mcrouter_raw_hashes() {
    let path = vectors_dir().join("extra/mcrouter-raw-hashes.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("raw file"))
        .expect("valid JSON");
    let columns: Vec<&str> = v["columns"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| c.as_str().expect("column"))
        .collect();
    // "furc_hash(key, len, N)" -> N
    let furc_n: Vec<u32> = columns[4..]
        .iter()
        .map(|c| {
            c.trim_start_matches("furc_hash(key, len, ")
                .trim_end_matches(')')
                .parse()
                .expect("n")
        })
        .collect();
    let keys = keys(&v);
    let rows = v["expect"].as_array().expect("expect");
    assert!(keys.len() > 300);
    for (k, row) in keys.iter().zip(rows) {
        let want: Vec<u64> = row
            .as_array()
            .expect("row")
            .iter()
            .map(|x| x.as_str().expect("decimal").parse().expect("u64"))
            .collect();
        let k = k.as_bytes();
        assert_eq!(murmur64a(k, FURC_SEED), want[0], "murmur64a {k:?}");
        assert_eq!(u64::from(spooky::hash32(k, 0)), want[1], "spooky32 {k:?}");
        assert_eq!(
            u64::from(spooky::hash32(k, 0xface_2014)),
            want[2],
            "spooky32 {k:?}"
        );
        assert_eq!(spooky::hash64(k, 0), want[3], "spooky64 {k:?}");
        for (n, w) in furc_n.iter().zip(&want[4..]) {
            assert_eq!(u64::from(furc_hash(k, *n)), *w, "furc {k:?} n={n}");
        }
    }
}

/// folsom refuses (AbstractRequest.encodeKey) empty keys, keys over 250 bytes and bytes 0..=32.
fn folsom_accepts(k: &[u8]) -> bool {
    !k.is_empty() && k.len() <= 250 && k.iter().all(|&b| b > 32)
}

#[test]
fn kind_hash_files() {
    for (prefix, accepts) in [
        ("mcrouter-hash-spooky32", None),
        (
            "folsom-hash-murmur3_32",
            Some(folsom_accepts as fn(&[u8]) -> bool),
        ),
    ] {
        for (path, v) in files(prefix) {
            let hash = Hash::from_name(v["hash"].as_str().expect("hash name")).expect("known hash");
            let keys = keys(&v);
            let expect = v["expect"].as_array().expect("expect");
            for (k, e) in keys.iter().zip(expect) {
                let k = k.as_bytes();
                let got = match accepts {
                    Some(ok) if !ok(k) => None,
                    _ => Some(u64::from(hash.hash(k))),
                };
                assert_eq!(got, e.as_u64(), "{}: {k:?}", path.display());
            }
        }
    }
}

#[test]
fn memjs_is_abs_hash_code_mod_n() {
    for (path, v) in files("memjs-") {
        let n = labels(&v).len() as u64;
        check_locate(&path, &v, |k| {
            if n == 1 {
                return Some(0);
            }
            let h = whalin::java_hash_code(k);
            whalin::bucket(i64::from(h), n).map(|b| b as usize)
        });
    }
}

#[test]
fn whalin_bucket_algorithms() {
    type BucketHash = fn(&[u8]) -> i64;
    let algs: [(&str, BucketHash); 3] = [
        ("whalin-native-", |k| i64::from(whalin::java_hash_code(k))),
        ("whalin-old-compat-", whalin::old_compat),
        ("whalin-new-compat-", |k| i64::from(Hash::Crc.hash(k))),
    ];
    for (prefix, h) in algs {
        for (path, v) in files(prefix) {
            // each server appears `weight` times in the bucket list, in order
            let buckets: Vec<usize> = weights(&v)
                .iter()
                .enumerate()
                .flat_map(|(i, &w)| std::iter::repeat_n(i, w as usize))
                .collect();
            check_locate(&path, &v, |k| {
                whalin::bucket(h(k), buckets.len() as u64).map(|b| buckets[b as usize])
            });
        }
    }
}
