//! `ketama migrate` at fleet scale on real servers (127.0.0.1): `--min-ttl` (keys expiring
//! sooner neither planned nor copied), the hot keys `plan` counts (memcached's `fetch`/`la`,
//! Redis's `OBJECT IDLETIME`), `run --hot-first` with the byte limits (the bytes read are
//! exactly the values' bytes), and `--shard I/N` run by GNU parallel in 3 processes whose
//! reports `migrate report` sums to the report of one unsharded run of the same fleet.
//!
//! Needs Debian's memcached, redis-server and parallel (installed when missing through
//! tests/lib/need.sh); without one a test says so and passes, unless KETAMA_REQUIRE_MEMCACHED=1
//! / KETAMA_REQUIRE_REDIS=1 (as tests/run-all.sh sets).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::memcached::{memcached, tmpdir, Fleet};
use common::migrate::{fetch, ketama, ok, owner, ring, servers_file, store, MC_ARGS};
use ketama_testkit::redis::{labels, redis_server, Redis};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

fn value(i: usize) -> Vec<u8> {
    vec![b'a' + (i % 26) as u8; 100 + i % 900]
}

/// 3 -> 4 servers, libketama; keys `key:I`, every fourth with a 20 s TTL (the rest none),
/// every fifth read once (hot). The moving keys by index.
struct Keys {
    moving: Vec<usize>,
}

impl Keys {
    fn short(&self) -> Vec<usize> {
        self.moving.iter().copied().filter(|i| i % 4 == 0).collect()
    }
    fn copied(&self) -> Vec<usize> {
        self.moving.iter().copied().filter(|i| i % 4 != 0).collect()
    }
    fn hot(&self) -> Vec<usize> {
        self.copied().into_iter().filter(|i| i % 5 == 0).collect()
    }
}

fn counts(v: &Value, name: &str) -> u64 {
    v["counts"][name]
        .as_u64()
        .unwrap_or_else(|| panic!("{name}: {v}"))
}

#[test]
fn min_ttl_hot_keys_and_byte_limits_on_memcached() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("scale", "memcached");
    let fleet = Fleet::start(&mc, 4, MC_ARGS);
    let w = [1u32; 4];
    let old = servers_file(&dir, "old", &fleet.labels[..3], &w[..3]);
    let new = servers_file(&dir, "new", &fleet.labels, &w);
    let (old_ring, new_ring) = (
        ring("libketama", &fleet.labels[..3], &w[..3]),
        ring("libketama", &fleet.labels, &w),
    );
    let n = 2000;
    let mut moving = Vec::new();
    for i in 0..n {
        let k = format!("key:{i}").into_bytes();
        let at = owner(&old_ring, &k);
        store(at, &k, &value(i), 0, if i % 4 == 0 { 20 } else { 0 });
        if i % 5 == 0 {
            assert!(fetch(at, &k).is_some());
        }
        if at != owner(&new_ring, &k) {
            moving.push(i);
        }
    }
    let keys = Keys { moving };
    let args = |verb: &'static str, extra: &[&'static str]| {
        let mut v: Vec<String> = ["migrate", verb, "--servers", &old, "--to", &new]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(
            [
                "--profile",
                "libketama",
                "--format",
                "json",
                "--min-ttl",
                "60",
            ]
            .map(String::from),
        );
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        ok(&ketama(&a))
    };
    let plan = run(args("plan", &[]));
    assert_eq!(
        plan["short_ttl"]["keys"],
        keys.short().len() as u64,
        "{plan}"
    );
    assert_eq!(plan["move"]["keys"], keys.copied().len() as u64);
    assert_eq!(plan["hot"]["keys"], keys.hot().len() as u64, "{plan}");
    assert_eq!(plan["servers"][0]["heat"], "metadump la and fetch");
    let bytes: u64 = keys.copied().iter().map(|&i| value(i).len() as u64).sum();
    let r = run(args(
        "run",
        &[
            "--hot-first",
            "--max-bytes-per-s",
            "200M",
            "--max-bytes-per-s-per-server",
            "100M",
        ],
    ));
    assert_eq!(counts(&r, "short_ttl"), keys.short().len() as u64, "{r}");
    assert_eq!(counts(&r, "copied"), keys.copied().len() as u64);
    assert_eq!(counts(&r, "hot"), keys.hot().len() as u64);
    assert_eq!(r["bytes_read"], bytes, "the values' bytes, exactly");
    assert_eq!(r["max_bytes_per_s"], 200_000_000u64);
    for i in keys.moving.iter().copied().take(200) {
        let k = format!("key:{i}").into_bytes();
        let there = fetch(owner(&new_ring, &k), &k);
        assert_eq!(there.is_some(), i % 4 != 0, "key:{i}");
    }
    let out = ketama(&[
        "migrate",
        "run",
        "--servers",
        &old,
        "--to",
        &new,
        "-p",
        "libketama",
        "--max-bytes-per-s",
        "10MB",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a byte rate"));
}

#[test]
fn hot_keys_of_redis_by_idle_time() {
    let Some(bin) = redis_server() else { return };
    let dir = tmpdir("scale", "redis");
    let procs: Vec<Redis> = (0..4).map(|_| Redis::start(&bin, &[])).collect();
    let all = labels(&procs);
    let w = [1u32; 4];
    let old = servers_file(&dir, "old", &all[..3], &w[..3]);
    let new = servers_file(&dir, "new", &all, &w);
    let (old_ring, new_ring) = (ring("predis", &all[..3], &w[..3]), ring("predis", &all, &w));
    let mut moving = Vec::new();
    let mut conns: Vec<redis::Connection> = procs.iter().map(Redis::client).collect();
    for i in 0..1500 {
        let k = format!("key:{i}");
        let at = owner(&old_ring, k.as_bytes());
        let c = &mut conns[all.iter().position(|l| l == at).unwrap()];
        let mut cmd = redis::cmd("SET");
        cmd.arg(&k).arg(value(i));
        if i % 4 == 0 {
            cmd.arg("EX").arg(20);
        }
        let _: () = cmd.query(c).unwrap();
        if at != owner(&new_ring, k.as_bytes()) {
            moving.push(i);
        }
    }
    let keys = Keys { moving };
    // Redis's LRU clock ticks in seconds: keys untouched for 4 s are idle 3 s or more.
    std::thread::sleep(Duration::from_millis(4000));
    for i in keys.hot() {
        let k = format!("key:{i}");
        let at = owner(&old_ring, k.as_bytes());
        let c = &mut conns[all.iter().position(|l| l == at).unwrap()];
        let _: Vec<u8> = redis::cmd("GET").arg(&k).query(c).unwrap();
    }
    let base = [
        "migrate",
        "plan",
        "--backend",
        "redis",
        "--servers",
        &old,
        "--to",
        &new,
        "-p",
        "predis",
        "--format",
        "json",
        "--min-ttl",
        "60",
        "--hot-window",
        "2",
    ];
    let plan = ok(&ketama(&base));
    assert_eq!(
        plan["short_ttl"]["keys"],
        keys.short().len() as u64,
        "{plan}"
    );
    assert_eq!(plan["hot"]["keys"], keys.hot().len() as u64, "{plan}");
    let heat = plan["servers"][0]["heat"].as_str().unwrap();
    assert_eq!(heat, "OBJECT IDLETIME (maxmemory-policy noeviction)");
    let mut run = base.to_vec();
    run[1] = "run";
    run.extend(["--hot-first", "--max-bytes-per-s-per-server", "50M"]);
    let r = ok(&ketama(&run));
    assert_eq!(counts(&r, "copied"), keys.copied().len() as u64, "{r}");
    assert_eq!(counts(&r, "short_ttl"), keys.short().len() as u64);
    assert!(r["bytes_read"].as_u64().unwrap() > 0);
}

/// Servers files naming each server (`twemproxy` places by name), so two fleets on other
/// ports place every key alike.
fn named_files(dir: &Path, tag: &str, labels: &[String]) -> (String, String) {
    let write = |name: &str, n: usize| {
        let p = dir.join(format!("{tag}-{name}"));
        let text: String = labels[..n]
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{l} 1 s{i}\n"))
            .collect();
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    (write("old", 4), write("new", 5))
}

/// 4 -> 5 servers of one fleet, the same keys written where twemproxy puts them.
fn twin(mc: &str, dir: &Path, tag: &str) -> (Fleet, String, String) {
    let fleet = Fleet::start(mc, 5, MC_ARGS);
    let (old, new) = named_files(dir, tag, &fleet.labels);
    let names: Vec<String> = (0..4).map(|i| format!("s{i}")).collect();
    let r = ring("twemproxy", &names, &[1; 4]);
    for i in 0..3000 {
        let k = format!("key:{i}").into_bytes();
        let s: usize = owner(&r, &k)[1..].parse().unwrap();
        store(&fleet.labels[s], &k, &value(i), 0, 0);
    }
    (fleet, old, new)
}

fn parallel() -> Option<()> {
    ketama_testkit::packages::need("parallel", "parallel");
    let have = Command::new("parallel").arg("--version").output();
    if have.is_ok_and(|o| o.status.success()) {
        return Some(());
    }
    if std::env::var("KETAMA_REQUIRE_MEMCACHED").as_deref() == Ok("1") {
        panic!("GNU parallel is required but cannot be installed");
    }
    eprintln!("GNU parallel not installed and not installable: test skipped");
    None
}

#[test]
fn three_shards_run_by_gnu_parallel_sum_to_one_unsharded_run() {
    let Some(mc) = memcached() else { return };
    let Some(()) = parallel() else { return };
    let dir = tmpdir("scale", "shards");
    let (_a, old_a, new_a) = twin(&mc, &dir, "a");
    let (_b, old_b, new_b) = twin(&mc, &dir, "b");
    let whole = ok(&ketama(&[
        "migrate",
        "run",
        "--servers",
        &old_b,
        "--to",
        &new_b,
        "-p",
        "twemproxy",
        "--format",
        "json",
    ]));
    assert!(counts(&whole, "copied") > 300, "{whole}");
    let out = dir.join("shard-{}.json");
    let st = Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "3"])
        .arg(format!(
            "{BIN} migrate run --servers {old_a} --to {new_a} -p twemproxy --format json \
             --shard {{}}/3 --max-bytes-per-s-per-server 1G > {}",
            out.display()
        ))
        .args([":::", "0", "1", "2"])
        .status()
        .unwrap();
    assert!(st.success());
    let files: Vec<String> = (0..3)
        .map(|i| {
            dir.join(format!("shard-{i}.json"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut a = vec!["migrate", "report", "--format", "json"];
    a.extend(files.iter().map(String::as_str));
    let merged = ok(&ketama(&a));
    assert_eq!(merged["shards"], 3);
    assert_eq!(merged["missing_shards"], Value::Array(Vec::new()));
    let (m, w): (BTreeMap<String, Value>, BTreeMap<String, Value>) = (
        serde_json::from_value(merged["counts"].clone()).unwrap(),
        serde_json::from_value(whole["counts"].clone()).unwrap(),
    );
    assert_eq!(m, w, "the shards' sum is the unsharded run");
    assert_eq!(merged["bytes_read"], whole["bytes_read"]);
    // The shards ran under a byte limit: the longest wait is reported (the whole run had none).
    assert!(merged["seconds_waiting_byte_limit"].is_f64(), "{merged}");
    assert!(whole["seconds_waiting_byte_limit"].is_null());
    // The table says so; a missing shard is named and the report is incomplete (exit 3).
    let mut t = vec!["migrate", "report"];
    t.extend(files.iter().map(String::as_str));
    let text = String::from_utf8(ketama(&t).stdout).unwrap();
    assert!(text.contains("every shard"), "{text}");
    let out = ketama(&["migrate", "report", &files[0], &files[2]]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no report of shard 1/3"));
    // Reports of another run, or one shard twice, are refused.
    let whole_file = dir.join("whole.json");
    std::fs::write(&whole_file, whole.to_string()).unwrap();
    let out = ketama(&["migrate", "report", &files[0], whole_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not shards of one run"));
    let out = ketama(&["migrate", "report", &files[0], &files[0]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("given twice"));
}
