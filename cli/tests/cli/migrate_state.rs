//! The state file of `ketama migrate run --state` under what can end or upset a run, on real
//! memcached processes (one OLD, one NEW: every key moves): SIGINT, SIGTERM and kill -9
//! landing while a round of writes waits on the NEW server, a NEW server stalling past
//! `--timeout`, a NEW server restarted between runs whose clients' writes get the CAS
//! values the state file recorded, two runs on one state file, a link planted at the name
//! of the file that replaces it, records too long to be records, and the key files a
//! killed run leaves in $TMPDIR. Each ends with a sync and reads every key back.
//!
//! `KETAMA_TEST_BIN` runs another build of the binary (to see these tests fail on it).

use crate::common;

use common::memcached::{json, memcached, stat, tmpdir, Fleet};
use common::migrate::*;

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Keys of each test.
const N: usize = 3000;

fn bin() -> String {
    std::env::var("KETAMA_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_ketama").into())
}

/// One OLD and one NEW memcached, their servers files, a state file path.
struct Pair {
    dir: PathBuf,
    fleet: Fleet,
    old: String,
    new: String,
    state: String,
}

impl Pair {
    fn new(mc: &str, name: &str) -> Pair {
        let dir = tmpdir("migrate-state", name);
        let fleet = Fleet::start(mc, 2, MC_ARGS);
        let old = servers_file(&dir, "old", &fleet.labels[..1], &[1]);
        let new = servers_file(&dir, "new", &fleet.labels[1..], &[1]);
        let state = dir.join("state").to_string_lossy().into_owned();
        Pair {
            dir,
            fleet,
            old,
            new,
            state,
        }
    }

    fn a(&self) -> &str {
        &self.fleet.labels[0]
    }

    fn b(&self) -> &str {
        &self.fleet.labels[1]
    }

    fn new_pid(&self) -> u32 {
        self.fleet.procs[1].as_ref().unwrap().id()
    }

    fn args(&self, extra: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = [
            "migrate",
            "run",
            "--servers",
            &self.old,
            "--to",
            &self.new,
            "--profile",
            "libketama",
            "--format",
            "json",
            "--state",
            &self.state,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    }

    fn spawn(&self, extra: &[&str], tmp: Option<&std::path::Path>) -> Child {
        let mut c = Command::new(bin());
        if let Some(t) = tmp {
            c.env("TMPDIR", t);
        }
        c.args(self.args(extra))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn run(&self, extra: &[&str]) -> Output {
        self.spawn(extra, None).wait_with_output().unwrap()
    }

    /// Clients write generation `gen` of every key on OLD.
    fn write_old(&self, gen: u32) {
        store_many(self.a(), (0..N).map(|i| (key(i), value(i, gen), i as u32)));
    }

    /// Keys whose copy on NEW is not generation `gen` of the source.
    fn stale(&self, gen: u32) -> Vec<usize> {
        (0..N)
            .filter(|&i| fetch(self.b(), &key(i)) != Some((value(i, gen), i as u32, -1)))
            .collect()
    }
}

fn signal(pid: u32, sig: &str) {
    let st = Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success(), "kill -{sig} {pid}");
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn expect_ok(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(out)
}

/// A run is stopped by `sig` while its writes wait on a stopped NEW server, which then
/// applies them; after clients change every source, a sync leaves no stale copy.
fn stopped_mid_round(name: &str, sig: &str) {
    let Some(mc) = memcached() else { return };
    let p = Pair::new(&mc, name);
    p.write_old(0);
    let child = p.spawn(&["--rate", "3000"], None);
    wait_until("a first copy", || stat(p.b(), "curr_items") > 0);
    signal(p.new_pid(), "STOP");
    std::thread::sleep(Duration::from_millis(400));
    let sent = Instant::now();
    signal(child.id(), sig);
    let out = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    signal(p.new_pid(), "CONT");
    if sig != "KILL" {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        ketama_testkit::signal::assert_stopped_in_time(took);
    }
    // What the NEW server was sent before the stop is applied once it runs again.
    let mut last = u64::MAX;
    wait_until("the NEW server settles", || {
        std::thread::sleep(Duration::from_millis(100));
        let n = stat(p.b(), "curr_items");
        std::mem::replace(&mut last, n) == n
    });
    p.write_old(1);
    let r = expect_ok(&p.run(&[]));
    let stale = p.stale(1);
    assert!(
        stale.is_empty(),
        "{} stale keys after {sig}: {r}",
        stale.len()
    );
}

#[test]
fn sigint_mid_round_then_a_sync_updates_every_copy() {
    stopped_mid_round("sigint", "INT");
}

#[test]
fn sigterm_mid_round_then_a_sync_updates_every_copy() {
    stopped_mid_round("sigterm", "TERM");
}

#[test]
fn kill_9_mid_round_then_a_sync_updates_every_copy() {
    stopped_mid_round("kill9", "KILL");
}

#[test]
fn a_new_server_stalling_past_the_timeout_then_a_sync_updates_every_copy() {
    let Some(mc) = memcached() else { return };
    let p = Pair::new(&mc, "stall");
    p.write_old(0);
    let child = p.spawn(&["--rate", "3000", "--timeout", "1"], None);
    wait_until("a first copy", || stat(p.b(), "curr_items") > 0);
    signal(p.new_pid(), "STOP");
    let out = child.wait_with_output().unwrap();
    signal(p.new_pid(), "CONT");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains(p.b()), "the stalled server is named: {err}");
    p.write_old(1);
    let r = expect_ok(&p.run(&[]));
    let stale = p.stale(1);
    assert!(stale.is_empty(), "{} stale keys: {r}", stale.len());
}

/// Stores `value` for `key` and returns the CAS it got.
fn store_cas(addr: &str, k: &[u8], value: &[u8]) -> u64 {
    let (t, b) = tok(k);
    let mut req = format!("ms {t} {}{b} c T0\r\n", value.len()).into_bytes();
    req.extend_from_slice(value);
    req.extend_from_slice(b"\r\n");
    let r = String::from_utf8(talk(addr, &req)).unwrap();
    let cas = r.trim_end().split(' ').find_map(|f| f.strip_prefix('c'));
    cas.and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no CAS in {r:?}"))
}

#[test]
fn a_new_server_restarted_between_runs_keeps_client_writes_that_reuse_recorded_cas() {
    let Some(mc) = memcached() else { return };
    let mut p = Pair::new(&mc, "restart");
    p.write_old(0);
    expect_ok(&p.run(&[]));
    // The copies' CAS values, from the state file (memcached's CAS is the copy's version).
    let text = std::fs::read_to_string(&p.state).unwrap();
    let mut recorded: Vec<(u64, Vec<u8>)> = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            match f.as_slice() {
                ["c", _, k, _, _, dv, _] => {
                    Some((dv.trim_start_matches('?').parse().ok()?, unhex(k)))
                }
                // Format 1.
                ["c", _, _, _, dv, k] => Some((dv.parse().ok()?, unhex(k))),
                _ => None,
            }
        })
        .collect();
    assert_eq!(recorded.len(), N, "{}", &text[..text.len().min(500)]);
    recorded.sort();
    p.fleet.restart(1);
    // Clients write every key again on the restarted server, in the order of the recorded
    // CAS values: the new counter gives each client write its copy's recorded CAS.
    let mut same = 0;
    for (cas, k) in &recorded {
        same += usize::from(store_cas(p.b(), k, b"client") == *cas);
    }
    assert!(
        same > N / 2,
        "only {same} client writes reuse a recorded CAS"
    );
    // The sources change (half) or go (half): a sync would update or delete each copy.
    for i in 0..N {
        if i % 2 == 0 {
            store(p.a(), &key(i), &value(i, 1), i as u32, 0);
        } else {
            delete(p.a(), &key(i));
        }
    }
    let r = expect_ok(&p.run(&[]));
    let lost: Vec<usize> = (0..N)
        .filter(|&i| fetch(p.b(), &key(i)).map(|g| g.0) != Some(b"client".to_vec()))
        .collect();
    assert!(
        lost.is_empty(),
        "{} client writes overwritten or deleted: {r}",
        lost.len()
    );
}

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_second_run_on_the_same_state_file_is_refused_naming_the_first() {
    let Some(mc) = memcached() else { return };
    let p = Pair::new(&mc, "lock");
    p.write_old(0);
    let first = p.spawn(&["--rate", "1000"], None);
    wait_until("the first run copies", || stat(p.b(), "curr_items") > 0);
    let second = p.run(&[]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("process {}", first.id())),
        "the holder is named: {err}"
    );
    signal(first.id(), "INT");
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    expect_ok(&p.run(&[]));
    assert!(p.stale(0).is_empty());
}

#[test]
fn the_state_file_is_private_and_a_link_at_its_temporary_name_is_not_followed() {
    use std::os::unix::fs::PermissionsExt;
    let Some(mc) = memcached() else { return };
    let p = Pair::new(&mc, "files");
    p.write_old(0);
    // Links at the temporary names a run could choose (this build's and the one before's),
    // for the PIDs the next processes are likely to get.
    let target = p.dir.join("precious");
    std::fs::write(&target, "precious").unwrap();
    let mut next = std::process::Command::new("true").spawn().unwrap();
    let base = next.id();
    next.wait().unwrap();
    for pid in base..base + 200 {
        for name in [
            format!("{}.tmp{pid}", p.state),
            format!("{}.tmp{pid}-0", p.state),
        ] {
            let _ = std::os::unix::fs::symlink(&target, name);
        }
    }
    expect_ok(&p.run(&[]));
    expect_ok(&p.run(&[]));
    let target_now = std::fs::read_to_string(&target).unwrap();
    assert!(
        target_now == "precious",
        "the link's target was written: {} bytes",
        target_now.len()
    );
    let mode = std::fs::metadata(&p.state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "state file mode {mode:o}");
    assert!(p.stale(0).is_empty());
}

#[test]
fn records_too_long_to_be_records_are_refused_with_file_and_line() {
    let Some(mc) = memcached() else { return };
    let p = Pair::new(&mc, "oversized");
    p.write_old(0);
    let huge = "6b".repeat(32 << 20);
    // The longest line a record may have: a key of 65,535 bytes in hex and 2,048 bytes more.
    let max_line = 2 * 65535 + 2048;
    let line_bound = format!("a line of more than {max_line} bytes");
    let key_bound = "not a state record";
    let servers_bound = "a key of 300 bytes that the servers cannot be asked for";
    for (text, reason) in [
        // A 32 MiB key, in the format of the build before and in this one.
        (
            format!("ketama-migrate-state 1\nc {} {} 1 2 {huge}\n", p.a(), p.b()),
            &line_bound[..],
        ),
        (
            format!(
                "ketama-migrate-state 2\nc {} {huge} {} 1 2 -\nj\n",
                p.a(),
                p.b()
            ),
            &line_bound[..],
        ),
        // A short key on a line over the bound.
        (
            format!(
                "ketama-migrate-state 2\nc {} 6b {} 1 2 -{}\nj\n",
                p.a(),
                p.b(),
                " ".repeat(max_line)
            ),
            &line_bound[..],
        ),
        // A key one byte over the longest a record holds, on a line within the bound.
        (
            format!(
                "ketama-migrate-state 2\nc {} {} {} 1 2 -\nj\n",
                p.a(),
                "6b".repeat(65536),
                p.b()
            ),
            key_bound,
        ),
        // A key memcached cannot name (300 bytes).
        (
            format!(
                "ketama-migrate-state 2\nc {} {} {} 1 2 -\nj\n",
                p.a(),
                "6b".repeat(300),
                p.b()
            ),
            servers_bound,
        ),
    ] {
        std::fs::write(&p.state, &text).unwrap();
        let out = p.run(&[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("{}:2: {reason}", p.state)),
            "file, line and {reason:?}: {}",
            &err[..err.len().min(600)]
        );
        assert!(!err.contains(p.b()), "the NEW server is not blamed: {err}");
        assert_eq!(stat(p.b(), "curr_items"), 0, "nothing written");
    }
}

#[test]
fn no_key_file_stays_in_tmpdir_after_kill_9_and_a_rerun() {
    let Some(mc) = memcached() else { return };
    let p = Pair::new(&mc, "spool");
    let tmp = p.dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    p.write_old(0);
    let child = p.spawn(&["--rate", "2000"], Some(&tmp));
    wait_until("a first copy", || stat(p.b(), "curr_items") > 0);
    signal(child.id(), "KILL");
    let _ = child.wait_with_output();
    // What a run killed while its key set spilled to disk leaves: a scratch folder named
    // after its owner (PID namespace, PID, start time), here a process that has ended.
    let ns = std::fs::read_link("/proc/self/ns/pid").unwrap();
    let ns = ns.to_string_lossy();
    let ns = ns.trim_start_matches("pid:[").trim_end_matches(']');
    let mut ended = Command::new("true").spawn().unwrap();
    let dead = ended.id();
    ended.wait().unwrap();
    let left_dir = tmp.join(format!("ketama-scratch-{ns}-{dead}-1-0.d"));
    std::fs::create_dir(&left_dir).unwrap();
    std::fs::write(left_dir.join("0.known"), "keys").unwrap();
    let out = p.spawn(&[], Some(&tmp)).wait_with_output().unwrap();
    expect_ok(&out);
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    assert!(p.stale(0).is_empty());
}
