//! `ketama migrate run`: copies each moving key from its OLD owner to its NEW owner.
//!
//! 1. Every NEW server must answer and speak the meta protocol, or nothing starts.
//! 2. Each OLD server of the shard is listed (`lru_crawler metadump all`) into a spool file,
//!    so memory does not grow with the number of keys (only the state file is in memory).
//! 3. `--concurrency` workers take batches of moving keys: one pipelined round of `mg <key> v f
//!    t c u` (value, client flags, remaining TTL, CAS, no LRU bump) on the source, then one
//!    pipelined round of `ms` on each NEW owner: add mode (`ME`) for a first copy, so a key
//!    the new owner already holds (a client on the new placement wrote it: it is newer) is
//!    never overwritten; for a key copied before whose source changed, set mode with `C<cas>`
//!    of the copy as written, so a copy a client changed since is left alone. The remaining
//!    TTL is kept (relative up to 30 days, absolute beyond, none stays none); an expired key is
//!    not copied. At most one batch of values per worker is in memory.
//! 4. With `--state`, copies whose source is gone are deleted (`md <key> C<cas>`, again only
//!    if no client changed them).
//!
//! A server that fails mid-run is named; the keys not copied because of it are counted and
//! the exit status is 3; a rerun (with the same state file) completes the work. Every write is
//! one `ms` or `md`, which memcached applies whole or not at all.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use super::meta::{self, DeleteReply, MetaConn, Mode, SetReply, NO_META};
use super::plan::now;
use super::state::{Copy, State};
use super::{list_server, parse_shard, Fate, Listing, Placement, RunArgs, CACHEDUMP_NOTE};
use crate::output::Format;
use crate::output::{hex, Table};
use crate::progress::{Progress, Unit};
use crate::shared::Fail;

/// Keys per pipelined batch.
const BATCH: usize = 256;
/// Value bytes per batch (from the listed item sizes) before it is sent.
const BATCH_BYTES: u64 = 4 << 20;

/// Counters of one run (shared by the workers).
#[derive(Debug, Default)]
pub struct Counts {
    /// Keys listed on the shard's OLD servers.
    pub listed: AtomicU64,
    /// Keys whose server does not change.
    pub stay: AtomicU64,
    /// Keys misplaced under the OLD placement (not copied).
    pub stale: AtomicU64,
    /// Keys expired at the source (not copied).
    pub expired: AtomicU64,
    /// Keys the NEW placement has no server for.
    pub no_new_owner: AtomicU64,
    /// Moving keys (the work).
    pub moving: AtomicU64,
    /// Copies written.
    pub copied: AtomicU64,
    /// Copies updated (source changed since copied).
    pub updated: AtomicU64,
    /// Copies already up to date (state: source unchanged).
    pub unchanged: AtomicU64,
    /// Keys the NEW owner already held (not overwritten).
    pub kept: AtomicU64,
    /// Copies a client changed after the tool wrote them (left alone).
    pub client_changed: AtomicU64,
    /// Keys gone at the source between listing and reading.
    pub vanished: AtomicU64,
    /// Copies deleted because their source is gone.
    pub deleted_copies: AtomicU64,
    /// `--delete-moved`: OLD copies deleted.
    pub deleted_old: AtomicU64,
    /// `--delete-moved`: OLD copies kept because the NEW owner does not hold the key.
    pub not_held: AtomicU64,
    /// `--delete-moved`: OLD copies kept because they changed since they were listed.
    pub changed_at_source: AtomicU64,
    /// Keys the NEW server refused (`SERVER_ERROR`, e.g. over its item size limit).
    pub refused: AtomicU64,
    /// Keys the meta protocol cannot name (binary keys over 187 bytes).
    pub unsendable: AtomicU64,
    /// Keys not copied (or not deleted) because a server failed.
    pub failed: AtomicU64,
    /// Keys handled (for the progress bar).
    pub done: AtomicU64,
}

fn inc(a: &AtomicU64, n: u64) {
    a.fetch_add(n, Ordering::Relaxed);
}

fn get(a: &AtomicU64) -> u64 {
    a.load(Ordering::Relaxed)
}

/// One key to copy (or, with `--delete-moved`, to delete at its source).
#[derive(Clone, Debug)]
struct Job {
    src: usize,
    dst: usize,
    key: Vec<u8>,
    /// CAS at listing (0: unknown).
    cas: u64,
    /// Item size at listing (0: unknown).
    size: u64,
    /// The copy recorded by an earlier run.
    prev: Option<Copy>,
}

/// Servers that failed during the run: label -> first error.
#[derive(Debug, Default)]
struct Dead(Mutex<BTreeMap<String, String>>);

impl Dead {
    fn has(&self, label: &str) -> bool {
        self.0.lock().map_or(true, |m| m.contains_key(label))
    }
    /// Records a failure (not when Ctrl-C is what ended the wait).
    fn add(&self, label: &str, err: String) {
        if crate::stop::requested() {
            return;
        }
        if let Ok(mut m) = self.0.lock() {
            m.entry(label.to_string()).or_insert(err);
        }
    }
    fn list(&self) -> Vec<(String, String)> {
        self.0
            .lock()
            .map(|m| m.iter().map(|(a, b)| (a.clone(), b.clone())).collect())
            .unwrap_or_default()
    }
}

/// A token bucket shared by the workers: at most `rate` keys per second.
#[derive(Debug)]
struct Bucket {
    rate: f64,
    state: Mutex<(f64, Instant)>,
}

impl Bucket {
    fn new(rate: u64) -> Bucket {
        Bucket {
            rate: rate as f64,
            state: Mutex::new((0.0, Instant::now())),
        }
    }

    /// Takes `n` tokens, sleeping (in steps that watch for Ctrl-C) while the bucket is in debt.
    fn take(&self, n: usize) {
        let wait = {
            let Ok(mut s) = self.state.lock() else {
                return;
            };
            let now = Instant::now();
            let refill = now.duration_since(s.1).as_secs_f64() * self.rate;
            // At most a tenth of a second of burst.
            s.0 = (s.0 + refill).min(self.rate / 10.0) - n as f64;
            s.1 = now;
            if s.0 < 0.0 {
                -s.0 / self.rate
            } else {
                0.0
            }
        };
        let until = Instant::now() + Duration::from_secs_f64(wait);
        while Instant::now() < until && !crate::stop::requested() {
            std::thread::sleep((until - Instant::now()).min(Duration::from_millis(50)));
        }
    }
}

/// A spool file of listed keys, removed when dropped.
#[derive(Debug)]
struct Spool {
    path: std::path::PathBuf,
    src: usize,
    listing: Listing,
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Shared context of the workers.
struct Ctx<'a> {
    pl: &'a Placement,
    counts: &'a Counts,
    dead: &'a Dead,
    state: Option<&'a Mutex<State>>,
    bucket: Option<&'a Bucket>,
    /// Per NEW server: its clock minus ours (seconds), for absolute expiry times.
    clock: &'a [i64],
    delete_moved: bool,
    stop: &'a AtomicBool,
}

/// The result of `run`, for reports.
#[derive(Debug)]
pub struct Outcome {
    /// Counters.
    pub counts: Counts,
    /// Servers that failed: label, error.
    pub dead: Vec<(String, String)>,
    /// Whether some OLD server was listed with `stats cachedump`.
    pub cachedump: bool,
    /// Whether Ctrl-C stopped the run.
    pub interrupted: bool,
    /// Seconds the work took.
    pub seconds: f64,
}

/// Runs `ketama migrate run`: the output and the exit status.
pub fn run(a: &RunArgs, f: Format) -> Result<(String, i32), Fail> {
    let pl = Placement::load(&a.place)?;
    if a.concurrency == 0 || a.concurrency > 1024 {
        return Err(Fail::new("--concurrency must be 1 to 1024"));
    }
    if a.rate == Some(0) {
        return Err(Fail::new("--rate must be at least 1 key per second"));
    }
    if a.dry_run && a.delete_moved {
        // Allowed: counts what would be deleted.
    }
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    if pl.is_identity() {
        return Ok((
            match f {
                Format::Json => crate::output::json(&json!({"nothing_moves": true})),
                _ => "nothing moves: OLD and NEW are the same servers under the same placement\n"
                    .to_string(),
            },
            0,
        ));
    }
    let clock = match preflight(&pl) {
        Ok(c) => c,
        Err(Refusal::NoMeta(e)) => return Err(Fail::new(e)),
        Err(Refusal::Down(down)) => {
            eprintln!(
                "ketama: migrate run: every NEW server must answer before anything is copied; nothing was copied: {}",
                down.join("; ")
            );
            return Ok((String::new(), super::EXIT_SERVER));
        }
    };
    let opts = RunOptions {
        state: a.state.clone(),
        rate: a.rate,
        concurrency: a.concurrency,
        dry_run: a.dry_run,
        delete_moved: a.delete_moved,
        shard,
    };
    let o = execute(&pl, &opts, &clock)?;
    let code = if o.interrupted {
        2
    } else if !o.dead.is_empty() || get(&o.counts.failed) > 0 || get(&o.counts.refused) > 0 {
        super::EXIT_SERVER
    } else {
        0
    };
    for (label, e) in &o.dead {
        eprintln!("ketama: migrate run: server {label} failed: {e}");
    }
    if get(&o.counts.failed) > 0 {
        eprintln!(
            "ketama: migrate run: {} keys not {} because a server failed; run again when it is back{}",
            get(&o.counts.failed),
            if a.delete_moved { "deleted" } else { "copied" },
            if a.state.is_some() { " (same --state file)" } else { "" }
        );
    }
    if o.interrupted {
        eprintln!(
            "ketama: migrate run: interrupted; what was done is kept{}, a rerun resumes",
            if a.state.is_some() {
                " (and recorded in the state file)"
            } else {
                ""
            }
        );
    }
    let out = match f {
        Format::Json => crate::output::json(&outcome_json(&pl, a, &o)),
        _ => outcome_table(&pl, a, &o),
    };
    Ok((out, code))
}

/// Connects to a server and checks it speaks the meta protocol.
fn open(pl: &Placement, label: &str, addr: &str) -> Result<MetaConn, String> {
    let mut c = MetaConn::connect(label, addr, pl.timeout)?;
    c.check_meta()?;
    Ok(c)
}

/// Why a run does not start.
#[derive(Debug)]
pub enum Refusal {
    /// A server without the meta protocol (memcached before 1.6).
    NoMeta(String),
    /// NEW servers that did not answer (each message names one).
    Down(Vec<String>),
}

/// Checks that every NEW server answers and speaks the meta protocol; returns each one's
/// clock offset (its clock minus ours, seconds).
pub fn preflight(pl: &Placement) -> Result<Vec<i64>, Refusal> {
    let mut clock = vec![0i64; pl.new_labels.len()];
    let mut down = Vec::new();
    for (j, (label, addr)) in pl.new_labels.iter().zip(&pl.new_addrs).enumerate() {
        match open(pl, label, addr).and_then(|mut c| c.server_time()) {
            Ok(t) => clock[j] = t - now(),
            Err(e) if e.contains(NO_META) => return Err(Refusal::NoMeta(e)),
            Err(e) => down.push(e),
        }
    }
    if down.is_empty() {
        Ok(clock)
    } else {
        Err(Refusal::Down(down))
    }
}

/// How a run works (the options of `migrate run` besides the placement).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The state file.
    pub state: Option<String>,
    /// Keys per second at most.
    pub rate: Option<u64>,
    /// Parallel connections.
    pub concurrency: usize,
    /// Count only.
    pub dry_run: bool,
    /// Delete moved keys at their OLD server (where the NEW owner holds them).
    pub delete_moved: bool,
    /// Only OLD servers at positions I mod N.
    pub shard: Option<(usize, usize)>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            state: None,
            rate: None,
            concurrency: 4,
            dry_run: false,
            delete_moved: false,
            shard: None,
        }
    }
}

/// Does the work of a run (no output); `clock` comes from [`preflight`].
pub fn execute(pl: &Placement, a: &RunOptions, clock: &[i64]) -> Result<Outcome, Fail> {
    let shard = a.shard;
    crate::stop::install();
    let start = Instant::now();
    let counts = Counts::default();
    let dead = Dead::default();
    let sources: Vec<usize> = (0..pl.old_labels.len())
        .filter(|p| shard.is_none_or(|(i, n)| p % n == i))
        .collect();
    let state = match &a.state {
        Some(p) if !a.dry_run => Some(Mutex::new(
            State::open(p, &pl.old_labels, &pl.new_labels).map_err(Fail::new)?,
        )),
        _ => None,
    };
    // 2. List each source into a spool file.
    let mut spools = Vec::new();
    for &src in &sources {
        let label = &pl.old_labels[src];
        if crate::stop::requested() {
            break;
        }
        if let Err(e) = open(pl, label, &pl.old_addrs[src]) {
            if e.contains(NO_META) {
                return Err(Fail::new(e));
            }
            dead.add(label, e);
            continue;
        }
        match spool(pl, src, &counts) {
            Ok(s) => spools.push(s),
            Err(e) => dead.add(label, e),
        }
    }
    let cachedump = spools.iter().any(|s| s.listing == Listing::Cachedump);
    // 3. Copy.
    let stop = AtomicBool::new(false);
    let bucket = a.rate.map(Bucket::new);
    let ctx = Ctx {
        pl,
        counts: &counts,
        dead: &dead,
        state: state.as_ref(),
        bucket: bucket.as_ref(),
        clock,
        delete_moved: a.delete_moved,
        stop: &stop,
    };
    let finished = AtomicBool::new(false);
    let (tx, rx) = sync_channel::<Job>(BATCH * a.concurrency * 2);
    let rx = Mutex::new(rx);
    let feed_result = std::thread::scope(|sc| -> Result<(), Fail> {
        let tx = tx;
        let mut workers = Vec::new();
        if !a.dry_run {
            for _ in 0..a.concurrency {
                workers.push(sc.spawn(|| worker(&ctx, &rx)));
            }
        }
        sc.spawn(|| {
            let total = get(&counts.listed);
            let mut bar = Progress::new(total, "migrate", Unit::Items);
            let mut shown = 0;
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let d = get(&counts.done);
                bar.inc(d.saturating_sub(shown));
                shown = d;
            }
            bar.finish();
        });
        let r = feed(&ctx, &spools, a.dry_run, |j| {
            tx.send(j)
                .map_err(|_| Fail::new("the copy workers stopped"))
        });
        drop(tx);
        for w in workers {
            let _ = w.join();
        }
        finished.store(true, Ordering::Relaxed);
        r
    });
    feed_result?;
    let interrupted = crate::stop::requested();
    // 4. Copies whose source is gone (state only, sources listed completely).
    if let Some(st) = &state {
        if !interrupted && !a.delete_moved {
            for s in &spools {
                if s.listing == Listing::Metadump && !dead.has(&pl.old_labels[s.src]) {
                    delete_gone(&ctx, st, s.src);
                }
            }
        }
        let mut st = st.lock().map_err(|_| Fail::new("state lock poisoned"))?;
        if interrupted {
            st.flush().map_err(Fail::new)?;
        } else {
            st.compact().map_err(Fail::new)?;
        }
    }
    Ok(Outcome {
        counts,
        dead: dead.list(),
        cachedump,
        interrupted,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Lists one OLD server into a spool file: `<cas> <exp> <size> <hex-key>` per line.
fn spool(pl: &Placement, src: usize, counts: &Counts) -> Result<Spool, String> {
    let path =
        std::env::temp_dir().join(format!("ketama-migrate-{}-{src}.spool", std::process::id()));
    let mut s = Spool {
        path,
        src,
        listing: Listing::Metadump,
    };
    let fail = |e: std::io::Error| format!("spool file {}: {e}", s.path.display());
    let mut w = BufWriter::new(File::create(&s.path).map_err(fail)?);
    let label = &pl.old_labels[src];
    let listing = list_server(label, &pl.old_addrs[src], pl.timeout, |it| {
        inc(&counts.listed, 1);
        writeln!(w, "{} {} {} {}", it.cas, it.exp, it.size, hex(&it.key))
            .map_err(|e| format!("spool file: {e}"))
    })?;
    w.flush().map_err(fail)?;
    s.listing = listing;
    Ok(s)
}

fn unhex(s: &[u8]) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    s.chunks(2)
        .map(|c| u8::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
        .collect()
}

/// Reads the spools, counts what does not move, and hands each moving key to `send`.
fn feed(
    ctx: &Ctx,
    spools: &[Spool],
    dry_run: bool,
    mut send: impl FnMut(Job) -> Result<(), Fail>,
) -> Result<(), Fail> {
    let c = ctx.counts;
    let t = now();
    for s in spools {
        let f = File::open(&s.path)
            .map_err(|e| Fail::new(format!("spool file {}: {e}", s.path.display())))?;
        for line in BufReader::new(f).split(b'\n') {
            if crate::stop::requested() || ctx.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let line =
                line.map_err(|e| Fail::new(format!("spool file {}: {e}", s.path.display())))?;
            let mut it = line.splitn(4, |&b| b == b' ');
            let (Some(cas), Some(exp), Some(size), Some(key)) =
                (it.next(), it.next(), it.next(), it.next())
            else {
                continue;
            };
            let num = |b: &[u8]| {
                std::str::from_utf8(b)
                    .ok()
                    .and_then(|v| v.parse::<i64>().ok())
            };
            let (Some(cas), Some(exp), Some(size), Some(key)) =
                (num(cas), num(exp), num(size), unhex(key))
            else {
                continue;
            };
            let (cas, size) = (cas as u64, size as u64);
            if exp >= 0 && exp <= t {
                inc(&c.expired, 1);
                inc(&c.done, 1);
                continue;
            }
            let dst = match ctx.pl.fate(s.src, &key) {
                Fate::Stale => {
                    inc(&c.stale, 1);
                    inc(&c.done, 1);
                    continue;
                }
                Fate::Stays => {
                    inc(&c.stay, 1);
                    inc(&c.done, 1);
                    continue;
                }
                Fate::NoNewOwner => {
                    inc(&c.no_new_owner, 1);
                    inc(&c.done, 1);
                    continue;
                }
                Fate::Moves(d) => d,
            };
            inc(&c.moving, 1);
            if !meta::sendable(&key) {
                inc(&c.unsendable, 1);
                inc(&c.done, 1);
                continue;
            }
            let prev = match ctx.state {
                Some(st) => {
                    let mut st = st.lock().map_err(|_| Fail::new("state lock poisoned"))?;
                    st.mark_seen(&key);
                    st.get(&key).cloned()
                }
                None => None,
            };
            if dry_run {
                inc(&c.done, 1);
                continue;
            }
            send(Job {
                src: s.src,
                dst,
                key,
                cas,
                size,
                prev,
            })?;
        }
    }
    Ok(())
}

/// Takes jobs in batches until the channel closes.
fn worker(ctx: &Ctx, rx: &Mutex<Receiver<Job>>) {
    let mut old: HashMap<usize, MetaConn> = HashMap::new();
    let mut new: HashMap<usize, MetaConn> = HashMap::new();
    let cap = ctx
        .bucket
        .map_or(BATCH, |b| ((b.rate / 20.0) as usize).clamp(1, BATCH));
    loop {
        let mut batch = Vec::with_capacity(cap);
        {
            let Ok(rx) = rx.lock() else { return };
            let mut bytes = 0;
            match rx.recv() {
                Ok(j) => {
                    bytes += j.size;
                    batch.push(j);
                }
                Err(_) => return,
            }
            while batch.len() < cap && bytes < BATCH_BYTES {
                match rx.try_recv() {
                    Ok(j) => {
                        bytes += j.size;
                        batch.push(j);
                    }
                    Err(_) => break,
                }
            }
        }
        if crate::stop::requested() {
            ctx.stop.store(true, Ordering::Relaxed);
            continue; // drain without work, so the feeder is never blocked
        }
        if let Some(b) = ctx.bucket {
            b.take(batch.len());
        }
        let n = batch.len() as u64;
        if ctx.delete_moved {
            delete_batch(ctx, &mut old, &mut new, batch);
        } else {
            copy_batch(ctx, &mut old, &mut new, batch);
        }
        inc(&ctx.counts.done, n);
    }
}

/// The connection to server `i` of `labels`, opened on first use; `None` when it failed.
fn conn<'m>(
    ctx: &Ctx,
    conns: &'m mut HashMap<usize, MetaConn>,
    i: usize,
    labels: &[String],
    addrs: &[String],
) -> Option<&'m mut MetaConn> {
    if ctx.dead.has(&labels[i]) {
        conns.remove(&i);
        return None;
    }
    if let std::collections::hash_map::Entry::Vacant(e) = conns.entry(i) {
        match open(ctx.pl, &labels[i], &addrs[i]) {
            Ok(c) => {
                e.insert(c);
            }
            Err(err) => {
                ctx.dead.add(&labels[i], err);
                return None;
            }
        }
    }
    conns.get_mut(&i)
}

/// Reads each job's source item (pipelined per source); the jobs whose source failed are
/// counted as failed and left out.
fn read_sources(
    ctx: &Ctx,
    old: &mut HashMap<usize, MetaConn>,
    batch: Vec<Job>,
) -> Vec<(Job, meta::Got)> {
    let pl = ctx.pl;
    let mut by_src: BTreeMap<usize, Vec<Job>> = BTreeMap::new();
    for j in batch {
        by_src.entry(j.src).or_default().push(j);
    }
    let mut got = Vec::new();
    for (src, jobs) in by_src {
        let Some(c) = conn(ctx, old, src, &pl.old_labels, &pl.old_addrs) else {
            inc(&ctx.counts.failed, jobs.len() as u64);
            continue;
        };
        let r = (|| -> Result<Vec<Option<meta::Got>>, String> {
            for j in &jobs {
                c.queue_get(&j.key)?;
            }
            c.flush()?;
            jobs.iter().map(|_| c.read_get()).collect()
        })();
        match r {
            Ok(items) => {
                for (j, g) in jobs.into_iter().zip(items) {
                    match g {
                        Some(g) => got.push((j, g)),
                        None => inc(&ctx.counts.vanished, 1),
                    }
                }
            }
            Err(e) => {
                ctx.dead.add(&pl.old_labels[src], e);
                old.remove(&src);
                inc(&ctx.counts.failed, jobs.len() as u64);
            }
        }
    }
    got
}

/// What to write for one job.
struct Write1 {
    job: Job,
    got: meta::Got,
    mode: Mode,
    compare: Option<u64>,
}

/// Keys copied before whose source is unchanged (same CAS at listing) are only checked on
/// the NEW server (`mg <key> c`, no value): unchanged when the copy still has the CAS the tool
/// wrote; copied again when it is gone (evicted, or the server restarted); forgotten (left
/// alone) when a client changed it. Returns the jobs that still need their source read.
fn probe_copies(ctx: &Ctx, new: &mut HashMap<usize, MetaConn>, batch: Vec<Job>) -> Vec<Job> {
    let c = ctx.counts;
    let pl = ctx.pl;
    let mut rest = Vec::with_capacity(batch.len());
    let mut by_dst: BTreeMap<usize, Vec<Job>> = BTreeMap::new();
    for j in batch {
        match &j.prev {
            Some(p) if j.cas != 0 && p.src_cas == j.cas && p.dst == j.dst && p.src == j.src => {
                by_dst.entry(j.dst).or_default().push(j)
            }
            _ => rest.push(j),
        }
    }
    let mut records = Vec::new();
    for (dst, jobs) in by_dst {
        let Some(conn) = conn(ctx, new, dst, &pl.new_labels, &pl.new_addrs) else {
            inc(&c.failed, jobs.len() as u64);
            continue;
        };
        let r = (|| -> Result<Vec<Option<u64>>, String> {
            for j in &jobs {
                conn.queue_cas(&j.key)?;
            }
            conn.flush()?;
            jobs.iter().map(|_| conn.read_cas()).collect()
        })();
        match r {
            Ok(cas) => {
                for (j, now) in jobs.into_iter().zip(cas) {
                    let want = j.prev.as_ref().map_or(0, |p| p.dst_cas);
                    match now {
                        Some(x) if x == want => inc(&c.unchanged, 1),
                        Some(_) => {
                            inc(&c.client_changed, 1);
                            records.push((j.key, None));
                        }
                        None => rest.push(Job { prev: None, ..j }),
                    }
                }
            }
            Err(e) => {
                ctx.dead.add(&pl.new_labels[dst], e);
                new.remove(&dst);
                inc(&c.failed, jobs.len() as u64);
            }
        }
    }
    record(ctx, records);
    rest
}

fn copy_batch(
    ctx: &Ctx,
    old: &mut HashMap<usize, MetaConn>,
    new: &mut HashMap<usize, MetaConn>,
    batch: Vec<Job>,
) {
    let c = ctx.counts;
    let batch = probe_copies(ctx, new, batch);
    let mut by_dst: BTreeMap<usize, Vec<Write1>> = BTreeMap::new();
    for (job, got) in read_sources(ctx, old, batch) {
        let (mode, compare) = match &job.prev {
            Some(p) if p.src_cas == got.cas && p.dst == job.dst => {
                inc(&c.unchanged, 1);
                continue;
            }
            Some(p) if p.dst == job.dst => (Mode::Set, Some(p.dst_cas)),
            _ => (Mode::Add, None),
        };
        by_dst.entry(job.dst).or_default().push(Write1 {
            job,
            got,
            mode,
            compare,
        });
    }
    let mut records: Vec<(Vec<u8>, Option<Copy>)> = Vec::new();
    for (dst, writes) in by_dst {
        let mut round = writes;
        // A compared write whose copy is gone (NF) is retried once in add mode.
        for _attempt in 0..2 {
            if round.is_empty() {
                break;
            }
            let pl = ctx.pl;
            let Some(conn) = conn(ctx, new, dst, &pl.new_labels, &pl.new_addrs) else {
                inc(&c.failed, round.len() as u64);
                break;
            };
            let server_now = now() + ctx.clock[dst];
            let mut sent = Vec::with_capacity(round.len());
            let r = (|| -> Result<Vec<SetReply>, String> {
                for w in round.drain(..) {
                    match meta::exp_token(w.got.ttl, server_now) {
                        Some(exp) => {
                            conn.queue_set(
                                &w.job.key,
                                &w.got.value,
                                w.got.flags,
                                exp,
                                w.mode,
                                w.compare,
                            )?;
                            sent.push(w);
                        }
                        None => inc(&c.expired, 1),
                    }
                }
                conn.flush()?;
                sent.iter().map(|_| conn.read_set()).collect()
            })();
            let replies = match r {
                Ok(r) => r,
                Err(e) => {
                    ctx.dead.add(&pl.new_labels[dst], e);
                    new.remove(&dst);
                    inc(&c.failed, sent.len() as u64);
                    break;
                }
            };
            for (w, reply) in sent.into_iter().zip(replies) {
                match reply {
                    SetReply::Stored(cas) => {
                        inc(
                            if w.compare.is_some() {
                                &c.updated
                            } else {
                                &c.copied
                            },
                            1,
                        );
                        records.push((
                            w.job.key,
                            Some(Copy {
                                src: w.job.src,
                                dst,
                                src_cas: w.got.cas,
                                dst_cas: cas,
                                seen: true,
                            }),
                        ));
                    }
                    SetReply::NotStored => {
                        inc(&c.kept, 1);
                        if w.job.prev.is_some() {
                            records.push((w.job.key, None));
                        }
                    }
                    SetReply::Exists => {
                        inc(&c.client_changed, 1);
                        records.push((w.job.key, None));
                    }
                    SetReply::Refused => inc(&c.refused, 1),
                    SetReply::NotFound => round.push(Write1 {
                        mode: Mode::Add,
                        compare: None,
                        job: Job {
                            prev: None,
                            ..w.job
                        },
                        got: w.got,
                    }),
                }
            }
        }
    }
    record(ctx, records);
}

/// Applies copy records (`None`: forget) to the state file, flushed once per batch.
fn record(ctx: &Ctx, records: Vec<(Vec<u8>, Option<Copy>)>) {
    let Some(st) = ctx.state else { return };
    if records.is_empty() {
        return;
    }
    let Ok(mut st) = st.lock() else { return };
    let mut r = Ok(());
    for (k, c) in records {
        let x = match c {
            Some(c) => st.record(&k, c),
            None => st.forget(&k),
        };
        if r.is_ok() {
            r = x;
        }
    }
    if let Err(e) = r.and_then(|_| st.flush()) {
        ctx.dead.add("(state file)", e);
        ctx.stop.store(true, Ordering::Relaxed);
    }
}

/// `--delete-moved`: deletes OLD copies whose NEW owner holds the key.
fn delete_batch(
    ctx: &Ctx,
    old: &mut HashMap<usize, MetaConn>,
    new: &mut HashMap<usize, MetaConn>,
    batch: Vec<Job>,
) {
    let pl = ctx.pl;
    let c = ctx.counts;
    let mut by_dst: BTreeMap<usize, Vec<Job>> = BTreeMap::new();
    for j in batch {
        by_dst.entry(j.dst).or_default().push(j);
    }
    let mut by_src: BTreeMap<usize, Vec<Job>> = BTreeMap::new();
    for (dst, jobs) in by_dst {
        let Some(conn) = conn(ctx, new, dst, &pl.new_labels, &pl.new_addrs) else {
            inc(&c.failed, jobs.len() as u64);
            continue;
        };
        let r = (|| -> Result<Vec<bool>, String> {
            for j in &jobs {
                conn.queue_has(&j.key)?;
            }
            conn.flush()?;
            jobs.iter().map(|_| conn.read_has()).collect()
        })();
        match r {
            Ok(held) => {
                for (j, h) in jobs.into_iter().zip(held) {
                    if h {
                        by_src.entry(j.src).or_default().push(j);
                    } else {
                        inc(&c.not_held, 1);
                    }
                }
            }
            Err(e) => {
                ctx.dead.add(&pl.new_labels[dst], e);
                new.remove(&dst);
                inc(&c.failed, jobs.len() as u64);
            }
        }
    }
    let mut records = Vec::new();
    for (src, jobs) in by_src {
        let Some(conn) = conn(ctx, old, src, &pl.old_labels, &pl.old_addrs) else {
            inc(&c.failed, jobs.len() as u64);
            continue;
        };
        let r = (|| -> Result<Vec<DeleteReply>, String> {
            for j in &jobs {
                conn.queue_delete(&j.key, (j.cas != 0).then_some(j.cas))?;
            }
            conn.flush()?;
            jobs.iter().map(|_| conn.read_delete()).collect()
        })();
        match r {
            Ok(replies) => {
                for (j, r) in jobs.into_iter().zip(replies) {
                    match r {
                        DeleteReply::Deleted => {
                            inc(&c.deleted_old, 1);
                            records.push((j.key, None));
                        }
                        DeleteReply::NotFound => inc(&c.vanished, 1),
                        DeleteReply::Exists => inc(&c.changed_at_source, 1),
                    }
                }
            }
            Err(e) => {
                ctx.dead.add(&pl.old_labels[src], e);
                old.remove(&src);
                inc(&c.failed, jobs.len() as u64);
            }
        }
    }
    record(ctx, records);
}

/// Deletes the recorded copies whose source `src` no longer lists the key, unless a client
/// changed them since the tool wrote them.
fn delete_gone(ctx: &Ctx, st: &Mutex<State>, src: usize) {
    let pl = ctx.pl;
    let c = ctx.counts;
    let gone = match st.lock() {
        Ok(s) => s.unseen(src),
        Err(_) => return,
    };
    let mut by_dst: BTreeMap<usize, Vec<(Vec<u8>, Copy)>> = BTreeMap::new();
    for (k, cp) in gone {
        by_dst.entry(cp.dst).or_default().push((k, cp));
    }
    let mut new = HashMap::new();
    let mut records = Vec::new();
    for (dst, items) in by_dst {
        for chunk in items.chunks(BATCH) {
            let Some(conn) = conn(ctx, &mut new, dst, &pl.new_labels, &pl.new_addrs) else {
                inc(&c.failed, chunk.len() as u64);
                continue;
            };
            let r = (|| -> Result<Vec<DeleteReply>, String> {
                for (k, cp) in chunk {
                    conn.queue_delete(k, Some(cp.dst_cas))?;
                }
                conn.flush()?;
                chunk.iter().map(|_| conn.read_delete()).collect()
            })();
            match r {
                Ok(replies) => {
                    for ((k, _), r) in chunk.iter().zip(replies) {
                        match r {
                            DeleteReply::Deleted => inc(&c.deleted_copies, 1),
                            DeleteReply::Exists => inc(&c.client_changed, 1),
                            DeleteReply::NotFound => {}
                        }
                        records.push((k.clone(), None));
                    }
                }
                Err(e) => {
                    ctx.dead.add(&pl.new_labels[dst], e);
                    new.remove(&dst);
                    inc(&c.failed, chunk.len() as u64);
                }
            }
        }
    }
    record(ctx, records);
}

fn rows(a: &RunArgs, c: &Counts) -> Vec<(&'static str, u64, &'static str)> {
    let mut v = vec![
        (
            "listed",
            get(&c.listed),
            "keys on the OLD servers of this run",
        ),
        ("stay", get(&c.stay), "their server does not change"),
        (
            "stale",
            get(&c.stale),
            "misplaced under the OLD placement: not copied",
        ),
        ("expired", get(&c.expired), "TTL passed: not copied"),
        (
            "no new owner",
            get(&c.no_new_owner),
            "the NEW client refuses the key",
        ),
        ("moving", get(&c.moving), "keys whose server changes"),
    ];
    if a.delete_moved {
        v.extend([
            (
                "deleted",
                get(&c.deleted_old),
                "OLD copies deleted (the NEW owner holds the key)",
            ),
            (
                "not held",
                get(&c.not_held),
                "kept: the NEW owner does not hold the key",
            ),
            (
                "changed",
                get(&c.changed_at_source),
                "kept: changed at the OLD server since listed",
            ),
        ]);
    } else {
        v.extend([
            ("copied", get(&c.copied), "written to the NEW owner"),
            (
                "updated",
                get(&c.updated),
                "copies updated: the source changed since copied",
            ),
            (
                "unchanged",
                get(&c.unchanged),
                "copied before; source and copy unchanged",
            ),
            (
                "kept",
                get(&c.kept),
                "the NEW owner already held the key (newer): not overwritten",
            ),
            (
                "client changed",
                get(&c.client_changed),
                "a client changed the copy after it was written: left alone",
            ),
            (
                "deleted",
                get(&c.deleted_copies),
                "copies deleted: their source is gone",
            ),
        ]);
    }
    v.extend([
        (
            "vanished",
            get(&c.vanished),
            "gone at the source before it was read",
        ),
        (
            "refused",
            get(&c.refused),
            "the NEW server refused the item (SERVER_ERROR: e.g. over its item size limit)",
        ),
        (
            "unsendable",
            get(&c.unsendable),
            "binary keys over 187 bytes: the meta protocol cannot name them",
        ),
        (
            "failed",
            get(&c.failed),
            "not done: a server failed (run again)",
        ),
    ]);
    v
}

fn outcome_table(pl: &Placement, a: &RunArgs, o: &Outcome) -> String {
    let mut out = format!(
        "migrate run{}: {}{}\n\n",
        if a.dry_run {
            " (dry run: nothing written)"
        } else {
            ""
        },
        pl.describe(),
        a.shard
            .as_deref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    let mut t = Table::new(&["keys", "count", "what"]);
    for (name, n, what) in rows(a, &o.counts) {
        t.row(vec![name.into(), n.to_string(), what.into()]);
    }
    out.push_str(&t.text());
    let moving = get(&o.counts.moving);
    out.push_str(&format!(
        "\n{:.1} s{}\n",
        o.seconds,
        if o.seconds > 0.0 && moving > 0 {
            format!(", {:.0} moving keys/s", moving as f64 / o.seconds)
        } else {
            String::new()
        }
    ));
    if moving == 0 && o.dead.is_empty() {
        out.push_str("nothing moves\n");
    }
    if o.cachedump {
        out.push_str(CACHEDUMP_NOTE);
        out.push('\n');
    }
    for (label, e) in &o.dead {
        out.push_str(&format!("FAILED: server {label}: {e}\n"));
    }
    if o.interrupted {
        out.push_str("INTERRUPTED: a rerun resumes\n");
    }
    out
}

fn outcome_json(pl: &Placement, a: &RunArgs, o: &Outcome) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (name, n, _) in rows(a, &o.counts) {
        m.insert(name.replace(' ', "_"), json!(n));
    }
    json!({
        "old": pl.old.path,
        "new": pl.new.path,
        "dry_run": a.dry_run,
        "delete_moved": a.delete_moved,
        "shard": a.shard,
        "counts": m,
        "seconds": o.seconds,
        "failed_servers": o.dead.iter().map(|(l, e)| json!({"server": l, "error": e})).collect::<Vec<_>>(),
        "cachedump": o.cachedump,
        "interrupted": o.interrupted,
    })
}
