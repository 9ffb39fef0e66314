//! The engine on real redis-server processes (the Redis backend end to end): a resize
//! copies every data type with its TTL and keeps keys a client wrote first at their NEW
//! owner; a sync run updates copies whose source changed, re-copies a copy that went, deletes
//! copies whose source is gone and never touches a copy a client changed; `delete_moved`
//! deletes only sources unchanged since they were listed and held by their NEW owner.
//!
//! Needs Debian's `redis-server` (installed when missing); without it each test says so and
//! passes, unless KETAMA_REQUIRE_REDIS=1.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ketama_core::{Profile, Ring, Server};
use ketama_migrate::run::get;
use ketama_migrate::{Fleet, Placement, Progress, Redis, RunOptions};
use ketama_testkit::redis::{fleet as servers, labels, redis_server, Redis as Process};
use redis::Commands;

fn fleet(name: &str, labels: &[String]) -> Fleet {
    let servers: Vec<Server> = labels
        .iter()
        .map(|l| Server::parse(l, 1).unwrap())
        .collect();
    let p = Profile::by_name("libmemcached-weighted").unwrap();
    let ring = Ring::with_servers(p, None, servers.clone()).unwrap();
    Fleet::new(name, servers, ring)
}

fn backend() -> Redis {
    let stop = Arc::new(AtomicBool::new(false));
    Redis::new(ketama_redis::Options::new(ketama_memcache::Options::new(
        Duration::from_secs(10),
        stop,
    )))
}

/// The process of the server `f` places `k` on.
fn owner<'a>(procs: &'a [Process], f: &Fleet, k: &[u8]) -> &'a Process {
    let label = &f.endpoints[f.owner(k).unwrap()].label;
    procs.iter().find(|p| &p.label == label).unwrap()
}

/// Key `i` (binary bytes in some).
fn key(i: usize) -> Vec<u8> {
    let mut k = format!("key:{i}").into_bytes();
    if i % 7 == 0 {
        k.extend_from_slice(&[0, b' ', 0xff, b'\n']);
    }
    k
}

/// Writes key `i` with a value of type `i % 6` (generation `gen`), with a TTL on every other.
fn write(c: &mut redis::Connection, i: usize, gen: u32) -> Vec<u8> {
    let k = key(i);
    let v = format!("v{i}-{gen}");
    let _: () = c.del(&k).unwrap();
    match i % 6 {
        0 => c.set(&k, &v).unwrap(),
        1 => c
            .hset_multiple(&k, &[("a", v.as_str()), ("b", "2")])
            .unwrap(),
        2 => c.rpush(&k, &[v.as_str(), "x", "y"]).unwrap(),
        3 => c.sadd(&k, &[v.as_str(), "m"]).unwrap(),
        4 => c
            .zadd_multiple(&k, &[(1.0, v.as_str()), (2.0, "z")])
            .unwrap(),
        _ => redis::cmd("XADD")
            .arg(&k)
            .arg("*")
            .arg("f")
            .arg(&v)
            .query::<()>(c)
            .unwrap(),
    }
    if i % 2 == 1 {
        let _: () = c.pexpire(&k, 600_000 + i as i64).unwrap();
    }
    k
}

/// The type and content of a key, in an order that does not depend on the server's
/// (a set's members sorted).
fn content(p: &Process, k: &[u8]) -> (String, String) {
    let mut c = p.client();
    let t: String = redis::cmd("TYPE").arg(k).query(&mut c).unwrap();
    let v = match t.as_str() {
        "string" => format!("{:?}", c.get::<_, Vec<u8>>(k).unwrap()),
        "hash" => {
            let mut h: Vec<(String, String)> = c.hgetall(k).unwrap();
            h.sort();
            format!("{h:?}")
        }
        "list" => format!("{:?}", c.lrange::<_, Vec<String>>(k, 0, -1).unwrap()),
        "set" => {
            let mut m: Vec<String> = c.smembers(k).unwrap();
            m.sort();
            format!("{m:?}")
        }
        "zset" => format!(
            "{:?}",
            c.zrange_withscores::<_, Vec<(String, f64)>>(k, 0, -1)
                .unwrap()
        ),
        "stream" => format!(
            "{:?}",
            redis::cmd("XRANGE")
                .arg(k)
                .arg("-")
                .arg("+")
                .query::<redis::Value>(&mut c)
                .unwrap()
        ),
        other => other.to_string(),
    };
    (t, v)
}

fn pttl(p: &Process, k: &[u8]) -> i64 {
    p.client().pttl(k).unwrap()
}

#[test]
fn a_resize_copies_every_type_with_its_ttl_and_keeps_newer_keys() {
    let Some(bin) = redis_server() else { return };
    let procs = servers(&bin, 5);
    let all = labels(&procs);
    let pl = Placement::new(fleet("old", &all[..4]), fleet("new", &all));
    let mut moving = Vec::new();
    for i in 0..1200 {
        let k = write(&mut owner(&procs, &pl.old, &key(i)).client(), i, 0);
        if pl.old.owner(&k) != pl.new.owner(&k) {
            moving.push(k);
        }
    }
    assert!(moving.len() > 100, "{}", moving.len());
    // A client on the NEW placement wrote one before the copy: it is newer.
    let newer = moving[0].clone();
    let _: () = owner(&procs, &pl.new, &newer)
        .client()
        .set(&newer, "newer")
        .unwrap();
    let o = ketama_migrate::run(&pl, &backend(), &RunOptions::new(Arc::default())).unwrap();
    assert!(!o.incomplete(), "{:?}", o.dead);
    assert_eq!(get(&o.counts.copied), moving.len() as u64 - 1);
    assert_eq!(get(&o.counts.kept), 1);
    for k in &moving[1..] {
        let (src, dst) = (owner(&procs, &pl.old, k), owner(&procs, &pl.new, k));
        let (t, v) = content(dst, k);
        assert_ne!(t, "none", "{k:?} not copied");
        assert_eq!((t, v), content(src, k), "{k:?}");
        let (a, b) = (pttl(src, k), pttl(dst, k));
        if a == -1 {
            assert_eq!(b, -1);
        } else {
            assert!(b <= a + 50 && a - b < 1000, "TTL {b} ms, source {a} ms");
        }
    }
    let got: String = owner(&procs, &pl.new, &newer).client().get(&newer).unwrap();
    assert_eq!(got, "newer");
    let checks = ketama_migrate::verify(&pl, &backend()).unwrap();
    assert!(checks.iter().all(|c| c.unreachable.is_empty()));
}

fn string(p: &Process, k: &[u8]) -> Option<String> {
    p.client().get(k).unwrap()
}

#[test]
fn a_sync_updates_changed_sources_and_never_a_copy_a_client_changed() {
    let Some(bin) = redis_server() else { return };
    let procs = servers(&bin, 4);
    let all = labels(&procs);
    let pl = Placement::new(fleet("old", &all[..3]), fleet("new", &all));
    let dir = std::env::temp_dir().join(format!("ketama-redis-sync-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state").to_string_lossy().into_owned();
    let _ = std::fs::remove_file(&state);
    let mut moving = Vec::new();
    for i in (0..1200).filter(|i| i % 6 == 0) {
        let k = write(&mut owner(&procs, &pl.old, &key(i)).client(), i, 0);
        if pl.old.owner(&k) != pl.new.owner(&k) {
            moving.push((i, k));
        }
    }
    assert!(moving.len() >= 6, "{}", moving.len());
    let mut opts = RunOptions::new(Arc::default());
    opts.state = Some(state.clone());
    let first = ketama_migrate::run(&pl, &backend(), &opts).unwrap();
    assert_eq!(get(&first.counts.copied), moving.len() as u64);
    let src = |k: &[u8]| owner(&procs, &pl.old, k);
    let dst = |k: &[u8]| owner(&procs, &pl.new, k);
    let [(ia, a), (_, b), (ic, c), (ic2, c2), (_, d), ..] = &moving[..] else {
        unreachable!()
    };
    // A client writes at OLD (a), deletes there (b); another writes the copy at NEW after
    // its source changed (c) or while it did not (c2); a copy goes (d: evicted).
    write(&mut src(a).client(), *ia, 1);
    let _: () = src(b).client().del(b).unwrap();
    write(&mut src(c).client(), *ic, 1);
    let _: () = dst(c).client().set(c, "client at NEW").unwrap();
    let _: () = dst(c2).client().set(c2, "client at NEW too").unwrap();
    let _: () = dst(d).client().del(d).unwrap();
    let second = ketama_migrate::run(&pl, &backend(), &opts).unwrap();
    let n = |x: &std::sync::atomic::AtomicU64| get(x);
    assert!(!second.incomplete(), "{:?}", second.dead);
    assert_eq!(n(&second.counts.updated), 1, "{:?}", second.counts);
    assert_eq!(n(&second.counts.deleted_copies), 1, "{:?}", second.counts);
    assert_eq!(n(&second.counts.client_changed), 2, "{:?}", second.counts);
    assert_eq!(n(&second.counts.copied), 1, "{:?}", second.counts);
    assert_eq!(
        n(&second.counts.unchanged),
        moving.len() as u64 - 5,
        "{:?}",
        second.counts
    );
    assert_eq!(content(dst(a), a), content(src(a), a));
    assert_eq!(content(dst(b), b).0, "none");
    assert_eq!(string(dst(c), c).as_deref(), Some("client at NEW"));
    assert_eq!(string(dst(c2), c2).as_deref(), Some("client at NEW too"));
    assert_eq!(content(dst(d), d), content(src(d), d));
    // A third run, after c2's source changed too: the clients' copies are newer, kept.
    write(&mut src(c2).client(), *ic2, 2);
    let third = ketama_migrate::run(&pl, &backend(), &opts).unwrap();
    assert_eq!(
        n(&third.counts.updated) + n(&third.counts.copied),
        0,
        "{:?}",
        third.counts
    );
    assert_eq!(n(&third.counts.kept), 2, "{:?}", third.counts);
    assert_eq!(string(dst(c2), c2).as_deref(), Some("client at NEW too"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Overwrites the given keys at their source once the run has handled a first key (the
/// listing is over then: one OLD server is listed before any key is handed on).
struct ChangeSources<'a> {
    source: &'a Process,
    keys: &'a [Vec<u8>],
    done: Mutex<bool>,
}

impl Progress for ChangeSources<'_> {
    fn advance(&self, _listed: u64, handled: u64) {
        let mut done = self.done.lock().unwrap();
        if handled == 0 || *done {
            return;
        }
        *done = true;
        let mut c = self.source.client();
        for k in self.keys {
            let _: () = c.set(k, "changed after the listing").unwrap();
        }
    }
}

#[test]
fn delete_moved_deletes_only_sources_unchanged_since_listed_and_held_at_new() {
    let Some(bin) = redis_server() else { return };
    let procs = servers(&bin, 2);
    let all = labels(&procs);
    let pl = Placement::new(fleet("old", &all[..1]), fleet("new", &all));
    let mut moving = Vec::new();
    for i in 0..240 {
        let k = write(&mut procs[0].client(), i, 0);
        if pl.new.owner(&k) == Some(1) {
            moving.push(k);
        }
    }
    assert!(moving.len() > 40, "{}", moving.len());
    ketama_migrate::run(&pl, &backend(), &RunOptions::new(Arc::default())).unwrap();
    // One copy went: its source stays.
    let _: () = procs[1].client().del(&moving[0]).unwrap();
    let change = ChangeSources {
        source: &procs[0],
        keys: &moving[1..],
        done: Mutex::new(false),
    };
    let mut opts = RunOptions::new(Arc::new(AtomicBool::new(false)));
    opts.delete_moved = true;
    opts.rate = Some(40);
    opts.progress = Some(&change);
    let o = ketama_migrate::run(&pl, &backend(), &opts).unwrap();
    let c = &o.counts;
    assert!(*change.done.lock().unwrap());
    assert_eq!(get(&c.not_held), 1);
    assert!(get(&c.changed_at_source) > 0, "{c:?}");
    assert_eq!(
        get(&c.deleted_old) + get(&c.changed_at_source) + get(&c.not_held),
        moving.len() as u64,
        "{c:?}"
    );
    // Every key changed after the listing is still there (one deleted before the change
    // was written again by it); the one whose copy went is kept.
    for k in &moving[1..] {
        assert_eq!(
            string(&procs[0], k).as_deref(),
            Some("changed after the listing"),
            "{k:?}"
        );
    }
    assert_ne!(content(&procs[0], &moving[0]).0, "none");
}

#[test]
fn a_round_of_reads_keeps_at_most_its_bound_and_a_larger_payload_comes_alone() {
    use ketama_migrate::backend::{Backend, Connection, Endpoint, Purpose, Reply, Request, Side};
    let Some(bin) = redis_server() else { return };
    let p = Process::start(&bin, &[]);
    let mut c = p.client();
    // Values that do not compress (DUMP compresses): 12 of 1 MiB, one of 6 MiB.
    let noise = |n: usize, seed: u64| -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    };
    let keys: Vec<Vec<u8>> = (0..13).map(|i| format!("big:{i}").into_bytes()).collect();
    for (i, k) in keys.iter().enumerate() {
        let n = if i == 12 { 6 << 20 } else { 1 << 20 };
        let _: () = c.set(k, noise(n, i as u64 + 1)).unwrap();
    }
    let ep = Endpoint {
        label: p.label.clone(),
        addr: p.label.clone(),
        side: Side::Old,
    };
    let mut conn = backend().open(&ep, Purpose::Sync).unwrap();
    let reads: Vec<Request> = keys.iter().map(|k| Request::Read(k)).collect();
    let bound = 4u64 << 20;
    conn.send(&reads, bound).unwrap();
    let replies = conn.receive(&reads, bound).unwrap();
    let kept: u64 = replies
        .iter()
        .map(|r| match r {
            Reply::Item(Some(it)) => it.data.len() as u64,
            _ => 0,
        })
        .sum();
    let later: Vec<u64> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Later(n) => Some(*n),
            _ => None,
        })
        .collect();
    assert!(kept > 0 && kept <= bound, "kept {kept} bytes");
    let items = replies
        .iter()
        .filter(|r| matches!(r, Reply::Item(Some(_))))
        .count();
    assert_eq!(items + later.len(), 13, "{later:?}");
    assert!(
        later.iter().any(|&n| n > 6 << 20),
        "the 6 MiB payload: {later:?}"
    );
    // Alone in its round (no bound), the large payload is read whole.
    let one = [Request::Read(&keys[12])];
    conn.send(&one, u64::MAX).unwrap();
    match &conn.receive(&one, u64::MAX).unwrap()[0] {
        Reply::Item(Some(it)) => assert!(it.data.len() > 6 << 20),
        r => panic!("{r:?}"),
    }
}
