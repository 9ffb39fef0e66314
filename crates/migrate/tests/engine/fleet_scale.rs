//! The engine's fleet-scale options through its traits alone, on in-memory servers whose keys
//! have a heat, a TTL and a value size, and which record the order of the reads: the hot keys
//! are read before every other (`hot_first`), keys about to expire are neither planned nor
//! copied (`min_ttl`), and the byte limiter, on simulated time, is charged exactly the bytes
//! read per server and holds each rate (no wall clock: nothing here can flake).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ketama_core::{Profile, Ring, Server};
use ketama_migrate::backend::{
    Ask, Backend, Connection, Deleted, Endpoint, Identity, Item, ListSummary, Listed, Purpose,
    Reply, Request, ServerError, Version, Written,
};
use ketama_migrate::run::{get, ByteLimits, Clock, Scale, Throttle};
use ketama_migrate::{Fleet, Heat, Placement, PlanOptions, RunOptions};

/// One key: value size, TTL (seconds, `None`: none), heat.
#[derive(Clone, Copy)]
struct Key {
    size: usize,
    ttl: Option<u64>,
    heat: Heat,
}

/// Servers by address; the keys every read asked for, in order; keys whose TTL a client
/// set anew (seconds) once they were listed.
#[derive(Default)]
struct Mem {
    servers: Mutex<BTreeMap<String, BTreeMap<Vec<u8>, Key>>>,
    reads: Mutex<Vec<Vec<u8>>>,
    ttl_set_after_listing: Mutex<BTreeMap<Vec<u8>, u64>>,
    /// Updates and deletes asked for, in order.
    others: Mutex<Vec<String>>,
    /// Added to every source item's version (a client rewrote every key).
    rewritten: std::sync::atomic::AtomicU64,
}

impl Mem {
    fn source_version(&self) -> Version {
        Version(1 + self.rewritten.load(std::sync::atomic::Ordering::SeqCst))
    }
}

struct Conn {
    mem: Arc<Mem>,
    addr: String,
    replies: Vec<Reply>,
}

#[derive(Clone)]
struct Back(Arc<Mem>);

impl Backend for Back {
    type Conn = Conn;
    fn open(&self, server: &Endpoint, _: Purpose) -> Result<Conn, ServerError> {
        Ok(Conn {
            mem: self.0.clone(),
            addr: server.addr.clone(),
            replies: Vec::new(),
        })
    }
}

fn unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

impl Connection for Conn {
    fn list(
        &mut self,
        ask: Ask,
        each: &mut dyn FnMut(Listed) -> Result<(), ServerError>,
    ) -> Result<ListSummary, ServerError> {
        let keys: Vec<(Vec<u8>, Key)> = {
            let s = self.mem.servers.lock().unwrap();
            s.get(&self.addr)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), *v)).collect())
                .unwrap_or_default()
        };
        for (key, k) in &keys {
            each(Listed {
                key: key.clone(),
                exp: k.ttl.map_or(-1, |t| unix() + t as i64),
                version: self.mem.source_version(),
                size: k.size as u64,
                heat: if ask.heat { k.heat } else { Heat::Unknown },
            })?;
        }
        Ok(ListSummary {
            command: "list",
            partial: false,
            bad: Vec::new(),
            bad_count: 0,
            keys: keys.len() as u64,
            heat: ask.heat.then(|| "test".to_string()),
        })
    }

    fn identity(&mut self) -> Result<Identity, ServerError> {
        Ok(Identity {
            peer: SocketAddr::from(([127, 0, 0, 1], 1)),
            process: self.addr.clone(),
            started: 0,
        })
    }

    fn send(&mut self, requests: &[Request<'_>], _keep: u64) -> Result<(), ServerError> {
        let mut all = self.mem.servers.lock().unwrap();
        let m = all.entry(self.addr.clone()).or_default();
        self.replies = requests
            .iter()
            .map(|r| match *r {
                Request::Read(k) => {
                    self.mem.reads.lock().unwrap().push(k.to_vec());
                    let reset = self
                        .mem
                        .ttl_set_after_listing
                        .lock()
                        .unwrap()
                        .get(k)
                        .copied();
                    Reply::Item(m.get(k).map(|x| {
                        Item {
                            data: vec![b'v'; x.size],
                            flags: 0,
                            expires: reset
                                .or(x.ttl)
                                .map(|t| Instant::now() + Duration::from_secs(t)),
                            version: self.mem.source_version(),
                        }
                    }))
                }
                Request::Add(k, it) => {
                    let key = Key {
                        size: it.data.len(),
                        ttl: it.remaining().map(|d| d.as_secs()),
                        heat: Heat::Unknown,
                    };
                    m.insert(k.to_vec(), key);
                    Reply::Written(Written::Stored(Version(2)))
                }
                Request::Version(k) => Reply::Version(m.get(k).map(|_| Version(2))),
                Request::Update { key, .. } => {
                    self.mem
                        .others
                        .lock()
                        .unwrap()
                        .push(format!("update {key:?}"));
                    Reply::Written(Written::Stored(Version(2)))
                }
                Request::Delete { key, .. } => {
                    self.mem
                        .others
                        .lock()
                        .unwrap()
                        .push(format!("delete {key:?}"));
                    m.remove(key);
                    Reply::Deleted(Deleted::Deleted)
                }
            })
            .collect();
        Ok(())
    }

    fn receive(&mut self, _: &[Request<'_>], keep: u64) -> Result<Vec<Reply>, ServerError> {
        // Items past `keep` are read past: their size comes instead.
        let mut left = keep;
        let mut out = std::mem::take(&mut self.replies);
        for r in &mut out {
            if let Reply::Item(Some(it)) = r {
                let n = it.data.len() as u64;
                if n > left {
                    *r = Reply::Later(n);
                } else {
                    left -= n;
                }
            }
        }
        Ok(out)
    }
}

fn fleet(name: &str, n: usize) -> Fleet {
    let servers: Vec<Server> = (0..n)
        .map(|i| Server::parse(&format!("10.0.0.{}:11211", i + 1), 1).unwrap())
        .collect();
    let ring = Ring::with_servers(
        Profile::by_name("libketama").unwrap(),
        None,
        servers.clone(),
    );
    Fleet::new(name, servers, ring.unwrap())
}

/// 3 -> 4 servers; `n` keys, each described by `describe(i)`, where OLD places them.
fn setup(n: usize, describe: impl Fn(usize) -> Key) -> (Back, Placement, Vec<Vec<u8>>) {
    let pl = Placement::new(fleet("old", 3), fleet("new", 4));
    let mem = Arc::new(Mem::default());
    let mut moving = Vec::new();
    for i in 0..n {
        let k = format!("key:{i}").into_bytes();
        let o = pl.old.owner(&k).unwrap();
        let addr = pl.old.endpoints[o].addr.clone();
        let mut s = mem.servers.lock().unwrap();
        s.entry(addr).or_default().insert(k.clone(), describe(i));
        if matches!(pl.fate(o, &k), ketama_migrate::Fate::Moves(_)) {
            moving.push(k);
        }
    }
    (Back(mem), pl, moving)
}

fn opts(scale: Scale) -> RunOptions<'static> {
    RunOptions {
        concurrency: 1,
        scale,
        ..RunOptions::new(Arc::new(AtomicBool::new(false)))
    }
}

fn index(k: &[u8]) -> usize {
    std::str::from_utf8(&k[4..]).unwrap().parse().unwrap()
}

#[test]
fn hot_keys_are_read_before_every_other_and_the_plan_counts_them() {
    let heat = |i: usize| match i % 5 {
        0 => Heat::Idle(30),
        1 => Heat::Idle(100_000),
        2 => Heat::Unread,
        3 => Heat::Freq(40),
        _ => Heat::Unknown,
    };
    let hot = |i: usize| i % 5 == 0 || i % 5 == 3;
    let (b, pl, moving) = setup(3000, |i| Key {
        size: 10,
        ttl: None,
        heat: heat(i),
    });
    let plan = ketama_migrate::plan_with(
        &pl,
        &b,
        &PlanOptions {
            min_ttl: None,
            hot_window: Some(600),
        },
    )
    .unwrap();
    let hot_moving = moving.iter().filter(|k| hot(index(k))).count() as u64;
    assert!(hot_moving > 100 && hot_moving < moving.len() as u64);
    assert_eq!(plan.hot.keys, hot_moving);
    assert_eq!(plan.hot.bytes, 10 * hot_moving);

    let scale = Scale {
        hot_first: Some(600),
        ..Scale::default()
    };
    let o = ketama_migrate::run(&pl, &b, &opts(scale)).unwrap();
    assert_eq!(get(&o.counts.copied), moving.len() as u64);
    assert_eq!(get(&o.counts.hot), hot_moving);
    let reads = b.0.reads.lock().unwrap().clone();
    assert_eq!(reads.len(), moving.len());
    let first_cold = reads.iter().position(|k| !hot(index(k))).unwrap();
    // A rank's last batch is cut short: every hot key is read in rounds before any other.
    assert_eq!(first_cold as u64, hot_moving, "every hot key is read first");
    // Then by rank: idle beyond the window before never read before unknown.
    let ranks: Vec<usize> = reads.iter().map(|k| heat(index(k)).rank(600)).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]));

    // Without hot_first the listing's order: hot and cold keys mixed.
    let (b, pl, _) = setup(3000, |i| Key {
        size: 10,
        ttl: None,
        heat: heat(i),
    });
    ketama_migrate::run(&pl, &b, &opts(Scale::default())).unwrap();
    let reads = b.0.reads.lock().unwrap().clone();
    let first_cold = reads.iter().position(|k| !hot(index(k))).unwrap();
    assert!((first_cold as u64) < hot_moving);
}

#[test]
fn a_sync_joined_with_its_records_still_reads_the_hot_keys_first() {
    let heat = |i: usize| match i % 3 {
        0 => Heat::Idle(5),
        1 => Heat::Unread,
        _ => Heat::Unknown,
    };
    let (b, pl, moving) = setup(2000, |i| Key {
        size: 10,
        ttl: None,
        heat: heat(i),
    });
    let state = std::env::temp_dir().join(format!(
        "ketama-fleet-scale-hot-{}-{}.state",
        std::process::id(),
        unix()
    ));
    let _ = std::fs::remove_file(&state);
    let with_state = || RunOptions {
        state: Some(state.to_string_lossy().into_owned()),
        ..opts(Scale {
            hot_first: Some(600),
            ..Scale::default()
        })
    };
    ketama_migrate::run(&pl, &b, &with_state()).unwrap();
    b.0.reads.lock().unwrap().clear();
    b.0.rewritten.store(10, std::sync::atomic::Ordering::SeqCst);
    // Every source changed since: the second run joins each server's moving keys with its
    // records (sorted by key on disk) and updates every copy, still reading by heat.
    let o = ketama_migrate::run(&pl, &b, &with_state()).unwrap();
    let _ = std::fs::remove_file(&state);
    assert_eq!(get(&o.counts.moving), moving.len() as u64);
    let reads = b.0.reads.lock().unwrap().clone();
    assert!(!reads.is_empty());
    let ranks: Vec<usize> = reads.iter().map(|k| heat(index(k)).rank(600)).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    assert!(ranks.contains(&0) && ranks.contains(&6));
    assert_eq!(get(&o.counts.updated), moving.len() as u64);
}

#[test]
fn keys_about_to_expire_are_neither_planned_nor_copied() {
    // Every third key expires within 30 s, every third in 2 hours, the rest never.
    let ttl = |i: usize| match i % 3 {
        0 => Some(30),
        1 => Some(7200),
        _ => None,
    };
    let (b, pl, moving) = setup(3000, |i| Key {
        size: 7,
        ttl: ttl(i),
        heat: Heat::Unknown,
    });
    let short = moving.iter().filter(|k| index(k) % 3 == 0).count() as u64;
    // Of the keys listed with 2 hours left, a client sets every other one to expire in 30 s
    // after the listing: the item read decides, and those are not copied either.
    let reset: Vec<&Vec<u8>> = moving.iter().filter(|k| index(k) % 6 == 1).collect();
    let plan = ketama_migrate::plan_with(
        &pl,
        &b,
        &PlanOptions {
            min_ttl: Some(60),
            hot_window: None,
        },
    )
    .unwrap();
    assert_eq!(plan.short_ttl.keys, short);
    assert_eq!(plan.moves.keys, moving.len() as u64 - short);
    let scale = Scale {
        min_ttl: Some(60),
        ..Scale::default()
    };
    b.0.ttl_set_after_listing
        .lock()
        .unwrap()
        .extend(reset.iter().map(|k| (k.to_vec(), 30)));
    let o = ketama_migrate::run(&pl, &b, &opts(scale)).unwrap();
    let dropped = short + reset.len() as u64;
    assert!(!reset.is_empty());
    assert_eq!(get(&o.counts.short_ttl), dropped);
    assert_eq!(get(&o.counts.copied), moving.len() as u64 - dropped);
    let reads = b.0.reads.lock().unwrap();
    assert!(
        reads.iter().all(|k| index(k) % 3 != 0),
        "none listed as short was even read"
    );
    let servers = b.0.servers.lock().unwrap();
    for k in &reset {
        let new = pl.new.owner(k).unwrap();
        let held = servers
            .get(&pl.new.endpoints[new].addr)
            .is_some_and(|m| m.contains_key(k.as_slice()));
        assert!(!held, "a key read with 30 s left was copied");
    }
}

#[test]
fn a_sync_leaves_the_copy_of_a_key_now_about_to_expire_alone() {
    // Every other key with 2 hours left, the rest without expiry; a first run copies them
    // all and records the copies.
    let (b, pl, moving) = setup(2000, |i| Key {
        size: 9,
        ttl: (i % 2 == 0).then_some(7200),
        heat: Heat::Unknown,
    });
    let state = std::env::temp_dir().join(format!(
        "ketama-fleet-scale-{}-{}.state",
        std::process::id(),
        unix()
    ));
    let _ = std::fs::remove_file(&state);
    let with_state = |min_ttl| RunOptions {
        state: Some(state.to_string_lossy().into_owned()),
        ..opts(Scale {
            min_ttl,
            ..Scale::default()
        })
    };
    let o = ketama_migrate::run(&pl, &b, &with_state(None)).unwrap();
    assert_eq!(get(&o.counts.copied), moving.len() as u64);
    // Later the keys with a TTL have 30 s left: a sync with --min-ttl 60 neither copies
    // them again nor takes their copies for copies whose source is gone.
    {
        let mut all = b.0.servers.lock().unwrap();
        for m in all.values_mut() {
            for (k, v) in m.iter_mut() {
                if index(k) % 2 == 0 && v.ttl.is_some() {
                    v.ttl = Some(30);
                }
            }
        }
    }
    let short = moving.iter().filter(|k| index(k) % 2 == 0).count() as u64;
    let o = ketama_migrate::run(&pl, &b, &with_state(Some(60))).unwrap();
    let _ = std::fs::remove_file(&state);
    assert_eq!(get(&o.counts.short_ttl), short);
    assert_eq!(get(&o.counts.deleted_copies), 0);
    assert_eq!(*b.0.others.lock().unwrap(), Vec::<String>::new());
    let all = b.0.servers.lock().unwrap();
    for k in &moving {
        let at = &pl.new.endpoints[pl.new.owner(k).unwrap()].addr;
        assert!(
            all[at].contains_key(k.as_slice()),
            "the copy of {k:?} stays"
        );
    }
}

/// Simulated time: it moves only when the limiter sleeps.
#[derive(Default)]
struct Sim(Mutex<Duration>);

impl Clock for Sim {
    fn now(&self) -> Duration {
        *self.0.lock().unwrap()
    }
    fn sleep_until(&self, t: Duration, _: &AtomicBool) {
        let mut now = self.0.lock().unwrap();
        *now = (*now).max(t);
    }
}

/// Runs with `limits` on simulated time (2 workers); the limiter, the bytes each OLD server
/// gave (file position -> bytes, from the values' sizes), the simulated seconds.
fn limited(limits: ByteLimits) -> (Arc<Throttle>, BTreeMap<usize, u64>, f64, u64) {
    let (b, pl, moving) = setup(2000, |i| Key {
        size: 1000 + i % 5000,
        ttl: None,
        heat: Heat::Unknown,
    });
    let mut expect: BTreeMap<usize, u64> = BTreeMap::new();
    for k in &moving {
        *expect.entry(pl.old.owner(k).unwrap()).or_default() += (1000 + index(k) % 5000) as u64;
    }
    let sim = Arc::new(Sim::default());
    let throttle = Arc::new(Throttle::with_clock(limits, sim.clone()));
    let scale = Scale {
        throttle: Some(throttle.clone()),
        ..Scale::default()
    };
    let o = ketama_migrate::run(
        &pl,
        &b,
        &RunOptions {
            concurrency: 2,
            ..opts(scale)
        },
    )
    .unwrap();
    assert_eq!(get(&o.counts.copied), moving.len() as u64);
    assert_eq!(get(&o.counts.bytes_read), expect.values().sum::<u64>());
    (
        throttle,
        expect,
        sim.now().as_secs_f64(),
        limits.batch_bytes(4 << 20),
    )
}

#[test]
fn the_byte_limit_is_charged_exactly_what_each_server_gave_and_holds_its_rate() {
    let rate = 2_000_000;
    let (t, expect, secs, batch) = limited(ByteLimits {
        overall: Some(rate),
        per_server: None,
    });
    assert_eq!(t.charged(), expect, "the bytes actually read, per server");
    let total: u64 = expect.values().sum();
    // Time moves only to pay a debt: at most total / rate; and every byte but the rounds
    // in flight (one batch per worker, each at most one value over) was paid for.
    let slack = 2 * (batch + 6000);
    assert!(secs <= total as f64 / rate as f64 + 1e-9, "{secs}");
    assert!(secs >= (total - slack) as f64 / rate as f64, "{secs}");

    let rate = 500_000;
    let (t, expect, secs, batch) = limited(ByteLimits {
        overall: None,
        per_server: Some(rate),
    });
    assert_eq!(t.charged(), expect);
    let most = *expect.values().max().unwrap();
    let total: u64 = expect.values().sum();
    let slack = 2 * (batch + 6000);
    // Each server is held to its own rate (the busiest one sets the pace); servers are
    // copied one after another, so at most the sum.
    assert!(secs >= (most - slack) as f64 / rate as f64, "{secs}");
    assert!(secs <= total as f64 / rate as f64 + 1e-9, "{secs}");
}
