//! What the `migrate` test files share: the keys and values of the tests, and the 10 -> 12
//! servers setup (keys are written and read with `ketama-testkit`'s own meta client).

use std::path::{Path, PathBuf};
use std::process::Output;

pub use ketama_testkit::meta::*;

use ketama_core::{Profile, Ring, Server};
use serde_json::Value;

use super::memcached::{json, tmpdir, Fleet};

/// The arguments of every memcached of these tests.
pub const MC_ARGS: &[&str] = &["-m", "64", "-t", "1"];

pub fn ring(profile: &str, labels: &[String], weights: &[u32]) -> Ring {
    let p = Profile::by_name(profile).unwrap();
    let servers: Vec<Server> = labels
        .iter()
        .zip(weights)
        .map(|(l, &w)| Server::parse(l, w).unwrap())
        .collect();
    Ring::with_servers(p, None, servers).unwrap()
}

pub fn servers_file(dir: &Path, name: &str, labels: &[String], weights: &[u32]) -> String {
    let p = dir.join(name);
    let text: String = labels
        .iter()
        .zip(weights)
        .map(|(l, w)| format!("{l} {w}\n"))
        .collect();
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

pub fn ketama(args: &[&str]) -> Output {
    super::ketama_stdin(args, None)
}

pub fn ok(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    json(out)
}

/// The keys of the tests: text, percent signs, binary bytes, a long one.
pub fn key(i: usize) -> Vec<u8> {
    match i % 5 {
        0 => format!("user:{i}").into_bytes(),
        1 => format!("a%20b%{i}").into_bytes(),
        2 => {
            let mut k = format!("bin{i}").into_bytes();
            k.extend_from_slice(&[0, b' ', 0xff, b'\n', 0x7f]);
            k
        }
        3 => format!("caf\u{e9}-{i}").into_bytes(),
        _ => format!("{}{i}", "k".repeat(230)).into_bytes(),
    }
}

pub fn value(i: usize, gen: u32) -> Vec<u8> {
    format!("value-{i}-{gen}-{}", "x".repeat(i % 300)).into_bytes()
}

pub struct Setup {
    pub _dir: PathBuf,
    pub fleet: Fleet,
    pub old: String,
    pub new: String,
    pub old_ring: Ring,
    pub new_ring: Ring,
    pub new_labels: Vec<String>,
}

/// 10 OLD servers (weights 1..=3), NEW = the 10 plus 2 (weight 2), libmemcached-weighted.
pub fn setup(mc: &str, name: &str) -> Setup {
    let dir = tmpdir("migrate", name);
    let fleet = Fleet::start(mc, 12, MC_ARGS);
    let weights: Vec<u32> = (0..12).map(|i| 1 + (i % 3) as u32).collect();
    let old_labels = fleet.labels[..10].to_vec();
    let new_labels = fleet.labels.clone();
    let old = servers_file(&dir, "old", &old_labels, &weights[..10]);
    let new = servers_file(&dir, "new", &new_labels, &weights);
    Setup {
        old_ring: ring("libmemcached-weighted", &old_labels, &weights[..10]),
        new_ring: ring("libmemcached-weighted", &new_labels, &weights),
        _dir: dir,
        fleet,
        old,
        new,
        new_labels,
    }
}

pub fn owner<'a>(r: &'a Ring, k: &[u8]) -> &'a str {
    &r.locate(k).unwrap().label
}

pub fn args<'a>(s: &'a Setup, verb: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "migrate",
        verb,
        "--servers",
        &s.old,
        "--to",
        &s.new,
        "--profile",
        "libmemcached-weighted",
        "--format",
        "json",
    ];
    v.extend_from_slice(extra);
    v
}

pub fn write_old(s: &Setup, range: std::ops::Range<usize>, gen: u32) -> Vec<usize> {
    let mut moving = Vec::new();
    for i in range {
        let k = key(i);
        store(owner(&s.old_ring, &k), &k, &value(i, gen), i as u32, 0);
        if owner(&s.old_ring, &k) != owner(&s.new_ring, &k) {
            moving.push(i);
        }
    }
    moving
}
