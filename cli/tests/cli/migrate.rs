//! `ketama migrate plan | run | verify` against real memcached processes on 127.0.0.1: a
//! weighted 10 -> 12 resize with flags, TTLs and awkward keys, the second run that syncs,
//! shards, OLD = NEW, a placement switch on the same servers, a listing too big to keep in
//! memory, and `simulate --live --migrate`.
//! Faults are in migrate_faults.rs.
//!
//! Needs Debian's `memcached` (tests/setup.sh installs it). Without it each test says so and
//! passes, unless KETAMA_REQUIRE_MEMCACHED=1 (as tests/run-all.sh sets), where it fails.
//! Every process a test starts is killed by its PID when the test ends (Drop).

use crate::common;

use common::ketama_in;
use common::memcached::{json, memcached, stat, tmpdir, Fleet};
use common::migrate::*;

use std::time::{Duration, Instant};

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
    assert!(text.starts_with("ketama-migrate-state 2\n"));
    let copies = text.lines().filter(|l| l.starts_with("c ")).count();
    assert_eq!(copies, moving.len(), "{text}");
    assert!(text.ends_with("\nj\n"), "compacted: no journal left");

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
    let dir = tmpdir("migrate", "same");
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

/// Copying overlaps listing, but never writes into a server before its own listing is done:
/// a copy written there first would be listed as a misplaced (stale) key of that server.
#[test]
fn a_placement_switch_on_the_same_servers_lists_no_copy_as_a_source_key() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("migrate", "switch");
    let fleet = Fleet::start(&mc, 3, MC_ARGS);
    let f = servers_file(&dir, "s", &fleet.labels, &[1, 1, 1]);
    let old_ring = ring("libmemcached-weighted", &fleet.labels, &[1, 1, 1]);
    let new_ring = ring("twemproxy-modula", &fleet.labels, &[1, 1, 1]);
    let n = 6000;
    let mut moving = Vec::new();
    for i in 0..n {
        let k = key(i);
        store(owner(&old_ring, &k), &k, &value(i, 0), i as u32, 0);
        if owner(&old_ring, &k) != owner(&new_ring, &k) {
            moving.push(i);
        }
    }
    let r = ok(&ketama(&[
        "migrate",
        "run",
        "--servers",
        &f,
        "--to",
        &f,
        "--profile",
        "libmemcached-weighted",
        "--to-profile",
        "twemproxy-modula",
        "--format",
        "json",
    ]));
    let c = &r["counts"];
    assert_eq!(c["listed"], n as u64, "{r}");
    assert_eq!(c["stale"], 0, "{r}");
    assert_eq!(c["copied"], moving.len() as u64, "{r}");
    for &i in &moving {
        let k = key(i);
        let got = fetch(owner(&new_ring, &k), &k).expect("copied");
        assert_eq!((got.0, got.1), (value(i, 0), i as u32));
    }
}

#[test]
fn a_listing_past_what_memory_keeps_goes_to_disk_and_every_key_is_copied_once() {
    let Some(mc) = memcached() else { return };
    let dir = tmpdir("migrate", "big");
    let fleet = Fleet::start(&mc, 2, &["-m", "256", "-t", "1"]);
    let old = servers_file(&dir, "old", &fleet.labels[..1], &[1]);
    let new = servers_file(&dir, "new", &fleet.labels[1..], &[1]);
    // More keys than a listing keeps in memory (262,144): the duplicate check moves to disk.
    let n = 300_000usize;
    let item = |i: usize| {
        (
            format!("big:{i}").into_bytes(),
            format!("v{i}").into_bytes(),
            (i % 7) as u32,
        )
    };
    store_many(&fleet.labels[0], (0..n).map(item));
    assert_eq!(stat(&fleet.labels[0], "curr_items"), n as u64);
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let place = [
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libmemcached-weighted",
    ];
    let plan = ok(&ketama_in(
        &tmp,
        &[&["migrate", "plan"][..], &place, &["--format", "json"]].concat(),
    ));
    assert_eq!(plan["move"]["keys"], n as u64, "{plan}");
    assert_eq!(plan["servers"][0]["keys"], n as u64, "{plan}");
    let r = ok(&ketama_in(
        &tmp,
        &[&["migrate", "run"][..], &place, &["--format", "json"]].concat(),
    ));
    let c = &r["counts"];
    assert_eq!(c["listed"], n as u64, "{r}");
    assert_eq!(c["copied"], n as u64, "{r}");
    assert_eq!(stat(&fleet.labels[1], "curr_items"), n as u64);
    for i in (0..n).step_by(9973) {
        let (k, v, flags) = item(i);
        assert_eq!(fetch(&fleet.labels[1], &k), Some((v, flags, -1)), "key {i}");
    }
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "scratch files left: {left:?}");
}
