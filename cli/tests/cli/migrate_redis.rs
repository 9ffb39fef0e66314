//! `ketama migrate`, `audit` and `simulate --live` with `--backend redis`, against real
//! redis-server processes on 127.0.0.1: a 4 -> 5 resize (plan, run, verify, audit), an ACL
//! user with its password from a file or the environment (and never on the command line), a
//! wrong password, TLS with the right and a wrong CA, a Redis Cluster node refused, a server
//! killed mid-run (exit 3, a rerun completes), Ctrl-C within a second, one server under two
//! labels (joined across the files, refused within one).
//!
//! Needs Debian's `redis-server` (installed when missing). Without it each test says so and
//! passes, unless KETAMA_REQUIRE_REDIS=1 (as tests/run-all.sh sets), where it fails. Every
//! process a test starts is killed when the test ends (Drop, and with the test process).

use crate::common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::memcached::{json, tmpdir};
use common::migrate::{ketama, ok, owner, ring, servers_file};
use ketama_core::Ring;
use ketama_testkit::redis::{fleet, labels, redis_server, Redis, TlsSetup};
use redis::Commands;

const BIN: &str = env!("CARGO_BIN_EXE_ketama");
const PROFILE: &str = "libketama";

/// OLD: the first 4 servers; NEW: all 5 (weight 1 each).
struct Setup {
    dir: std::path::PathBuf,
    procs: Vec<Redis>,
    old: String,
    new: String,
    old_ring: Ring,
    new_ring: Ring,
}

fn setup(bin: &str, name: &str) -> Setup {
    let dir = tmpdir("redis", name);
    let procs = fleet(bin, 5);
    let all = labels(&procs);
    let w = [1u32; 5];
    Setup {
        old: servers_file(&dir, "old", &all[..4], &w[..4]),
        new: servers_file(&dir, "new", &all, &w),
        old_ring: ring(PROFILE, &all[..4], &w[..4]),
        new_ring: ring(PROFILE, &all, &w),
        dir,
        procs,
    }
}

impl Setup {
    fn at(&self, label: &str) -> &Redis {
        self.procs.iter().find(|p| p.label == label).unwrap()
    }

    /// Writes `n` string keys (a TTL on every other) where the OLD placement puts them;
    /// the moving ones.
    fn write_old(&self, n: usize) -> Vec<String> {
        let mut pipes: Vec<redis::Pipeline> = self.procs.iter().map(|_| redis::pipe()).collect();
        let mut moving = Vec::new();
        for i in 0..n {
            let k = format!("key:{i}");
            let o = owner(&self.old_ring, k.as_bytes());
            let p = self.procs.iter().position(|p| p.label == o).unwrap();
            if i % 2 == 0 {
                pipes[p].set_ex(&k, format!("v{i}"), 600);
            } else {
                pipes[p].set(&k, format!("v{i}"));
            }
            if o != owner(&self.new_ring, k.as_bytes()) {
                moving.push(k);
            }
        }
        for (p, pipe) in self.procs.iter().zip(pipes) {
            let _: () = pipe.query(&mut p.client()).unwrap();
        }
        moving
    }

    fn args<'a>(&'a self, verb: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut v = vec![
            "migrate",
            verb,
            "--servers",
            &self.old,
            "--to",
            &self.new,
            "--profile",
            PROFILE,
            "--backend",
            "redis",
            "--format",
            "json",
        ];
        v.extend_from_slice(extra);
        v
    }

    fn new_value(&self, k: &str) -> Option<String> {
        self.at(owner(&self.new_ring, k.as_bytes()))
            .client()
            .get(k)
            .unwrap()
    }
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_resize_plan_run_verify_and_audit() {
    let Some(bin) = redis_server() else { return };
    let s = setup(&bin, "resize");
    let moving = s.write_old(3000);
    let plan = ok(&ketama(&s.args("plan", &[])));
    assert_eq!(plan["move"]["keys"], moving.len() as u64, "{plan}");
    assert_eq!(plan["servers"][0]["listing"], "SCAN");
    let before = ketama(&s.args("verify", &[]));
    assert_eq!(
        before.status.code(),
        Some(1),
        "the moving keys are unreachable"
    );
    assert_eq!(json(&before)["unreachable"], moving.len() as u64);
    let run = ok(&ketama(&s.args("run", &[])));
    assert_eq!(run["counts"]["copied"], moving.len() as u64, "{run}");
    for k in &moving {
        let i: usize = k[4..].parse().unwrap();
        assert_eq!(s.new_value(k), Some(format!("v{i}")), "{k}");
    }
    let v = ok(&ketama(&s.args("verify", &[])));
    assert_eq!(v["unreachable"], 0, "{v}");
    assert_eq!(v["old_copies"], moving.len() as u64, "{v}");
    // audit: the OLD fleet's keys sit where the profile puts them.
    let a = ok(&ketama(&[
        "audit",
        "--servers",
        &s.old,
        "--profile",
        PROFILE,
        "--backend",
        "redis",
        "--format",
        "json",
    ]));
    assert_eq!(a["profiles"][0]["agree"], 1.0, "{a}");
    assert_eq!(a["keys"], 3000, "{a}");
    // Redis options need --backend redis.
    let out = ketama(&[
        "migrate",
        "plan",
        "--servers",
        &s.old,
        "--to",
        &s.new,
        "-p",
        PROFILE,
        "--db",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--db needs --backend redis"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&s.dir);
}

#[test]
fn an_acl_user_logs_in_with_a_password_never_on_the_command_line() {
    let Some(bin) = redis_server() else { return };
    let s = setup(&bin, "acl");
    let moving = s.write_old(600);
    for p in &s.procs {
        let mut c = p.client();
        // What the tool needs, and no more.
        redis::cmd("ACL")
            .arg(
                &[
                    "SETUSER",
                    "migrator",
                    "on",
                    ">s3cret-pw",
                    "~*",
                    "+scan",
                    "+dbsize",
                    "+pttl",
                    "+memory|usage",
                    "+dump",
                    "+restore",
                    "+del",
                    "+exists",
                    "+eval",
                    "+info",
                    "+select",
                    "+time",
                    "+ping",
                ][..],
            )
            .query::<()>(&mut c)
            .unwrap();
        redis::cmd("ACL")
            .arg(&["SETUSER", "default", "off"][..])
            .query::<()>(&mut c)
            .unwrap();
    }
    // No login: refused, named.
    let out = ketama(&s.args("plan", &[]));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("requires a login"),
        "{}",
        stderr(&out)
    );
    let pw = s.dir.join("pw");
    std::fs::write(&pw, "wrong\n").unwrap();
    let pw = pw.to_str().unwrap();
    let out = ketama(&s.args("run", &["--user", "migrator", "--password-file", pw]));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("refused the login of user 'migrator'") && err.contains("WRONGPASS"),
        "{err}"
    );
    assert!(err.contains("nothing was copied"), "{err}");
    assert!(!err.contains("wrong\n") && !String::from_utf8_lossy(&out.stdout).contains("wrong"));
    // There is no option that takes the password itself.
    let out = ketama(&s.args("run", &["--password", "s3cret-pw"]));
    assert_eq!(out.status.code(), Some(2));
    // From the environment, and never in /proc/<pid>/cmdline.
    let mut child = Command::new(BIN)
        .args(s.args("run", &["--user", "migrator", "--db", "0", "--rate", "300"]))
        .env("KETAMA_PASSWORD", "s3cret-pw")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", child.id())).unwrap();
    assert!(
        !String::from_utf8_lossy(&cmdline).contains("s3cret"),
        "{cmdline:?}"
    );
    let _ = child.wait();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["counts"]["copied"], moving.len() as u64);
    // The same from the file.
    std::fs::write(s.dir.join("pw"), "s3cret-pw\n").unwrap();
    let v = ok(&ketama(
        &s.args("verify", &["--user", "migrator", "--password-file", pw]),
    ));
    assert_eq!(v["unreachable"], 0, "{v}");
    let _ = std::fs::remove_dir_all(&s.dir);
}

#[test]
fn tls_with_the_right_ca_and_a_wrong_one() {
    let Some(bin) = redis_server() else { return };
    let d = tmpdir("redis", "tls");
    let ca = ketama_testkit::tls::ca(&d, "ca");
    let other = ketama_testkit::tls::ca(&d, "other");
    let cert = ketama_testkit::tls::leaf(&d, "server", &ca, "IP:127.0.0.1", "serverAuth");
    let tls = TlsSetup {
        server: cert,
        ca: ca.clone(),
        require_client: false,
    };
    let procs: Vec<Redis> = (0..3).map(|_| Redis::start_tls(&bin, &tls)).collect();
    let all = labels(&procs);
    let w = [1u32; 3];
    let (old_ring, new_ring) = (ring(PROFILE, &all[..2], &w[..2]), ring(PROFILE, &all, &w));
    let (old, new) = (
        servers_file(&d, "old", &all[..2], &w[..2]),
        servers_file(&d, "new", &all, &w),
    );
    let mut moving = Vec::new();
    for i in 0..400 {
        let k = format!("k{i}");
        let o = owner(&old_ring, k.as_bytes());
        let p = procs.iter().find(|p| p.label == o).unwrap();
        let _: () = p.client().set(&k, i).unwrap();
        if o != owner(&new_ring, k.as_bytes()) {
            moving.push(k);
        }
    }
    let args = |ca: &str| {
        [
            "migrate",
            "run",
            "--servers",
            &old,
            "--to",
            &new,
            "-p",
            PROFILE,
            "--backend",
            "redis",
            "--tls",
            "--tls-ca",
            ca,
            "--format",
            "json",
        ]
        .map(String::from)
    };
    let out = ketama(&args(other.cert()).each_ref().map(String::as_str));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("certificate not trusted"), "{err}");
    let r = ok(&ketama(&args(ca.cert()).each_ref().map(String::as_str)));
    assert_eq!(r["counts"]["copied"], moving.len() as u64, "{r}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_cluster_node_is_refused() {
    let Some(bin) = redis_server() else { return };
    let d = tmpdir("redis", "cluster");
    let conf = d.join("nodes.conf");
    let node = Redis::start(
        &bin,
        &[
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            conf.to_str().unwrap(),
        ],
    );
    let plain = Redis::start(&bin, &[]);
    let old = servers_file(&d, "old", std::slice::from_ref(&node.label), &[1]);
    let new = servers_file(
        &d,
        "new",
        &[node.label.clone(), plain.label.clone()],
        &[1, 1],
    );
    for verb in ["plan", "run", "verify"] {
        let out = ketama(&[
            "migrate",
            verb,
            "--servers",
            &old,
            "--to",
            &new,
            "-p",
            PROFILE,
            "--backend",
            "redis",
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{verb}: {err}");
        assert!(
            err.contains("Redis Cluster") && err.contains(&node.label),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_server_killed_mid_run_is_named_and_a_rerun_completes() {
    let Some(bin) = redis_server() else { return };
    let mut s = setup(&bin, "kill");
    let state = s.dir.join("state").to_string_lossy().into_owned();
    let moving = s.write_old(8000);
    let child = Command::new(BIN)
        .args(s.args(
            "run",
            &["--state", &state, "--rate", "1500", "--concurrency", "2"],
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let victim = s.procs[4].label.clone();
    s.procs[4].stop();
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains(&victim) && err.contains("not copied"), "{err}");
    let j = json(&out);
    assert!(j["counts"]["failed"].as_u64().unwrap() > 0, "{j}");
    s.procs[4].restart();
    let r = ok(&ketama(&s.args("run", &["--state", &state])));
    assert_eq!(r["counts"]["failed"], 0, "{r}");
    for k in &moving {
        let i: usize = k[4..].parse().unwrap();
        assert_eq!(s.new_value(k), Some(format!("v{i}")), "{k}");
    }
    let _ = std::fs::remove_dir_all(&s.dir);
}

#[test]
fn ctrl_c_stops_within_a_second_and_a_rerun_resumes() {
    let Some(bin) = redis_server() else { return };
    let s = setup(&bin, "ctrlc");
    let state = s.dir.join("state").to_string_lossy().into_owned();
    let moving = s.write_old(4000);
    let run = s.args("run", &["--state", &state, "--rate", "300"]);
    let (out, stopped) = common::interrupted(&run, Duration::from_millis(800));
    ketama_testkit::signal::assert_stopped_in_time(stopped);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let first = json(&out)["counts"]["copied"].as_u64().unwrap();
    assert!(first > 0 && first < moving.len() as u64, "{first}");
    // The state file is this user's only, and its lock went with the run.
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&state).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(!std::path::Path::new(&format!("{state}.lock")).exists());
    }
    let r = ok(&ketama(&s.args("run", &["--state", &state])));
    // Writes the stop cut short are intents, settled by the rerun rather than copied again.
    let n = |k: &str| r["counts"][k].as_u64().unwrap();
    assert_eq!(
        n("copied") + n("settled"),
        moving.len() as u64 - first,
        "{r}"
    );
    assert_eq!(n("unchanged"), first, "{r}");
    let _ = std::fs::remove_dir_all(&s.dir);
}

#[test]
fn one_redis_under_two_labels_loses_no_key_to_delete_moved() {
    let Some(bin) = redis_server() else { return };
    let dir = tmpdir("redis", "alias");
    let p = Redis::start(&bin, &[]);
    let port = p.label.rsplit(':').next().unwrap().to_string();
    let mut c = p.client();
    for i in 0..300 {
        let _: () = c.set(format!("key:{i}"), i).unwrap();
    }
    let old = servers_file(&dir, "old", &[format!("127.0.0.1:{port}")], &[1]);
    let new = servers_file(&dir, "new", &[format!("localhost:{port}")], &[1]);
    let verb = |v: &'static str, extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "migrate",
            v,
            "--servers",
            &old,
            "--to",
            &new,
            "--profile",
            PROFILE,
            "--backend",
            "redis",
            "--format",
            "json",
        ]
        .map(String::from)
        .to_vec();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let call = |a: Vec<String>| ok(&ketama(&a.iter().map(String::as_str).collect::<Vec<_>>()));
    // Its run id joins the two labels: nothing moves, nothing is deleted.
    let plan = call(verb("plan", &[]));
    assert_eq!(plan["move"]["keys"], 0, "{plan}");
    assert_eq!(plan["stay"]["keys"], 300, "{plan}");
    let del = call(verb("run", &["--delete-moved"]));
    assert_eq!(del["counts"]["deleted"], 0, "{del}");
    let left: usize = redis::cmd("DBSIZE").query(&mut c).unwrap();
    assert_eq!(left, 300);
    // Named twice in one file, it is refused.
    let twice = servers_file(
        &dir,
        "twice",
        &[format!("127.0.0.1:{port}"), format!("localhost:{port}")],
        &[1, 1],
    );
    let out = ketama(&[
        "migrate",
        "plan",
        "--servers",
        &twice,
        "--to",
        &new,
        "--profile",
        PROFILE,
        "--backend",
        "redis",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("names one server twice"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
