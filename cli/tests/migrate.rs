//! `ketama migrate plan | run | verify` against real memcached processes on 127.0.0.1.
//!
//! Needs Debian's `memcached` (tests/setup.sh installs it). Without it each test says so and
//! passes, unless KETAMA_REQUIRE_MEMCACHED=1 (as tests/run-all.sh sets), where it fails.
//! Every process a test starts is killed by its PID when the test ends (Drop).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use ketama_core::{Profile, Ring, Server};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

fn memcached() -> Option<String> {
    for p in ["/usr/bin/memcached", "/usr/local/bin/memcached"] {
        if Path::new(p).exists() {
            return Some(p.to_string());
        }
    }
    if std::env::var("KETAMA_REQUIRE_MEMCACHED").as_deref() == Ok("1") {
        panic!("memcached is required (KETAMA_REQUIRE_MEMCACHED=1) but not installed");
    }
    eprintln!("memcached not installed: test skipped (set KETAMA_REQUIRE_MEMCACHED=1 to fail)");
    None
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ketama-migrate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// memcached processes started by a test, killed on drop.
struct Fleet {
    mc: String,
    procs: Vec<Option<Child>>,
    labels: Vec<String>,
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for p in self.procs.iter_mut().flatten() {
            let _ = p.kill();
            let _ = p.wait();
        }
    }
}

fn spawn(mc: &str, port: u16, extra: &[&str]) -> Child {
    let mut c = Command::new(mc)
        .args([
            "-l",
            "127.0.0.1",
            "-p",
            &port.to_string(),
            "-U",
            "0",
            "-m",
            "64",
            "-t",
            "1",
        ])
        .args(extra)
        .args(["-u", "root"]) // ignored unless root, where it is required
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(10) {
            // Stopped before failing, so no process outlives the test.
            let _ = c.kill();
            let _ = c.wait();
            panic!("memcached on {port} did not start");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    c
}

impl Fleet {
    fn start(mc: &str, n: usize) -> Fleet {
        let mut f = Fleet {
            mc: mc.to_string(),
            procs: Vec::new(),
            labels: Vec::new(),
        };
        for _ in 0..n {
            let port = free_port();
            f.procs.push(Some(spawn(mc, port, &[])));
            f.labels.push(format!("127.0.0.1:{port}"));
        }
        f
    }

    fn stop(&mut self, i: usize) {
        if let Some(mut p) = self.procs[i].take() {
            let _ = p.kill();
            let _ = p.wait();
        }
    }

    fn restart(&mut self, i: usize) {
        self.stop(i);
        let port: u16 = self.labels[i].rsplit(':').next().unwrap().parse().unwrap();
        self.procs[i] = Some(spawn(&self.mc, port, &[]));
    }
}

/// A tiny meta-protocol client for the tests (one connection per call).
fn talk(addr: &str, req: &[u8]) -> Vec<u8> {
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
fn tok(key: &[u8]) -> (String, &'static str) {
    if key.len() <= 250 && key.iter().all(|&b| b > 0x20 && b != 0x7f) {
        (String::from_utf8(key.to_vec()).unwrap(), "")
    } else {
        (b64(key), " b")
    }
}

fn b64(bytes: &[u8]) -> String {
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
fn store(addr: &str, key: &[u8], value: &[u8], flags: u32, ttl: i64) {
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

/// `(value, flags, ttl)` of a key, or None.
fn fetch(addr: &str, key: &[u8]) -> Option<(Vec<u8>, u32, i64)> {
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

fn delete(addr: &str, key: &[u8]) {
    talk(
        addr,
        format!("md {}{}\r\n", tok(key).0, tok(key).1).as_bytes(),
    );
}

fn ring(profile: &str, labels: &[String], weights: &[u32]) -> Ring {
    let p = Profile::by_name(profile).unwrap();
    let servers: Vec<Server> = labels
        .iter()
        .zip(weights)
        .map(|(l, &w)| Server::parse(l, w).unwrap())
        .collect();
    Ring::with_servers(p, None, servers).unwrap()
}

fn servers_file(dir: &Path, name: &str, labels: &[String], weights: &[u32]) -> String {
    let p = dir.join(name);
    let text: String = labels
        .iter()
        .zip(weights)
        .map(|(l, w)| format!("{l} {w}\n"))
        .collect();
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn ketama(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ketama")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "bad json ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn ok(out: &Output) -> Value {
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
fn key(i: usize) -> Vec<u8> {
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

fn value(i: usize, gen: u32) -> Vec<u8> {
    format!("value-{i}-{gen}-{}", "x".repeat(i % 300)).into_bytes()
}

struct Setup {
    _dir: PathBuf,
    fleet: Fleet,
    old: String,
    new: String,
    old_ring: Ring,
    new_ring: Ring,
    new_labels: Vec<String>,
}

/// 10 OLD servers (weights 1..=3), NEW = the 10 plus 2 (weight 2), libmemcached-weighted.
fn setup(mc: &str, name: &str) -> Setup {
    let dir = tmpdir(name);
    let fleet = Fleet::start(mc, 12);
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

fn owner<'a>(r: &'a Ring, k: &[u8]) -> &'a str {
    &r.locate(k).unwrap().label
}

fn args<'a>(s: &'a Setup, verb: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
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

#[test]
fn resize_10_to_12_copies_what_moves_with_flags_and_ttl() {
    let Some(mc) = memcached() else { return };
    let s = setup(&mc, "resize");
    let n = 3000;
    let stored_at = Instant::now();
    let mut moving = Vec::new();
    for i in 0..n {
        let k = key(i);
        let ttl = if i % 3 == 0 { 0 } else { 600 + i as i64 };
        store(owner(&s.old_ring, &k), &k, &value(i, 0), i as u32 * 7, ttl);
        if owner(&s.old_ring, &k) != owner(&s.new_ring, &k) {
            moving.push(i);
        }
    }
    // Expired keys are not copied: stored with a 1 s TTL, listed after it passed.
    let mut expired = Vec::new();
    for i in n..n + 400 {
        let k = key(i);
        if owner(&s.old_ring, &k) != owner(&s.new_ring, &k) {
            store(owner(&s.old_ring, &k), &k, b"short", 1, 1);
            expired.push(i);
        }
    }
    // A key a new-placement client wrote before the copy: never overwritten.
    // (one whose NEW owner is an added server, so no OLD server lists it as stale)
    let newer = *moving
        .iter()
        .find(|&&i| {
            s.fleet.labels[10..]
                .iter()
                .any(|l| l == owner(&s.new_ring, &key(i)))
        })
        .unwrap();
    let kn = key(newer);
    store(owner(&s.new_ring, &kn), &kn, b"newer", 99, 0);
    // A stale key (misplaced under OLD): not copied.
    let stale = key(999_999);
    let wrong = s
        .fleet
        .labels
        .iter()
        .take(10)
        .find(|l| {
            l.as_str() != owner(&s.old_ring, &stale) && l.as_str() != owner(&s.new_ring, &stale)
        })
        .unwrap()
        .clone();
    store(&wrong, &stale, b"stale", 0, 0);
    std::thread::sleep(Duration::from_millis(2100));

    let plan = ok(&ketama(&args(&s, "plan", &["--rate", "1000"])));
    assert_eq!(plan["move"]["keys"], moving.len() as u64, "{plan}");
    assert_eq!(plan["stay"]["keys"], (n - moving.len()) as u64);
    assert_eq!(plan["stale"]["keys"], 1);
    // The crawler reclaims expired items rather than listing them.
    assert!(plan["expired"]["keys"].as_u64().unwrap() <= expired.len() as u64);
    let flows: u64 = plan["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["keys"].as_u64().unwrap())
        .sum();
    assert_eq!(flows, moving.len() as u64);
    // Weighted ketama gives each server points by its share of the total weight, so adding
    // servers also moves a few keys between old ones: most go to the two new servers.
    let to_new: u64 = plan["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["to"] == s.new_labels[10].as_str() || m["to"] == s.new_labels[11].as_str())
        .map(|m| m["keys"].as_u64().unwrap())
        .sum();
    assert!(to_new * 10 > flows * 8, "{plan}");

    let dry = ok(&ketama(&args(&s, "run", &["--dry-run"])));
    assert_eq!(dry["counts"]["copied"], 0);
    for &i in moving.iter().filter(|&&i| i != newer).take(200) {
        assert!(
            fetch(owner(&s.new_ring, &key(i)), &key(i)).is_none(),
            "dry run copied key {i}"
        );
    }

    let run = ok(&ketama(&args(&s, "run", &[])));
    let c = &run["counts"];
    assert_eq!(c["moving"], moving.len() as u64, "{run}");
    assert_eq!(c["copied"], (moving.len() - 1) as u64, "{run}");
    assert_eq!(c["kept"], 1, "{run}");
    assert_eq!(c["stale"], 1);
    assert_eq!(c["failed"], 0);
    for &i in &moving {
        let k = key(i);
        let got = fetch(owner(&s.new_ring, &k), &k).unwrap_or_else(|| panic!("key {i} not copied"));
        if i == newer {
            assert_eq!(got.0, b"newer");
            assert_eq!(got.1, 99);
            continue;
        }
        assert_eq!(got.0, value(i, 0), "key {i}");
        assert_eq!(got.1, i as u32 * 7, "flags of key {i}");
        if i % 3 == 0 {
            assert_eq!(got.2, -1, "no expiry stays no expiry (key {i})");
        } else {
            // The copy's TTL is the remaining one (within 3 s).
            let stored = 600 + i as i64;
            let elapsed = stored_at.elapsed().as_secs() as i64;
            assert!(
                got.2 <= stored && got.2 >= stored - elapsed - 3,
                "TTL of key {i} within 3 s: {} of {stored}",
                got.2
            );
        }
    }
    for &i in &expired {
        let k = key(i);
        assert!(
            fetch(owner(&s.new_ring, &k), &k).is_none(),
            "expired key {i} copied"
        );
    }
    assert!(
        fetch(owner(&s.new_ring, &stale), &stale).is_none(),
        "a stale key is not copied"
    );

    // Every key is now where the NEW placement looks; the sources are old copies.
    let v = ketama(&args(&s, "verify", &[]));
    let vj = json(&v);
    // The stale key sits where neither placement looks: the one unreachable key.
    assert_eq!(v.status.code(), Some(1), "{vj}");
    assert_eq!(vj["unreachable"], 1, "{vj}");
    assert_eq!(vj["old_copies"], moving.len() as u64, "{vj}");
    delete(&wrong, &stale);
    let vj = ok(&ketama(&args(&s, "verify", &[])));
    assert_eq!(vj["unreachable"], 0);

    // After the switch: the old copies go, only where the NEW owner holds the key.
    let kgone = key(*moving.iter().find(|&&i| i != newer).unwrap());
    delete(owner(&s.new_ring, &kgone), &kgone);
    let del = ok(&ketama(&args(&s, "run", &["--delete-moved"])));
    assert_eq!(del["counts"]["deleted"], (moving.len() - 1) as u64, "{del}");
    assert_eq!(del["counts"]["not_held"], 1, "{del}");
    assert!(
        fetch(owner(&s.old_ring, &kgone), &kgone).is_some(),
        "a key the NEW owner lacks is kept"
    );
    for &i in &moving {
        if key(i) != kgone {
            assert!(
                fetch(owner(&s.old_ring, &key(i)), &key(i)).is_none(),
                "old copy of {i} kept"
            );
        }
    }
}

/// Writes keys `range` where the OLD placement puts them; returns those that move.
fn write_old(s: &Setup, range: std::ops::Range<usize>, gen: u32) -> Vec<usize> {
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

#[test]
fn a_second_run_with_state_syncs_and_leaves_client_changes_alone() {
    let Some(mc) = memcached() else { return };
    let s = setup(&mc, "sync");
    let state = s._dir.join("state").to_string_lossy().into_owned();
    let moving = write_old(&s, 0..2000, 0);
    assert!(moving.len() > 80, "{}", moving.len());
    let r1 = ok(&ketama(&args(&s, "run", &["--state", &state])));
    assert_eq!(r1["counts"]["copied"], moving.len() as u64, "{r1}");
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.starts_with("ketama-migrate-state 1\n"));
    assert_eq!(text.lines().count(), moving.len() + 1);

    let at_old = |i: usize| owner(&s.old_ring, &key(i)).to_string();
    let at_new = |i: usize| owner(&s.new_ring, &key(i)).to_string();
    let deleted = &moving[0..20];
    let overwritten = &moving[20..40];
    let client_then_source_changed = &moving[40..50];
    let client_then_source_deleted = &moving[50..60];
    let copy_lost = &moving[60..70];
    for &i in deleted {
        delete(&at_old(i), &key(i));
    }
    for &i in overwritten {
        store(&at_old(i), &key(i), &value(i, 1), 1000 + i as u32, 0);
    }
    for &i in client_then_source_changed {
        store(&at_new(i), &key(i), b"client", 5, 0);
        store(&at_old(i), &key(i), &value(i, 1), 0, 0);
    }
    for &i in client_then_source_deleted {
        store(&at_new(i), &key(i), b"client", 5, 0);
        delete(&at_old(i), &key(i));
    }
    for &i in copy_lost {
        delete(&at_new(i), &key(i));
    }
    let fresh = write_old(&s, 2000..2500, 0);

    let r2 = ok(&ketama(&args(&s, "run", &["--state", &state])));
    let c = &r2["counts"];
    assert_eq!(c["copied"], (fresh.len() + copy_lost.len()) as u64, "{r2}");
    assert_eq!(c["updated"], overwritten.len() as u64, "{r2}");
    assert_eq!(c["deleted"], deleted.len() as u64, "{r2}");
    assert_eq!(c["client_changed"], 20, "{r2}");
    assert_eq!(c["unchanged"], (moving.len() - 70) as u64, "{r2}");
    for &i in deleted {
        assert!(
            fetch(&at_new(i), &key(i)).is_none(),
            "copy of deleted key {i} kept"
        );
    }
    for &i in overwritten {
        assert_eq!(
            fetch(&at_new(i), &key(i)).unwrap(),
            (value(i, 1), 1000 + i as u32, -1)
        );
    }
    for &i in client_then_source_changed
        .iter()
        .chain(client_then_source_deleted)
    {
        assert_eq!(fetch(&at_new(i), &key(i)).unwrap().0, b"client", "key {i}");
    }
    for &i in copy_lost.iter().chain(&fresh) {
        assert_eq!(
            fetch(&at_new(i), &key(i)).unwrap().0,
            value(i, 0),
            "key {i}"
        );
    }
    // A third run has nothing left to do.
    let r3 = ok(&ketama(&args(&s, "run", &["--state", &state])));
    let c = &r3["counts"];
    for f in ["copied", "updated", "deleted", "client_changed", "failed"] {
        assert_eq!(c[f], 0, "{f}: {r3}");
    }
}

#[test]
fn a_server_killed_mid_run_is_named_and_a_rerun_completes() {
    let Some(mc) = memcached() else { return };
    let mut s = setup(&mc, "kill");
    let state = s._dir.join("state").to_string_lossy().into_owned();
    let moving = write_old(&s, 0..12000, 0);
    let victim = s.new_labels[10].clone();
    let child = Command::new(BIN)
        .args(args(
            &s,
            "run",
            &["--state", &state, "--rate", "1500", "--concurrency", "2"],
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(600));
    s.fleet.stop(10);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains(&victim), "the failed server is named: {err}");
    assert!(err.contains("not copied"), "{err}");
    let j = json(&out);
    assert!(j["counts"]["failed"].as_u64().unwrap() > 0, "{j}");
    assert!(j["counts"]["copied"].as_u64().unwrap() > 0, "{j}");
    // While it is down, a run refuses to start and names it.
    let refused = ketama(&args(&s, "run", &["--state", &state]));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(3), "{err}");
    assert!(
        err.contains(&victim) && err.contains("nothing was copied"),
        "{err}"
    );
    s.fleet.restart(10);
    let r = ok(&ketama(&args(&s, "run", &["--state", &state])));
    assert_eq!(r["counts"]["failed"], 0, "{r}");
    for &i in &moving {
        let k = key(i);
        assert_eq!(
            fetch(owner(&s.new_ring, &k), &k).map(|g| g.0),
            Some(value(i, 0)),
            "key {i}"
        );
    }
}

#[test]
fn shards_split_the_old_servers() {
    let Some(mc) = memcached() else { return };
    let s = setup(&mc, "shard");
    let moving = write_old(&s, 0..3000, 0);
    let plan = ok(&ketama(&args(&s, "plan", &[])));
    let mut total = 0;
    for i in 0..3 {
        let shard = format!("{i}/3");
        let r = ok(&ketama(&args(&s, "run", &["--shard", &shard])));
        let want: u64 = plan["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| {
                s.fleet
                    .labels
                    .iter()
                    .position(|l| l == m["from"].as_str().unwrap())
                    .unwrap()
                    % 3
                    == i
            })
            .map(|m| m["keys"].as_u64().unwrap())
            .sum();
        assert_eq!(r["counts"]["copied"], want, "shard {shard}: {r}");
        total += want;
    }
    assert_eq!(total, moving.len() as u64);
    let bad = ketama(&args(&s, "run", &["--shard", "3/3"]));
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--shard"));
}

#[test]
fn nothing_moves_when_old_and_new_are_the_same() {
    let dir = tmpdir("same");
    let f = servers_file(
        &dir,
        "s",
        &["127.0.0.1:1".to_string(), "127.0.0.1:2".to_string()],
        &[1, 1],
    );
    for verb in ["plan", "run"] {
        let out = ketama(&[
            "migrate",
            verb,
            "--servers",
            &f,
            "--to",
            &f,
            "--profile",
            "libmemcached-weighted",
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&out.stdout).contains("nothing moves"));
    }
}

/// A fake server answering like memcached 1.4 (no meta commands).
fn old_memcached() -> (String, std::thread::JoinHandle<()>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        l.set_nonblocking(false).unwrap();
        let Ok((s, _)) = l.accept() else { return };
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut w = s.try_clone().unwrap();
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { return };
            let reply = if line.starts_with("version") {
                "VERSION 1.4.25\r\n"
            } else {
                "ERROR\r\n"
            };
            if w.write_all(reply.as_bytes()).is_err() {
                return;
            }
        }
    });
    (addr, h)
}

#[test]
fn refusals_name_the_server() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("refuse");
    let fleet = Fleet::start(&mc, 1);
    let (fake, h) = old_memcached();
    let old = servers_file(&dir, "old", &fleet.labels, &[1]);
    let new = servers_file(
        &dir,
        "new",
        &[fleet.labels[0].clone(), fake.clone()],
        &[1, 1],
    );
    let out = ketama(&[
        "migrate",
        "run",
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libmemcached-weighted",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&fake) && err.contains("1.4.25") && err.contains("1.6"),
        "{err}"
    );
    h.join().unwrap();
    let down = format!("127.0.0.1:{}", free_port());
    let new = servers_file(
        &dir,
        "new2",
        &[fleet.labels[0].clone(), down.clone()],
        &[1, 1],
    );
    let out = ketama(&[
        "migrate",
        "run",
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libmemcached-weighted",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(&down) && err.contains("nothing was copied"),
        "{err}"
    );
    let out = ketama(&[
        "migrate",
        "verify",
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libmemcached-weighted",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&down));
}

#[test]
fn simulate_live_migrate_reads_every_key_after_migrating() {
    if memcached().is_none() {
        return;
    }
    let out = ketama(&["simulate", "--live", "--migrate", "--format", "json"]);
    let v = ok(&out);
    let results = v["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        assert!(r["live_hit_rate"].as_f64().unwrap() < 1.0, "{r}");
        assert_eq!(r["live_hit_rate_migrated"], 1.0, "{r}");
    }
    let plain = ok(&ketama(&["simulate", "--live", "--format", "json"]));
    assert!(plain["results"][0].get("live_hit_rate_migrated").is_none());
}

#[test]
fn ctrl_c_stops_within_a_second_and_a_rerun_resumes() {
    let Some(mc) = memcached() else { return };
    let s = setup(&mc, "ctrlc");
    let state = s._dir.join("state").to_string_lossy().into_owned();
    let moving = write_old(&s, 0..6000, 0);
    let child = Command::new(BIN)
        .args(args(&s, "run", &["--state", &state, "--rate", "400"]))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let sent = Instant::now();
    // SIGINT to exactly this child.
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "stopped after {:?}",
        sent.elapsed()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("rerun resumes"),
        "{err}"
    );
    let j = json(&out);
    let first = j["counts"]["copied"].as_u64().unwrap();
    assert!(first > 0 && first < moving.len() as u64, "{j}");
    let recorded = std::fs::read_to_string(&state).unwrap().lines().count() as u64 - 1;
    assert_eq!(recorded, first, "every copy made is in the state file");
    let r = ok(&ketama(&args(&s, "run", &["--state", &state])));
    assert_eq!(r["counts"]["copied"], moving.len() as u64 - first, "{r}");
    assert_eq!(r["counts"]["unchanged"], first, "{r}");
}

#[test]
fn an_item_the_new_server_refuses_is_counted_and_the_rest_is_copied() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("toolarge");
    // OLD takes items up to 4 MB, NEW only up to its default 1 MB.
    let mut f = Fleet {
        mc: mc.clone(),
        procs: Vec::new(),
        labels: Vec::new(),
    };
    for extra in [&["-I", "4m"][..], &[]] {
        let port = free_port();
        f.procs.push(Some(spawn(&mc, port, extra)));
        f.labels.push(format!("127.0.0.1:{port}"));
    }
    let old = servers_file(&dir, "old", &f.labels[..1], &[1]);
    let new = servers_file(&dir, "new", &f.labels[1..], &[1]);
    for i in 0..50 {
        let v = if i == 7 {
            vec![b'x'; 1_500_000]
        } else {
            value(i, 0)
        };
        store(&f.labels[0], &key(i), &v, 0, 0);
    }
    let out = ketama(&[
        "migrate",
        "run",
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libmemcached-weighted",
        "--format",
        "json",
    ]);
    let j = json(&out);
    assert_eq!(out.status.code(), Some(3), "{j}");
    assert_eq!(j["counts"]["refused"], 1, "{j}");
    assert_eq!(j["counts"]["copied"], 49, "{j}");
    assert_eq!(fetch(&f.labels[1], &key(8)).unwrap().0, value(8, 0));
    f.stop(0);
}
