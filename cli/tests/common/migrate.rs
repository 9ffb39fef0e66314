//! What the `migrate` test files share: a small meta-protocol client, the keys and values of
//! the tests, and the 10 -> 12 servers setup.
#![allow(dead_code)] // each test crate compiles this module; not every one uses all of it

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use ketama_core::{Profile, Ring, Server};
use serde_json::Value;

use super::memcached::{json, tmpdir, Fleet};

/// The arguments of every memcached of these tests.
pub const MC_ARGS: &[&str] = &["-m", "64", "-t", "1"];

/// A tiny meta-protocol client for the tests (one connection per call).
pub fn talk(addr: &str, req: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(req).unwrap();
    s.write_all(b"mn\r\n").unwrap();
    let mut r = BufReader::new(s);
    let mut out = Vec::new();
    loop {
        let mut l = Vec::new();
        r.read_until(b'\n', &mut l).unwrap();
        if l == b"MN\r\n" {
            return out;
        }
        if l.starts_with(b"VA ") {
            let n: usize = std::str::from_utf8(&l[3..])
                .unwrap()
                .split([' ', '\r'])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            out.extend_from_slice(&l);
            let mut v = vec![0; n + 2];
            r.read_exact(&mut v).unwrap();
            out.extend_from_slice(&v);
            continue;
        }
        out.extend_from_slice(&l);
    }
}

/// The key token and its flag: plain when the text protocol carries it, else base64 and `b`.
pub fn tok(key: &[u8]) -> (String, &'static str) {
    if key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f) {
        (String::from_utf8(key.to_vec()).unwrap(), "")
    } else {
        (b64(key), " b")
    }
}

pub fn b64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            s.push(if i <= c.len() {
                A[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    s
}

/// Stores with `ms` (base64 key): flags, TTL (0 = none).
pub fn store(addr: &str, key: &[u8], value: &[u8], flags: u32, ttl: i64) {
    let mut req = format!(
        "ms {} {}{} F{flags} T{ttl}\r\n",
        tok(key).0,
        value.len(),
        tok(key).1
    )
    .into_bytes();
    req.extend_from_slice(value);
    req.extend_from_slice(b"\r\n");
    let r = talk(addr, &req);
    assert_eq!(
        r,
        b"HD\r\n",
        "store on {addr}: {:?} -> {}",
        String::from_utf8_lossy(&req[..req.len().min(300)]),
        String::from_utf8_lossy(&r)
    );
}

/// Stores many keys with `ms` on one connection, pipelined (quiet mode: only a failure would
/// answer), each with its flags and no TTL.
pub fn store_many(addr: &str, items: impl Iterator<Item = (Vec<u8>, Vec<u8>, u32)>) {
    let mut req = Vec::new();
    for (k, v, flags) in items {
        let (t, b) = tok(&k);
        req.extend_from_slice(format!("ms {t} {}{b} F{flags} T0 q\r\n", v.len()).as_bytes());
        req.extend_from_slice(&v);
        req.extend_from_slice(b"\r\n");
    }
    let r = talk(addr, &req);
    assert!(
        r.is_empty(),
        "store on {addr}: {}",
        String::from_utf8_lossy(&r)
    );
}

/// `(value, flags, ttl)` of a key, or None.
pub fn fetch(addr: &str, key: &[u8]) -> Option<(Vec<u8>, u32, i64)> {
    let r = talk(
        addr,
        format!("mg {}{} v f t\r\n", tok(key).0, tok(key).1).as_bytes(),
    );
    if r == b"EN\r\n" {
        return None;
    }
    let end = r.windows(2).position(|w| w == b"\r\n").unwrap();
    let head = std::str::from_utf8(&r[..end]).unwrap();
    let mut flags = 0;
    let mut ttl = 0;
    for t in head.split(' ').skip(2) {
        match t.as_bytes()[0] {
            b'f' => flags = t[1..].parse().unwrap(),
            b't' => ttl = t[1..].parse().unwrap(),
            _ => {}
        }
    }
    Some((r[end + 2..r.len() - 2].to_vec(), flags, ttl))
}

pub fn delete(addr: &str, key: &[u8]) {
    talk(
        addr,
        format!("md {}{}\r\n", tok(key).0, tok(key).1).as_bytes(),
    );
}

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
