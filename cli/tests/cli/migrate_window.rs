//! The window before the switch, on real memcached processes: with a writer overwriting
//! moving keys at its OLD server, `run --state --until-quiet N` repeats syncs until a pass
//! changes fewer than N keys (or --max-passes), and reports each pass; once the writer
//! pauses, syncing until a pass changes nothing leaves no moving key stale at its NEW owner.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::memcached::{json, memcached, tmpdir, Fleet};
use common::migrate::{fetch, ketama, ok, ring, servers_file, store, store_many};

#[test]
fn syncing_until_quiet_then_pausing_writes_leaves_nothing_stale() {
    let Some(mc) = memcached() else { return };
    let fleet = Fleet::start(&mc, 2, &["-m", "32"]);
    let dir = tmpdir("window", "quiet");
    let (a, b) = (fleet.labels[0].clone(), fleet.labels[1].clone());
    let old = servers_file(&dir, "old", std::slice::from_ref(&a), &[1]);
    let new = servers_file(&dir, "new", &[a.clone(), b.clone()], &[1, 1]);
    let state = dir.join("state").to_string_lossy().into_owned();
    let new_ring = ring("libmemcached-weighted", &[a.clone(), b.clone()], &[1, 1]);
    let keys: Vec<Vec<u8>> = (0..2000)
        .map(|i| format!("user:{i}").into_bytes())
        .collect();
    store_many(&a, keys.iter().map(|k| (k.clone(), b"v0".to_vec(), 0)));
    let moving: Vec<Vec<u8>> = keys
        .iter()
        .filter(|k| new_ring.locate(k).unwrap().label == b)
        .cloned()
        .collect();
    let args = |extra: &[&'static str]| {
        let mut v: Vec<String> = [
            "migrate",
            "run",
            "--servers",
            &old,
            "--to",
            &new,
            "--profile",
            "libmemcached-weighted",
            "--state",
            &state,
            "--format",
            "json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |extra: &[&'static str]| {
        let v = args(extra);
        ketama(&v.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let first = ok(&run(&[]));
    assert_eq!(first["counts"]["copied"], moving.len() as u64);

    // A writer overwrites moving keys at their OLD server, about 1,000 writes a second.
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicU64::new(0));
    let writer = {
        let (stop, written, a, moving) = (stop.clone(), written.clone(), a.clone(), moving.clone());
        std::thread::spawn(move || {
            let mut n = 0usize;
            while !stop.load(Ordering::SeqCst) {
                let k = &moving[n % moving.len()];
                store(&a, k, format!("v{}", n + 1).as_bytes(), 0, 0);
                written.fetch_add(1, Ordering::SeqCst);
                n += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let w0 = written.load(Ordering::SeqCst);
    let busy = run(&["--until-quiet", "5", "--max-passes", "4"]);
    let rate = (written.load(Ordering::SeqCst) - w0) as f64 / t.elapsed().as_secs_f64();
    let j = ok(&busy);
    let q = &j["until_quiet"];
    let passes = q["passes"].as_array().unwrap();
    assert!((1..=4).contains(&passes.len()), "{q}");
    let last = passes.last().unwrap()["changed"].as_u64().unwrap();
    assert_eq!(q["quiet"], last < 5, "{q}");
    assert_eq!(q["residual"], last);
    // The clients would switch now: the writer stops, and what it wrote since each key's
    // last copy is stale.
    stop.store(true, Ordering::SeqCst);
    writer.join().unwrap();
    let stale_busy = stale(&a, &b, &moving);
    eprintln!(
        "writers at {rate:.0}/s: {} passes ({:.2} s the last), last changed {last}; {stale_busy} of {} moving keys stale when the writer stopped",
        passes.len(),
        passes.last().unwrap()["seconds"].as_f64().unwrap(),
        moving.len()
    );

    // Writes paused: syncs until a pass changes nothing leave nothing stale.
    let paused = ok(&run(&["--until-quiet", "1", "--max-passes", "5"]));
    let q = &paused["until_quiet"];
    assert_eq!(q["quiet"], true, "{q}");
    assert_eq!(q["residual"], 0, "{q}");
    assert_eq!(stale(&a, &b, &moving), 0);
    // The threshold needs a state file.
    let out = ketama(&[
        "migrate",
        "run",
        "--servers",
        &old,
        "--to",
        &new,
        "--profile",
        "libmemcached-weighted",
        "--until-quiet",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let _ = json;
}

/// Moving keys whose copy at `b` differs from the source at `a`.
fn stale(a: &str, b: &str, moving: &[Vec<u8>]) -> usize {
    moving
        .iter()
        .filter(|k| fetch(a, k).map(|x| x.0) != fetch(b, k).map(|x| x.0))
        .count()
}
