//! `simulate --live` and `audit` against real memcached processes on 127.0.0.1.
//!
//! They need Debian's `memcached` (tests/setup.sh installs it). Without it each test says so
//! and passes, unless KETAMA_REQUIRE_MEMCACHED=1 (as tests/run-all.sh sets), where it fails.

use std::io::Read;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::memcached::{free_port, json, memcached, set, stat, tmpdir, Fleet};

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

fn ketama(args: &[&str]) -> Output {
    common::ketama_stdin(args, None)
}

fn alive(pid: u32) -> bool {
    // A zombie has been stopped but not reaped: count it as gone only once reaped; ketama
    // reaps its children, so /proc/PID disappears.
    Path::new(&format!("/proc/{pid}")).exists()
}

fn port_closed(addr: &str) -> bool {
    TcpStream::connect_timeout(&addr.parse().unwrap(), Duration::from_secs(1)).is_err()
}

#[test]
fn live_hit_rates_equal_the_simulated_ones() {
    if memcached().is_none() {
        return;
    }
    let out = ketama(&["simulate", "--live", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    for r in results {
        assert_eq!(r["live_hit_rate"], r["hit_rate"], "{}", r["hash"]);
        assert_eq!(r["live_stored"], r["placed"]);
        let before = r["before"].as_array().unwrap();
        let items = r["live_items_before"].as_array().unwrap();
        assert_eq!(before.len(), items.len());
        for (b, i) in before.iter().zip(items) {
            assert_eq!(b["node"], i["node"]);
            assert_eq!(b["keys"], i["items"], "{} {}", r["hash"], b["node"]);
        }
    }
    let servers = v["live"]["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 12);
    for (i, s) in servers.iter().enumerate() {
        assert_eq!(s["node"], format!("192.168.0.100:{}", 12000 + i));
        let addr = s["address"].as_str().unwrap();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        assert!(port_closed(addr), "{addr} still answers after the run");
    }
}

#[test]
fn live_with_removals_other_profile_and_formats() {
    if memcached().is_none() {
        return;
    }
    let args = [
        "simulate",
        "--live",
        "-p",
        "php-memcached",
        "--hash",
        "md5,crc32a",
        "--nodes",
        "5",
        "--remove",
        "2",
        "--add",
        "1",
    ];
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let v = json(&ketama(&a));
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["live_hit_rate"], r["hit_rate"]);
    }
    let table = ketama(&args);
    let text = String::from_utf8_lossy(&table.stdout);
    assert_eq!(table.status.code(), Some(0));
    assert!(text.contains("live = simulated"), "{text}");
    assert!(!text.contains(" NO"), "{text}");
    assert_eq!(text.matches("  yes").count(), 2, "{text}");
    let mut a = args.to_vec();
    a.extend(["--format", "csv"]);
    let csv = String::from_utf8(ketama(&a).stdout).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let hit = header.iter().position(|h| *h == "hit_rate").unwrap();
    let live = header.iter().position(|h| *h == "live_hit_rate").unwrap();
    let mut n = 0;
    for l in lines {
        let cells: Vec<&str> = l.split(',').collect();
        assert_eq!(cells[hit], cells[live], "{l}");
        n += 1;
    }
    assert_eq!(n, 2 * 6);
}

#[test]
fn live_refuses_keys_the_protocol_cannot_carry_and_a_missing_binary() {
    let d = tmpdir("live", "badkeys");
    let keys = d.join("keys");
    std::fs::write(&keys, "a\nb c\nd\n").unwrap();
    let out = ketama(&["simulate", "--live", "--keys", keys.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 keys cannot be sent") && err.contains("'b c'"),
        "{err}"
    );

    let out = ketama(&[
        "simulate",
        "--live",
        "--memcached",
        "/nonexistent/memcached",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start memcached ('/nonexistent/memcached')"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    let out = ketama(&["simulate", "--live", "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("102 nodes, at most 100"), "{err}");

    let out = ketama(&["simulate", "--memcached", "/usr/bin/memcached"]);
    assert_eq!(out.status.code(), Some(2), "--memcached needs --live");
}

/// A `--memcached` wrapper that records each PID it runs as; call `n` behaves as `on_call`.
fn wrapper(d: &Path, memcached: &str, on_call: &str) -> (PathBuf, PathBuf) {
    let pids = d.join("pids");
    let p = pids.display();
    let before = format!("echo $$ >> '{p}'\nn=$(wc -l < '{p}')\n{on_call}");
    let script = common::memcached::wrapper(d, "memcached-wrapper", memcached, &before);
    (script, pids)
}

fn recorded(pids: &Path) -> Vec<u32> {
    std::fs::read_to_string(pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

#[test]
fn every_process_is_stopped_when_a_start_fails() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("live", "startfail");
    let (script, pids) = wrapper(&d, &mc, "[ \"$n\" -ge 4 ] && exit 1");
    let out = ketama(&[
        "simulate",
        "--live",
        "--memcached",
        script.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did not start") && err.contains("exited"),
        "{err}"
    );
    let started = recorded(&pids);
    assert!(
        started.len() >= 8,
        "3 good starts + 5 failed tries: {started:?}"
    );
    for pid in started {
        assert!(!alive(pid), "process {pid} left running");
    }
}

#[test]
fn every_process_is_stopped_on_ctrl_c() {
    let Some(mc) = memcached() else { return };
    let d = tmpdir("live", "ctrlc");
    // The 6th start hangs (a process that never listens), so the run is surely in progress.
    let (script, pids) = wrapper(&d, &mc, "[ \"$n\" -eq 6 ] && exec sleep 60");
    let mut child = Command::new(BIN)
        .args([
            "simulate",
            "--live",
            "--memcached",
            script.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while recorded(&pids).len() < 6 {
        assert!(start.elapsed() < Duration::from_secs(20), "starts too slow");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    // The shell's builtin kill (procps may be missing on a minimal system).
    let st = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(st.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "ketama did not stop on SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let started = recorded(&pids);
    assert_eq!(started.len(), 6);
    for pid in started {
        assert!(!alive(pid), "process {pid} left running after Ctrl-C");
    }
}

// ---------------------------------------------------------------------------------------------
// audit

fn lookup(profile: &str, servers: &Path, keys: &[String]) -> Vec<String> {
    let mut args = vec!["lookup", "-p", profile, "-s", servers.to_str().unwrap()];
    args.extend(keys.iter().map(String::as_str));
    String::from_utf8(ketama(&args).stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn audit_reports_agreement_misplaced_keys_detect_and_partial() {
    let Some(mc) = memcached() else { return };
    // The third server has no LRU crawler: its keys come from `stats cachedump` (and no
    // segmented LRU, where cachedump would only see the HOT part).
    let fleet = Fleet::start_each(
        &mc,
        &[
            &["-m", "16"],
            &["-m", "16"],
            &["-m", "16", "-o", "no_lru_crawler,no_lru_maintainer"],
        ],
    );
    let d = tmpdir("live", "audit");
    let servers = d.join("servers");
    std::fs::write(&servers, fleet.labels.join("\n") + "\n").unwrap();
    // Random-looking keys: sequential ones cluster under fnv1a_64.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let keys: Vec<String> = (0..300)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            format!("{:012x}:{i}", x >> 16)
        })
        .collect();
    let owners = lookup("twemproxy", &servers, &keys);
    for (k, o) in keys.iter().zip(&owners) {
        set(o, k);
    }
    // One key where twemproxy will never look.
    let stray = "stray:1";
    let want = lookup("twemproxy", &servers, &[stray.to_string()])[0].clone();
    let wrong = fleet.labels.iter().find(|l| **l != want).unwrap().clone();
    set(&wrong, stray);
    for l in &fleet.labels {
        assert!(
            owners.iter().filter(|o| *o == l).count() > 50,
            "keys spread"
        );
    }
    let sets: Vec<u64> = fleet.labels.iter().map(|l| stat(l, "cmd_set")).collect();

    let s = servers.to_str().unwrap();
    let out = ketama(&["audit", "-s", s, "-p", "twemproxy", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["keys"], 301);
    assert_eq!(v["profiles"][0]["profile"], "twemproxy");
    assert_eq!(v["profiles"][0]["hash"], "fnv1a_64");
    assert_eq!(v["profiles"][0]["agree"].as_f64(), Some(300.0 / 301.0));
    assert_eq!(
        v["misplaced"],
        serde_json::json!([{"key": stray, "on": wrong, "expected": want}])
    );
    let listings: Vec<&str> = v["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["listing"].as_str().unwrap())
        .collect();
    assert_eq!(
        listings,
        [
            "lru_crawler metadump all",
            "lru_crawler metadump all",
            "stats cachedump"
        ]
    );

    let table = ketama(&["audit", "-s", s, "-p", "twemproxy"]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains("agreement: 99.67% (300 of 301 keys"),
        "{text}"
    );
    assert!(
        text.contains(stray) && text.contains("stats cachedump"),
        "{text}"
    );

    let v = json(&ketama(&["audit", "-s", s, "--detect", "--format", "json"]));
    let ranked = v["profiles"].as_array().unwrap();
    assert_eq!(ranked[0]["profile"], "twemproxy", "{:?}", &ranked[..4]);
    assert_eq!(ranked[0]["hash"], "fnv1a_64");
    assert_eq!(ranked[0]["agree"].as_f64(), Some(300.0 / 301.0));
    // Ties: other clients with twemproxy's ring (md5 points of host:port) set to fnv1a_64
    // (the Java FNV equals the C one on ASCII keys).
    for p in ranked
        .iter()
        .take_while(|p| p["agree"] == ranked[0]["agree"])
    {
        assert!(
            p["hash"] == "fnv1a_64" || p["hash"] == "java_fnv1a_64",
            "{p}"
        );
    }
    assert!(ranked.iter().any(|p| p["agree"].as_f64().unwrap() < 0.5));
    let agrees: Vec<f64> = ranked
        .iter()
        .map(|p| p["agree"].as_f64().unwrap())
        .collect();
    assert!(agrees.windows(2).all(|w| w[0] >= w[1]), "best first");

    // Read-only: no server saw a single write.
    let after: Vec<u64> = fleet.labels.iter().map(|l| stat(l, "cmd_set")).collect();
    assert_eq!(sets, after);
    for l in &fleet.labels {
        assert_eq!(stat(l, "delete_hits") + stat(l, "delete_misses"), 0);
    }

    // A server that does not answer: named, the rest audited, exit 3.
    let down = format!("127.0.0.1:{}", free_port());
    std::fs::write(&servers, fleet.labels.join("\n") + "\n" + &down + "\n").unwrap();
    let out = ketama(&["audit", "-s", s, "--detect", "--format", "json"]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("server {down} is unreachable")),
        "{err}"
    );
    let v = json(&out);
    assert_eq!(v["partial"], true);
    assert_eq!(v["keys"], 301);
    let out = ketama(&["audit", "-s", s, "-p", "twemproxy"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("PARTIAL: 1 unreachable"));

    // Nothing answers: an error.
    std::fs::write(&servers, format!("{down}\n")).unwrap();
    let out = ketama(&["audit", "-s", s, "--detect"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn audit_usage_errors() {
    let out = ketama(&["audit", "-s", "/nonexistent"]);
    assert_eq!(out.status.code(), Some(2), "needs --profile or --detect");
    let out = ketama(&["audit", "-s", "x", "-p", "libketama", "--detect"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ketama(&["audit", "-s", "x", "--detect", "--hash", "md5"]);
    assert_eq!(out.status.code(), Some(2), "--hash needs --profile");
    let d = tmpdir("live", "usage");
    let servers = d.join("servers");
    std::fs::write(&servers, "127.0.0.1:1\n").unwrap();
    let out = ketama(&["audit", "-s", servers.to_str().unwrap(), "-p", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown profile 'nope'"));
    let out = ketama(&[
        "audit",
        "-s",
        servers.to_str().unwrap(),
        "--detect",
        "--format",
        "csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// Starts `simulate --live` whose first memcached is stopped (SIGSTOP) once the 12th has
/// started, so the run blocks reading its reply; returns the child and the PID file.
fn stalled_live(name: &str, mc: &str, extra: &[&str]) -> (Child, PathBuf) {
    let d = tmpdir("live", name);
    let (script, pids) = wrapper(
        &d,
        mc,
        &format!(
            "[ \"$n\" -eq 12 ] && kill -STOP $(head -n1 '{}')",
            d.join("pids").display()
        ),
    );
    let child = Command::new(BIN)
        .args([
            "simulate",
            "--live",
            "--memcached",
            script.to_str().unwrap(),
        ])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while recorded(&pids).len() < 12 {
        assert!(start.elapsed() < Duration::from_secs(20), "starts too slow");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let it reach the stopped server.
    std::thread::sleep(Duration::from_millis(300));
    (child, pids)
}

/// Waits for `child` at most `limit`; kills it (and the recorded processes) on failure.
fn exits_within(child: &mut Child, pids: &Path, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            kill_all(pids);
            panic!("ketama still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn kill_all(pids: &Path) {
    for pid in recorded(pids) {
        let _ = Command::new("sh")
            .args(["-c", &format!("kill -9 {pid} 2>/dev/null")])
            .status();
    }
}

/// Whether a process runs (or is stopped): a zombie is dead, only waiting for its new parent
/// (init, once ketama itself was killed) to reap it.
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| Some(s.rsplit_once(") ")?.1.chars().next()? != 'Z'))
        .unwrap_or(false)
}

fn all_gone_within(pids: &Path, limit: Duration) {
    let deadline = Instant::now() + limit;
    while recorded(pids).into_iter().any(running) {
        if Instant::now() > deadline {
            let left: Vec<u32> = recorded(pids).into_iter().filter(|p| running(*p)).collect();
            kill_all(pids);
            panic!("memcached processes left running: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn ctrl_c_and_sigterm_stop_a_run_blocked_on_a_stalled_server_within_a_second() {
    let Some(mc) = memcached() else { return };
    for sig in ["INT", "TERM"] {
        let (mut child, pids) = stalled_live(&format!("stall-{sig}"), &mc, &[]);
        let t = Instant::now();
        let st = Command::new("sh")
            .args(["-c", &format!("kill -{sig} {}", child.id())])
            .status()
            .unwrap();
        assert!(st.success());
        let status = exits_within(&mut child, &pids, Duration::from_secs(2));
        assert!(
            t.elapsed() < Duration::from_millis(1500),
            "{sig}: {:?}",
            t.elapsed()
        );
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(2), "{sig}: {err}");
        assert!(err.contains("interrupted"), "{sig}: {err}");
        all_gone_within(&pids, Duration::from_secs(1));
    }
}

#[test]
fn a_stalled_server_fails_the_run_after_the_timeout_naming_it() {
    let Some(mc) = memcached() else { return };
    let (mut child, pids) = stalled_live("stall-timeout", &mc, &["--timeout", "1"]);
    let status = exits_within(&mut child, &pids, Duration::from_secs(5));
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "timed out after 1 s waiting for the reply to `version` from 192.168.0.100:12000"
        ),
        "{err}"
    );
    all_gone_within(&pids, Duration::from_secs(1));
}

#[test]
fn sigkill_of_ketama_takes_its_memcached_processes_with_it() {
    let Some(mc) = memcached() else { return };
    let (mut child, pids) = stalled_live("sigkill", &mc, &[]);
    child.kill().unwrap(); // SIGKILL: no handler, no Drop
    child.wait().unwrap();
    all_gone_within(&pids, Duration::from_secs(2));
}
