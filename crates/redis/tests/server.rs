//! The client on real redis-server processes: the listing (every key once, TTL, size,
//! versions, accesses under an LRU and an LFU policy), the copy's operations on every data type (only if absent, only if unchanged,
//! the expiry kept), the login (an ACL user, a wrong password, none given), a cluster node
//! refused, a TLS server with the right and a wrong CA.
//!
//! Needs Debian's `redis-server` (installed when missing); without it each test says so and
//! passes, unless KETAMA_REQUIRE_REDIS=1.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use ketama_redis::{
    Access, Ask, Conn, Dump, ErrorKind, ListOptions, Options, Pace, Password, Removed, Restored,
    Sizes, Tracking,
};
use ketama_testkit::redis::{redis_server, Redis, TlsSetup};
use redis::Commands;

fn opts() -> Options {
    let stop = Arc::new(AtomicBool::new(false));
    Options::new(ketama_memcache::Options::new(Duration::from_secs(5), stop))
}

fn one(pace: Pace) -> ListOptions {
    ListOptions {
        pace,
        sizes: Sizes::ONE_LISTING,
    }
}

fn connect(r: &Redis, o: &Options) -> Conn {
    Conn::connect(&r.label, &r.label, o).unwrap()
}

/// One key of each data type, with a TTL on some.
fn write_every_type(c: &mut redis::Connection) {
    let _: () = c.set("s", "string value").unwrap();
    let _: () = c.hset_multiple("h", &[("f1", "v1"), ("f2", "v2")]).unwrap();
    let _: () = c.rpush("l", &["a", "b", "c"]).unwrap();
    let _: () = c.sadd("set", &["x", "y"]).unwrap();
    let _: () = c.zadd_multiple("z", &[(1.5, "m1"), (2.5, "m2")]).unwrap();
    let _: String = redis::cmd("XADD")
        .arg("st")
        .arg("*")
        .arg("field")
        .arg("value")
        .query(c)
        .unwrap();
    let _: () = c.pexpire("h", 60_000).unwrap();
    let _: () = c.pexpire("st", 90_000).unwrap();
}

const KEYS: [&str; 6] = ["s", "h", "l", "set", "z", "st"];

const VERSIONS: Ask = Ask {
    versions: true,
    access: false,
};

const ACCESS: Ask = Ask {
    versions: false,
    access: true,
};

/// Lists `conn` asking for accesses: key -> access, and the listing.
fn accesses(
    conn: &mut Conn,
) -> (
    std::collections::HashMap<String, Access>,
    ketama_redis::Listing,
) {
    let mut seen = std::collections::HashMap::new();
    let l = conn
        .list_keys(one(Pace::EachLine), ACCESS, |k| {
            seen.insert(String::from_utf8(k.key).unwrap(), k.access);
            Ok::<(), ketama_redis::Error>(())
        })
        .unwrap();
    (seen, l)
}

#[test]
fn a_listing_tells_each_keys_idle_time_or_lfu_counter_and_touches_none() {
    let Some(bin) = redis_server() else { return };
    let (lru, lfu) = (
        Redis::start(&bin, &[]),
        Redis::start(&bin, &["--maxmemory-policy", "allkeys-lfu"]),
    );
    for r in [&lru, &lfu] {
        let mut c = r.client();
        for i in 0..200 {
            let _: () = c.set(format!("k{i}"), i).unwrap();
        }
    }
    // Redis's LRU clock ticks in seconds, cached by its cron: 4 s apart, surely 2 ticks.
    std::thread::sleep(Duration::from_millis(4000));
    for r in [&lru, &lfu] {
        let mut c = r.client();
        // Three reads: even when a minute starts between the write and the reads (an LFU
        // counter decays by one per minute untouched), the counter ends above 5.
        for _ in 0..3 {
            for i in 0..20 {
                let _: i64 = c.get(format!("k{i}")).unwrap();
            }
        }
    }
    let hot = |k: &str| k[1..].parse::<usize>().unwrap() < 20;
    let mut conn = connect(&lru, &opts());
    let (seen, l) = accesses(&mut conn);
    assert_eq!(l.tracking, Some(("noeviction".to_string(), Tracking::Idle)));
    assert_eq!(l.access_refused, None);
    assert_eq!(seen.len(), 200);
    for (k, a) in &seen {
        match a {
            Access::Idle(s) if hot(k) => assert!(*s <= 1, "{k}: {a:?}"),
            Access::Idle(s) => assert!(*s >= 2, "{k}: {a:?}"),
            _ => panic!("{k}: {a:?}"),
        }
    }
    // The listing touched nothing (without versions: a digest's DUMP touches the key): a
    // second one sees no key younger than the first did.
    let (again, _) = accesses(&mut conn);
    for (k, a) in &again {
        let (Access::Idle(now), Access::Idle(before)) = (a, seen[k]) else {
            panic!("{k}: {a:?}");
        };
        assert!(*now >= before, "{k}: {now} after {before}");
    }
    let mut conn = connect(&lfu, &opts());
    let (seen, l) = accesses(&mut conn);
    assert_eq!(
        l.tracking,
        Some(("allkeys-lfu".to_string(), Tracking::Freq))
    );
    for (k, a) in &seen {
        match a {
            Access::Freq(f) if hot(k) => assert!(*f > ketama_redis::access::LFU_NEW, "{k}: {a:?}"),
            Access::Freq(f) => assert!(*f <= ketama_redis::access::LFU_NEW, "{k}: {a:?}"),
            _ => panic!("{k}: {a:?}"),
        }
    }
    // A user who may not run OBJECT: accesses unknown, the refusal said once, the keys listed.
    let _: () = redis::cmd("ACL")
        .arg(&["SETUSER", "lister", "on", ">pw", "~*", "+@all", "-object"])
        .query(&mut lru.client())
        .unwrap();
    let mut o = opts();
    o.user = Some("lister".into());
    o.password = Some(Password::new("pw"));
    let mut conn = connect(&lru, &o);
    let (seen, l) = accesses(&mut conn);
    assert_eq!(seen.len(), 200);
    assert!(seen.values().all(|a| *a == Access::Unknown));
    let refused = l.access_refused.unwrap();
    assert!(
        refused.contains("OBJECT IDLETIME") && refused.contains("NOPERM"),
        "{refused}"
    );
}

#[test]
fn a_listing_shows_each_key_once_with_its_ttl_size_and_version() {
    let Some(bin) = redis_server() else { return };
    let r = Redis::start(&bin, &[]);
    let mut c = r.client();
    write_every_type(&mut c);
    for i in 0..3000 {
        let _: () = c.set(format!("k{i}"), i).unwrap();
    }
    let mut conn = connect(&r, &opts());
    let mut seen = std::collections::HashMap::new();
    let l = conn
        .list_keys(one(Pace::EachLine), VERSIONS, |k| {
            assert!(seen.insert(k.key.clone(), k).is_none(), "a key twice");
            Ok::<(), ketama_redis::Error>(())
        })
        .unwrap();
    assert_eq!(l.keys, 3006);
    assert_eq!(seen.len(), 3006);
    assert!(l.is_complete());
    let h = &seen[b"h".as_slice()];
    assert!(h.pttl > 55_000 && h.pttl <= 60_000, "{h:?}");
    assert_eq!(seen[b"s".as_slice()].pttl, -1);
    assert!(seen.values().all(|k| k.size > 0 && k.version != 0));
    // The listed version is the one a read computes from the payload.
    conn.queue_dump(b"z", u64::MAX);
    conn.flush().unwrap();
    let Dump::Item(z) = conn.read_dump(u64::MAX).unwrap() else {
        panic!("z not read")
    };
    assert_eq!(z.version, seen[b"z".as_slice()].version);
    // Without versions none is computed.
    let mut versions = 0;
    conn.list_keys(one(Pace::Whole), Ask::default(), |k| {
        versions += u64::from(k.version != 0);
        Ok::<(), ketama_redis::Error>(())
    })
    .unwrap();
    assert_eq!(versions, 0);
}

#[test]
fn every_type_is_copied_with_its_expiry_and_newer_or_changed_keys_are_left_alone() {
    let Some(bin) = redis_server() else { return };
    let (old, new) = (Redis::start(&bin, &[]), Redis::start(&bin, &[]));
    write_every_type(&mut old.client());
    let o = opts();
    let (mut a, mut b) = (connect(&old, &o), connect(&new, &o));
    let clock = b.info().clock_ms;
    assert!(clock.abs() < 1000, "loopback clocks agree: {clock}");
    for k in KEYS {
        a.queue_dump(k.as_bytes(), u64::MAX);
    }
    a.queue_dump(b"absent", u64::MAX);
    // An expiry on NEW's clock, never later than the source's: read time + PTTL.
    let now = ketama_redis::unix_ms() + clock;
    a.flush().unwrap();
    let dumped: Vec<_> = KEYS
        .iter()
        .map(|_| match a.read_dump(u64::MAX).unwrap() {
            Dump::Item(d) => d,
            d => panic!("{d:?}"),
        })
        .collect();
    assert_eq!(a.read_dump(u64::MAX).unwrap(), Dump::Absent);
    // A newer value already at NEW: kept.
    let _: () = new.client().set("l", "newer").unwrap();
    for (k, d) in KEYS.iter().zip(&dumped) {
        let exp = (d.pttl >= 0).then_some(now + d.pttl);
        b.queue_restore(k.as_bytes(), &d.payload, exp, None);
    }
    b.flush().unwrap();
    let mut versions = Vec::new();
    for k in KEYS {
        match b.read_restore(false).unwrap() {
            Restored::Stored(v) => versions.push((k, v)),
            Restored::Exists => assert_eq!(k, "l"),
            other => panic!("{k}: {other:?}"),
        }
    }
    let mut n = new.client();
    let h: Vec<(String, String)> = n.hgetall("h").unwrap();
    assert_eq!(h.len(), 2);
    let z: Vec<(String, f64)> = n.zrange_withscores("z", 0, -1).unwrap();
    assert_eq!(z, vec![("m1".into(), 1.5), ("m2".into(), 2.5)]);
    let l: String = n.get("l").unwrap();
    assert_eq!(l, "newer");
    // The source read first: the copy, read after, never has more left.
    let src: i64 = old.client().pttl("st").unwrap();
    let t: i64 = n.pttl("st").unwrap();
    assert!(t <= src && src - t < 1000, "copy {t} ms, source {src} ms");
    assert_eq!(n.pttl::<_, i64>("s").unwrap(), -1);
    // Only if unchanged: the version written matches; a client's change is left alone.
    let (hv, sv) = (versions[1].1, versions[0].1);
    let _: () = n.set("s", "changed by a client").unwrap();
    b.queue_restore(b"s", &dumped[0].payload, None, Some(sv));
    b.queue_restore(b"h", &dumped[1].payload, None, Some(hv));
    b.queue_restore(b"gone", &dumped[0].payload, None, Some(sv));
    b.queue_digest(b"h");
    b.flush().unwrap();
    assert_eq!(b.read_restore(true).unwrap(), Restored::Changed);
    assert!(matches!(b.read_restore(true).unwrap(), Restored::Stored(_)));
    assert_eq!(b.read_restore(true).unwrap(), Restored::Gone);
    assert_eq!(b.read_digest().unwrap(), Some(hv));
    assert_eq!(
        n.pttl::<_, i64>("h").unwrap(),
        -1,
        "replaced without expiry"
    );
    // Deletes: only if unchanged.
    b.queue_delete(b"s", Some(sv));
    b.queue_delete(b"h", Some(hv));
    b.queue_delete(b"h", None);
    b.flush().unwrap();
    assert_eq!(b.read_delete(true).unwrap(), Removed::Changed);
    assert_eq!(b.read_delete(true).unwrap(), Removed::Deleted);
    assert_eq!(b.read_delete(false).unwrap(), Removed::Gone);
    // An expiry already past: written and dropped at once.
    b.queue_restore(b"past", &dumped[0].payload, Some(now - 10_000), None);
    b.flush().unwrap();
    assert_eq!(b.read_restore(false).unwrap(), Restored::Expired);
}

#[test]
fn logins_right_wrong_and_missing_and_a_cluster_node_is_refused() {
    let Some(bin) = redis_server() else { return };
    let r = Redis::start(&bin, &[]);
    let mut admin = r.client();
    redis::cmd("ACL")
        .arg(&["SETUSER", "migrator", "on", ">s3cret", "~*", "+@all"][..])
        .query::<()>(&mut admin)
        .unwrap();
    redis::cmd("ACL")
        .arg(&["SETUSER", "default", "off"][..])
        .query::<()>(&mut admin)
        .unwrap();
    let mut o = opts();
    let e = Conn::connect(&r.label, &r.label, &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Auth, "{e}");
    assert!(e.message.contains("requires a login"), "{e}");
    o.user = Some("migrator".into());
    o.password = Some(Password::new("wrong"));
    let e = Conn::connect(&r.label, &r.label, &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Auth, "{e}");
    assert!(
        e.message.contains("user 'migrator'") && e.message.contains("WRONGPASS"),
        "{e}"
    );
    assert!(
        !e.message.contains("wrong"),
        "the password is never shown: {e}"
    );
    assert!(!format!("{o:?}").contains("wrong"));
    o.password = Some(Password::new("s3cret"));
    o.db = 3;
    let mut c = Conn::connect(&r.label, &r.label, &o).unwrap();
    assert_eq!(c.dbsize().unwrap(), 0);

    let dir = std::env::temp_dir().join(format!("ketama-redis-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let conf = dir.join("nodes.conf");
    let node = Redis::start(
        &bin,
        &[
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            conf.to_str().unwrap(),
        ],
    );
    let e = Conn::connect(&node.label, &node.label, &opts()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("Redis Cluster"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tls_with_the_right_ca_and_a_wrong_one() {
    let Some(bin) = redis_server() else { return };
    let d = std::env::temp_dir().join(format!("ketama-redis-tls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let ca = ketama_testkit::tls::ca(&d, "ca");
    let other = ketama_testkit::tls::ca(&d, "other");
    let server = ketama_testkit::tls::leaf(&d, "server", &ca, "IP:127.0.0.1", "serverAuth");
    let r = Redis::start_tls(
        &bin,
        &TlsSetup {
            server,
            ca: ca.clone(),
            require_client: false,
        },
    );
    let _: () = r.client().set("k", "v").unwrap();
    let tls = |ca: &std::path::Path| {
        let t = ketama_memcache::tls::Tls::new(&ketama_memcache::tls::Settings {
            ca: Some(ca.to_path_buf()),
            ..Default::default()
        })
        .unwrap();
        let mut o = opts();
        o.net = o.net.with_tls(Some(Arc::new(t)));
        o
    };
    let mut c = Conn::connect(&r.label, &r.label, &tls(&ca.cert)).unwrap();
    assert_eq!(c.dbsize().unwrap(), 1);
    let e = Conn::connect(&r.label, &r.label, &tls(&other.cert)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Connection);
    assert!(e.message.contains("certificate not trusted"), "{e}");
    // The TLS port without TLS.
    let e = Conn::connect(&r.label, &r.label, &opts()).unwrap_err();
    assert!(e.message.contains("add --tls"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}
