//! One server under two labels (`127.0.0.1:P` and `localhost:P`, `[::1]:P` and
//! `[0:0::1]:P`, `[::1]:P` and `localhost:P`), on real memcached processes: across OLD and
//! NEW it is one server (a key
//! "moving" between its labels stays: `plan` moves nothing, `run` copies nothing, `verify`
//! passes, `--delete-moved` deletes nothing), and named twice in one fleet it is refused by
//! `plan`, `run` and `verify` (exit 2, both labels named, nothing written or deleted).

use crate::common;

use common::memcached::{json, memcached, tmpdir, Fleet};
use common::migrate::{fetch, ketama, ok, ring, store_many};

fn file(dir: &std::path::Path, name: &str, labels: &[String]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, labels.join("\n") + "\n").unwrap();
    p.to_string_lossy().into_owned()
}

fn verb<'a>(v: &'a str, old: &'a str, new: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "migrate",
        v,
        "--servers",
        old,
        "--to",
        new,
        "--profile",
        "libketama",
        "--format",
        "json",
    ];
    a.extend_from_slice(extra);
    a
}

fn port(label: &str) -> &str {
    label.rsplit(':').next().unwrap()
}

fn keys(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| format!("user:{i}").into_bytes()).collect()
}

#[test]
fn one_server_under_two_labels_across_old_and_new_stays_one_server() {
    let Some(mc) = memcached() else { return };
    // Listening on 127.0.0.1 and ::1.
    let fleet = Fleet::start(&mc, 1, &["-m", "16", "-l", "::1"]);
    let p = port(&fleet.labels[0]).to_string();
    let dir = tmpdir("alias", "across");
    store_many(
        &fleet.labels[0],
        keys(500).into_iter().map(|k| (k.clone(), k, 0)),
    );
    for (a, b) in [
        (format!("127.0.0.1:{p}"), format!("localhost:{p}")),
        (format!("[::1]:{p}"), format!("[0:0::1]:{p}")),
    ] {
        let old = file(&dir, "old", std::slice::from_ref(&a));
        let new = file(&dir, "new", std::slice::from_ref(&b));
        let plan = ok(&ketama(&verb("plan", &old, &new, &[])));
        assert_eq!(plan["move"]["keys"], 0, "{a} -> {b}: {plan}");
        assert_eq!(plan["stay"]["keys"], 500, "{plan}");
        let run = ok(&ketama(&verb("run", &old, &new, &[])));
        assert_eq!(run["counts"]["moving"], 0, "{run}");
        let verify = ok(&ketama(&verb("verify", &old, &new, &[])));
        assert_eq!(verify["placed"], 500, "{verify}");
        let del = ok(&ketama(&verb("run", &old, &new, &["--delete-moved"])));
        assert_eq!(del["counts"]["deleted"], 0, "{del}");
        for k in keys(500) {
            assert!(
                fetch(&fleet.labels[0], &k).is_some(),
                "{a} -> {b}: a key lost"
            );
        }
    }
}

#[test]
fn three_servers_relabelled_lose_no_key_to_delete_moved() {
    let Some(mc) = memcached() else { return };
    let fleet = Fleet::start(&mc, 3, &["-m", "16"]);
    let dir = tmpdir("alias", "three");
    let new_labels: Vec<String> = fleet
        .labels
        .iter()
        .map(|l| format!("localhost:{}", port(l)))
        .collect();
    let old = file(&dir, "old", &fleet.labels);
    let new = file(&dir, "new", &new_labels);
    let old_ring = ring("libketama", &fleet.labels, &[1, 1, 1]);
    let new_ring = ring("libketama", &new_labels, &[1, 1, 1]);
    let at = |label: &str| format!("127.0.0.1:{}", port(label));
    let all = keys(3000);
    for k in &all {
        let owner = &old_ring.locate(k).unwrap().label;
        store_many(owner, std::iter::once((k.clone(), k.clone(), 0)));
    }
    // Keys whose NEW label names another server move; the others stay where they are.
    let really_moving = all
        .iter()
        .filter(|k| {
            at(&old_ring.locate(k).unwrap().label) != at(&new_ring.locate(k).unwrap().label)
        })
        .count() as u64;
    let run = ok(&ketama(&verb("run", &old, &new, &[])));
    assert_eq!(run["counts"]["moving"], really_moving, "{run}");
    assert_eq!(run["counts"]["copied"], really_moving, "{run}");
    ok(&ketama(&verb("verify", &old, &new, &[])));
    let del = ok(&ketama(&verb("run", &old, &new, &["--delete-moved"])));
    assert_eq!(del["counts"]["deleted"], really_moving, "{del}");
    for k in &all {
        let owner = at(&new_ring.locate(k).unwrap().label);
        assert_eq!(fetch(&owner, k).map(|x| x.0), Some(k.clone()), "a key lost");
    }
}

#[test]
fn one_server_named_twice_in_one_fleet_is_refused() {
    let Some(mc) = memcached() else { return };
    let fleet = Fleet::start(&mc, 2, &["-m", "16", "-l", "::1"]);
    let dir = tmpdir("alias", "twice");
    store_many(
        &fleet.labels[0],
        keys(200).into_iter().map(|k| (k.clone(), k, 0)),
    );
    let p = port(&fleet.labels[0]);
    let twice_v4 = [fleet.labels[0].clone(), format!("localhost:{p}")];
    // (`[::1]` and `[0:0::1]` in one file are refused as duplicates by the file reader.)
    let twice_v6 = [format!("[::1]:{p}"), format!("localhost:{p}")];
    let other = [fleet.labels[1].clone()];
    for (old, new, side) in [
        (&twice_v4[..], &other[..], "OLD"),
        (&other[..], &twice_v6[..], "NEW"),
    ] {
        let (o, n) = (file(&dir, "old", old), file(&dir, "new", new));
        for args in [
            verb("plan", &o, &n, &[]),
            verb("run", &o, &n, &[]),
            verb("run", &o, &n, &["--delete-moved"]),
            verb("verify", &o, &n, &[]),
        ] {
            let out = ketama(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            let said = format!("the {side} servers file names one server twice");
            assert!(err.contains(&said), "{err}");
            let named = if side == "OLD" { old } else { new };
            for label in named {
                assert!(err.contains(label.as_str()), "{label} named: {err}");
            }
            assert!(out.stdout.is_empty() || json(&out).is_object());
        }
    }
    for k in keys(200) {
        assert!(fetch(&fleet.labels[0], &k).is_some(), "a key deleted");
    }
    assert_eq!(common::memcached::stat(&fleet.labels[1], "curr_items"), 0);
}
