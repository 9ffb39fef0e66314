//! The engine through its traits alone: a backend of in-memory servers (what a second
//! backend implements), so plan, run, sync and verify are checked without a server process,
//! and each rule of the engine (write-if-absent, update and delete only if unchanged) is
//! held against a model that cannot cheat.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ketama_core::{Profile, Ring, Server};
use ketama_migrate::backend::{
    Ask, Backend, Connection, Deleted, Endpoint, Identity, Item, ListSummary, Listed, Purpose,
    Reply, Request, ServerError, ServerErrorKind, Version, Written,
};
use ketama_migrate::run::get;
use ketama_migrate::{Fleet, Heat, Placement, RunError, RunOptions};

/// One stored item: data and version.
type Stored = (Vec<u8>, Version);

/// Servers by address, each a map of keys.
#[derive(Default)]
struct Memory {
    servers: Mutex<BTreeMap<String, BTreeMap<Vec<u8>, Stored>>>,
    versions: AtomicU64,
    /// Addresses that refuse to sync (as memcached 1.4 does).
    old_version: Vec<String>,
}

impl Memory {
    fn put(&self, addr: &str, key: &[u8], data: &[u8]) -> Version {
        let v = Version(self.versions.fetch_add(1, Ordering::SeqCst) + 1);
        self.servers
            .lock()
            .unwrap()
            .entry(addr.to_string())
            .or_default()
            .insert(key.to_vec(), (data.to_vec(), v));
        v
    }

    fn get(&self, addr: &str, key: &[u8]) -> Option<Vec<u8>> {
        let s = self.servers.lock().unwrap();
        s.get(addr)?.get(key).map(|(d, _)| d.clone())
    }

    fn remove(&self, addr: &str, key: &[u8]) {
        if let Some(m) = self.servers.lock().unwrap().get_mut(addr) {
            m.remove(key);
        }
    }
}

/// The backend: a handle on the servers.
#[derive(Clone)]
struct Mem(Arc<Memory>);

impl std::ops::Deref for Mem {
    type Target = Memory;
    fn deref(&self) -> &Memory {
        &self.0
    }
}

struct MemoryConn {
    mem: Arc<Memory>,
    addr: String,
    replies: Vec<Reply>,
}

impl Backend for Mem {
    type Conn = MemoryConn;

    fn open(&self, server: &Endpoint, purpose: Purpose) -> Result<MemoryConn, ServerError> {
        if purpose == Purpose::Sync && self.old_version.contains(&server.addr) {
            return Err(ServerError::new(
                &server.label,
                ServerErrorKind::Unsupported,
                format!("{} cannot sync", server.label),
            ));
        }
        Ok(MemoryConn {
            mem: self.0.clone(),
            addr: server.addr.clone(),
            replies: Vec::new(),
        })
    }
}

impl MemoryConn {
    fn one(&self, r: &Request<'_>) -> Reply {
        let mut all = self.mem.servers.lock().unwrap();
        let m = all.entry(self.addr.clone()).or_default();
        let next = || Version(self.mem.versions.fetch_add(1, Ordering::SeqCst) + 1);
        match *r {
            Request::Read(k) => Reply::Item(m.get(k).map(|(d, v)| Item {
                data: d.clone(),
                flags: 0,
                expires: None,
                version: *v,
            })),
            Request::Version(k) => Reply::Version(m.get(k).map(|(_, v)| *v)),
            Request::Add(k, it) => Reply::Written(if m.contains_key(k) {
                Written::Exists
            } else {
                let v = next();
                m.insert(k.to_vec(), (it.data.clone(), v));
                Written::Stored(v)
            }),
            Request::Update { key, item, expect } => Reply::Written(match m.get(key) {
                None => Written::Gone,
                Some((_, v)) if *v != expect => Written::Changed,
                Some(_) => {
                    let v = next();
                    m.insert(key.to_vec(), (item.data.clone(), v));
                    Written::Stored(v)
                }
            }),
            Request::Delete { key, expect } => Reply::Deleted(match m.get(key) {
                None => Deleted::Gone,
                Some((_, v)) if expect.is_some_and(|e| e != *v) => Deleted::Changed,
                Some(_) => {
                    m.remove(key);
                    Deleted::Deleted
                }
            }),
        }
    }
}

impl Connection for MemoryConn {
    fn list(
        &mut self,
        _ask: Ask,
        each: &mut dyn FnMut(Listed) -> Result<(), ServerError>,
    ) -> Result<ListSummary, ServerError> {
        let items: Vec<(Vec<u8>, Stored)> = {
            let all = self.mem.servers.lock().unwrap();
            all.get(&self.addr)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default()
        };
        let keys = items.len() as u64;
        for (key, (data, version)) in items {
            each(Listed {
                key,
                exp: -1,
                version,
                size: data.len() as u64,
                heat: Heat::Unknown,
            })?;
        }
        Ok(ListSummary {
            command: "list",
            partial: false,
            bad: Vec::new(),
            bad_count: 0,
            keys,
            heat: None,
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
        self.replies = requests.iter().map(|r| self.one(r)).collect();
        Ok(())
    }

    fn receive(&mut self, requests: &[Request<'_>], keep: u64) -> Result<Vec<Reply>, ServerError> {
        assert_eq!(requests.len(), self.replies.len(), "one reply per request");
        // Items past `keep` are not kept: their size comes instead.
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

fn labels(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("10.0.0.{}:11211", i + 1)).collect()
}

fn fleet(name: &str, labels: &[String]) -> Fleet {
    let servers: Vec<Server> = labels
        .iter()
        .map(|l| Server::parse(l, 1).unwrap())
        .collect();
    let p = Profile::by_name("libketama").unwrap();
    let ring = Ring::with_servers(p, None, servers.clone()).unwrap();
    Fleet::new(name, servers, ring)
}

/// 4 -> 5 servers, 2000 keys written where the OLD placement puts them.
fn setup() -> (Mem, Placement, Vec<Vec<u8>>) {
    let pl = Placement::new(fleet("old", &labels(4)), fleet("new", &labels(5)));
    let mem = Mem(Arc::new(Memory::default()));
    let keys: Vec<Vec<u8>> = (0..2000).map(|i| format!("key:{i}").into_bytes()).collect();
    for k in &keys {
        let o = pl.old.owner(k).unwrap();
        mem.put(&pl.old.endpoints[o].addr, k, b"v1");
    }
    (mem, pl, keys)
}

fn new_addr(pl: &Placement, k: &[u8]) -> String {
    pl.new.endpoints[pl.new.owner(k).unwrap()].addr.clone()
}

fn old_addr(pl: &Placement, k: &[u8]) -> String {
    pl.old.endpoints[pl.old.owner(k).unwrap()].addr.clone()
}

fn never() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn a_run_copies_what_moves_keeps_newer_copies_and_verifies() {
    let (mem, pl, keys) = setup();
    let plan = ketama_migrate::plan(&pl, &mem).unwrap();
    let moving: Vec<&Vec<u8>> = keys
        .iter()
        .filter(|k| old_addr(&pl, k) != new_addr(&pl, k))
        .collect();
    assert_eq!(plan.moves.keys, moving.len() as u64);
    assert!(plan.moves.keys > 100);
    // A client on the new placement already wrote one moving key: it is newer.
    let newer = moving[0];
    mem.put(&new_addr(&pl, newer), newer, b"newer");
    let o = ketama_migrate::run(&pl, &mem, &RunOptions::new(never())).unwrap();
    assert_eq!(get(&o.counts.copied), moving.len() as u64 - 1);
    assert_eq!(get(&o.counts.kept), 1);
    assert!(!o.incomplete() && !o.interrupted);
    for k in &moving[1..] {
        assert_eq!(mem.get(&new_addr(&pl, k), k).as_deref(), Some(&b"v1"[..]));
    }
    assert_eq!(
        mem.get(&new_addr(&pl, newer), newer).as_deref(),
        Some(&b"newer"[..])
    );
    let checks = ketama_migrate::verify(&pl, &mem).unwrap();
    assert!(checks.iter().all(|c| c.unreachable.is_empty()));
    let copies: u64 = checks.iter().map(|c| c.old_copies).sum();
    assert_eq!(
        copies,
        moving.len() as u64,
        "the OLD copies are still there"
    );
}

#[test]
fn a_sync_updates_changed_sources_deletes_gone_ones_and_leaves_client_changes_alone() {
    let (mem, pl, keys) = setup();
    let dir = std::env::temp_dir().join(format!("ketama-migrate-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state").to_string_lossy().into_owned();
    let _ = std::fs::remove_file(&state);
    let opts = RunOptions {
        state: Some(state.clone()),
        ..RunOptions::new(never())
    };
    ketama_migrate::run(&pl, &mem, &opts).unwrap();
    let moving: Vec<&Vec<u8>> = keys
        .iter()
        .filter(|k| old_addr(&pl, k) != new_addr(&pl, k))
        .collect();
    let (changed, gone, client) = (moving[0], moving[1], moving[2]);
    mem.put(&old_addr(&pl, changed), changed, b"v2");
    mem.remove(&old_addr(&pl, gone), gone);
    mem.put(&old_addr(&pl, client), client, b"v2");
    mem.put(&new_addr(&pl, client), client, b"client");
    let o = ketama_migrate::run(&pl, &mem, &opts).unwrap();
    assert_eq!(get(&o.counts.updated), 1);
    assert_eq!(get(&o.counts.deleted_copies), 1);
    assert_eq!(get(&o.counts.client_changed), 1);
    assert_eq!(get(&o.counts.unchanged), moving.len() as u64 - 3);
    assert_eq!(
        mem.get(&new_addr(&pl, changed), changed).as_deref(),
        Some(&b"v2"[..])
    );
    assert_eq!(mem.get(&new_addr(&pl, gone), gone), None);
    assert_eq!(
        mem.get(&new_addr(&pl, client), client).as_deref(),
        Some(&b"client"[..])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_that_cannot_sync_refuses_the_run_and_a_raised_stop_ends_it() {
    let (mem, pl, _) = setup();
    let mut old_one = Memory {
        old_version: vec![pl.new.endpoints[4].addr.clone()],
        ..Memory::default()
    };
    old_one.servers = Mutex::new(mem.servers.lock().unwrap().clone());
    let old_one = Mem(Arc::new(old_one));
    match ketama_migrate::run(&pl, &old_one, &RunOptions::new(never())) {
        Err(RunError::Unsupported(e)) => assert!(e.message.contains("cannot sync"), "{e}"),
        other => panic!("{other:?}"),
    }
    let stop = Arc::new(AtomicBool::new(true));
    let o = ketama_migrate::run(&pl, &mem, &RunOptions::new(stop)).unwrap();
    assert!(o.interrupted);
    assert_eq!(get(&o.counts.copied), 0);
}
