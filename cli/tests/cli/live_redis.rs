//! `simulate --live --backend redis`: the experiment on real redis-server processes on
//! 127.0.0.1 (the live hit rates equal the simulated ones, `--migrate` brings every key back,
//! the JSON has the memcached run's fields), and no process left behind: not after the run,
//! not when a start fails, not on Ctrl-C.
//!
//! Needs Debian's `redis-server` (installed when missing); without it each test says so and
//! passes, unless KETAMA_REQUIRE_REDIS=1 (as tests/run-all.sh sets).

use crate::common;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::memcached::{json, tmpdir};
use ketama_testkit::redis::redis_server;
use ketama_testkit::signal::{assert_stopped_in_time, interrupted_when};

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

fn port_closed(addr: &str) -> bool {
    TcpStream::connect_timeout(&addr.parse().unwrap(), Duration::from_secs(1)).is_err()
}

#[test]
fn live_hit_rates_on_redis_equal_the_simulated_ones_and_migrating_finds_every_key() {
    let Some(_) = redis_server() else { return };
    let out = common::ketama_stdin(
        &[
            "simulate",
            "--live",
            "--backend",
            "redis",
            "--migrate",
            "--key-count",
            "3000",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["live"]["backend"], "redis");
    assert!(v["live"]["redis"].as_str().unwrap().starts_with("Redis "));
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    for r in results {
        assert_eq!(r["live_hit_rate"], r["hit_rate"], "{}", r["hash"]);
        assert_eq!(r["live_stored"], r["placed"]);
        assert_eq!(r["live_hit_rate_migrated"], 1.0, "{}", r["hash"]);
        let before = r["before"].as_array().unwrap();
        let items = r["live_items_before"].as_array().unwrap();
        for (b, i) in before.iter().zip(items) {
            assert_eq!(b["keys"], i["items"], "{} {}", r["hash"], b["node"]);
        }
    }
    let servers = v["live"]["servers"].as_array().unwrap();
    assert_eq!(servers.len(), 12);
    for s in servers {
        let addr = s["address"].as_str().unwrap();
        assert!(port_closed(addr), "{addr} still answers after the run");
    }
    // Options of the other kind are refused.
    let out = common::ketama_stdin(&["simulate", "--live", "--backend", "redis", "--tls"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = common::ketama_stdin(&["simulate", "--live", "--redis-server", "/x"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs --backend redis"));
}

/// A `--redis-server` wrapper that records each PID it runs as; call `n` does `on_call`.
fn wrapper(d: &Path, bin: &str, on_call: &str) -> (PathBuf, PathBuf) {
    let pids = d.join("pids");
    let script = d.join("redis-wrapper");
    let p = pids.display();
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ >> '{p}'\nn=$(wc -l < '{p}')\n{on_call}\nexec '{bin}' \"$@\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
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
fn every_redis_server_is_stopped_when_a_start_fails() {
    let Some(bin) = redis_server() else { return };
    let d = tmpdir("live-redis", "startfail");
    let (script, pids) = wrapper(&d, &bin, "[ \"$n\" -ge 4 ] && exit 1");
    let out = common::ketama_stdin(
        &[
            "simulate",
            "--live",
            "--backend",
            "redis",
            "--redis-server",
            script.to_str().unwrap(),
        ],
        None,
    );
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
fn every_redis_server_is_stopped_on_ctrl_c_within_a_second() {
    let Some(bin) = redis_server() else { return };
    let d = tmpdir("live-redis", "ctrlc");
    // The 6th start hangs (a process that never listens), so the run is surely in progress.
    let (script, pids) = wrapper(&d, &bin, "[ \"$n\" -eq 6 ] && exec sleep 60");
    let mut cmd = Command::new(BIN);
    cmd.args(["simulate", "--live", "--backend", "redis", "--redis-server"])
        .arg(&script);
    let (out, took) = interrupted_when(cmd, || recorded(&pids).len() >= 6);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert_stopped_in_time(took);
    let started = recorded(&pids);
    assert_eq!(started.len(), 6);
    for pid in started {
        assert!(!alive(pid), "process {pid} left running after Ctrl-C");
    }
}
