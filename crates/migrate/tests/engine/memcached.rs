//! The engine on real memcached processes (the memcached backend end to end): what moves is
//! copied with its flags, a key a NEW-placement client wrote first is kept, verify passes;
//! a memcached without the meta protocol refuses the run before anything is written.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use ketama_core::{Profile, Ring, Server};
use ketama_memcache::Options;
use ketama_migrate::backend::ServerErrorKind;
use ketama_migrate::run::get;
use ketama_migrate::{Fleet, Memcached, Placement, RunError, RunOptions};
use ketama_testkit::fake::{Fake, Reply, LIFETIME};
use ketama_testkit::memcached::{memcached, Fleet as Processes};
use ketama_testkit::meta::{fetch, store};

fn fleet(name: &str, labels: &[String]) -> Fleet {
    let servers: Vec<Server> = labels
        .iter()
        .map(|l| Server::parse(l, 1).unwrap())
        .collect();
    let p = Profile::by_name("libmemcached-weighted").unwrap();
    let ring = Ring::with_servers(p, None, servers.clone()).unwrap();
    Fleet::new(name, servers, ring)
}

fn backend() -> Memcached {
    let stop = Arc::new(AtomicBool::new(false));
    Memcached::new(Options::new(Duration::from_secs(10), stop))
}

/// Text keys, and binary ones (spaces, control bytes) that travel in base64.
fn key(i: usize) -> Vec<u8> {
    if i % 3 == 0 {
        let mut k = format!("bin {i}").into_bytes();
        k.extend_from_slice(&[0, 0xff, b'\n']);
        k
    } else {
        format!("user:{i}").into_bytes()
    }
}

#[test]
fn a_resize_copies_what_moves_and_keeps_newer_keys() {
    let Some(mc) = memcached() else { return };
    let procs = Processes::start(&mc, 4, &["-m", "64", "-t", "1"]);
    let pl = Placement::new(
        fleet("old", &procs.labels[..3]),
        fleet("new", &procs.labels),
    );
    let owner = |f: &Fleet, k: &[u8]| f.endpoints[f.owner(k).unwrap()].addr.clone();
    let mut moving = Vec::new();
    for i in 0..600 {
        let k = key(i);
        store(
            &owner(&pl.old, &k),
            &k,
            format!("v{i}").as_bytes(),
            i as u32,
            0,
        );
        if owner(&pl.old, &k) != owner(&pl.new, &k) {
            moving.push(i);
        }
    }
    assert!(moving.len() > 50, "{}", moving.len());
    let newer = key(moving[0]);
    store(&owner(&pl.new, &newer), &newer, b"newer", 7, 0);
    let o = ketama_migrate::run(&pl, &backend(), &RunOptions::new(Arc::default())).unwrap();
    assert!(!o.incomplete(), "{:?}", o.dead);
    assert_eq!(get(&o.counts.copied), moving.len() as u64 - 1);
    assert_eq!(get(&o.counts.kept), 1);
    for &i in &moving[1..] {
        let k = key(i);
        let (v, flags, _) = fetch(&owner(&pl.new, &k), &k).expect("copied");
        assert_eq!((v, flags), (format!("v{i}").into_bytes(), i as u32));
    }
    assert_eq!(fetch(&owner(&pl.new, &newer), &newer).unwrap().0, b"newer");
    let checks = ketama_migrate::verify(&pl, &backend()).unwrap();
    assert!(checks.iter().all(|c| c.unreachable.is_empty()));
}

#[test]
fn a_memcached_without_meta_commands_refuses_the_run() {
    let old = Fake::start(
        vec![
            ("version", Reply::Bytes(b"VERSION 1.4.25\r\n".to_vec())),
            (
                "stats",
                Reply::Bytes(b"STAT time 1700000000\r\nEND\r\n".to_vec()),
            ),
        ],
        LIFETIME,
    );
    let labels = vec![old.addr().to_string()];
    let pl = Placement::new(
        fleet("old", &labels),
        fleet("new", &["127.0.0.1:1".to_string(), old.addr().to_string()]),
    );
    match ketama_migrate::run(&pl, &backend(), &RunOptions::new(Arc::default())) {
        Err(RunError::Unsupported(e)) => {
            assert_eq!(e.kind, ServerErrorKind::Unsupported);
            assert!(
                e.message.contains("1.4.25") && e.message.contains(old.addr()),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
}
