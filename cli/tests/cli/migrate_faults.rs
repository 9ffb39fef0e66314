//! `ketama migrate` when things go wrong, against real memcached processes on 127.0.0.1: a
//! server killed mid-run (named, exit 3, a rerun completes), refusals (a NEW server down,
//! memcached without meta commands, bad options), Ctrl-C (stops within a second, a rerun
//! resumes; `plan` stops mid-listing and leaves no scratch files), an endless listing and
//! an item the NEW server refuses.
//!
//! Needs Debian's `memcached`, as migrate.rs. Every process a test starts is killed by its
//! PID when the test ends (Drop).

use crate::common;

use common::fake::{metadump_line, stats_reply, Fake, Reply, LIFETIME};
use common::memcached::{free_port, json, memcached, tmpdir, Fleet};
use common::migrate::*;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");

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
fn refusals_name_the_server() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("migrate", "refuse");
    let fleet = Fleet::start(&mc, 1, MC_ARGS);
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
fn ctrl_c_stops_within_a_second_and_a_rerun_resumes() {
    let Some(mc) = memcached() else { return };
    let s = setup(&mc, "ctrlc");
    let state = s._dir.join("state").to_string_lossy().into_owned();
    let moving = write_old(&s, 0..6000, 0);
    let run = args(&s, "run", &["--state", &state, "--rate", "400"]);
    let (out, stopped) = common::interrupted(&run, Duration::from_millis(800));
    ketama_testkit::signal::assert_stopped_in_time(stopped);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("rerun resumes"),
        "{err}"
    );
    let j = json(&out);
    let first = j["counts"]["copied"].as_u64().unwrap();
    assert!(first > 0 && first < moving.len() as u64, "{j}");
    let text = std::fs::read_to_string(&state).unwrap();
    let recorded = text.lines().filter(|l| l.starts_with("c ")).count() as u64;
    assert_eq!(recorded, first, "every copy made is in the state file");
    let r = ok(&ketama(&args(&s, "run", &["--state", &state])));
    // Writes the stop cut short are intents, settled by the rerun rather than copied again.
    let n = |k: &str| r["counts"][k].as_u64().unwrap();
    assert_eq!(
        n("copied") + n("settled"),
        moving.len() as u64 - first,
        "{r}"
    );
    assert_eq!(n("unchanged"), first, "{r}");
}

#[test]
fn an_item_the_new_server_refuses_is_counted_and_the_rest_is_copied() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("migrate", "toolarge");
    // OLD takes items up to 4 MB, NEW only up to its default 1 MB.
    let mut f = Fleet::start_each(&mc, &[&["-m", "64", "-t", "1", "-I", "4m"], MC_ARGS]);
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

/// The arguments of `migrate plan` of one OLD server at `addr` to a NEW one that is never
/// contacted.
fn plan_args(dir: &std::path::Path, addr: &str) -> Vec<String> {
    let old = servers_file(dir, "old", &[addr.to_string()], &[1]);
    let new = servers_file(dir, "new", &["127.0.0.1:9".to_string()], &[1]);
    [
        "migrate",
        "plan",
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libketama",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn an_endless_listing_is_refused() {
    let fake = Fake::endless_metadump();
    let dir = tmpdir("migrate", "endless");
    let args = plan_args(&dir, fake.addr());
    let out = ketama(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&out.stderr);
    // The fake counts 10 items: twice as many and 100,000 more lines at most.
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("more than 100020 lines"), "{err}");
}

#[test]
fn ctrl_c_stops_plan_mid_listing_and_its_scratch_files_go() {
    // A server counting 10 million items that lists without end: past 262,144 keys the
    // duplicate check works in a scratch folder, which must go when Ctrl-C stops the run.
    let fake = Fake::start(
        vec![
            ("stats", Reply::Bytes(stats_reply(10_000_000))),
            (
                "lru_crawler",
                Reply::Endless(|i| metadump_line(&format!("key:{i}")).into_bytes()),
            ),
        ],
        LIFETIME,
    );
    let dir = tmpdir("migrate", "plan-ctrl-c");
    let args = plan_args(&dir, fake.addr());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let entries = || std::fs::read_dir(&tmp).unwrap().count();
    let (out, stopped) = common::interrupted_when(&args, Some(&tmp), || entries() > 0);
    let err = String::from_utf8_lossy(&out.stderr);
    ketama_testkit::signal::assert_stopped_in_time(stopped);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(out.stdout.is_empty(), "no report when interrupted");
    assert_eq!(entries(), 0, "scratch files left in {}", tmp.display());
}
