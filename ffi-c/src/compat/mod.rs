//! The original last.fm libketama C API (`ketama_roll`, `ketama_get_server`, ...), declared
//! in `include/ketama_compat.h` (installed as `libketama/ketama.h`).
//!
//! Same continuum as libketama for the same server file (docs/client-notes.md 3.5), without its System V
//! shared memory: each process parses the file itself, shares one parsed copy per path among
//! its live continua (so `ketama_roll` again while one is alive does not re-parse the file),
//! and reloads when the file changes: at `ketama_roll`, and from `ketama_get_server` at most
//! once a second. No segment, no semaphore, no 512 KiB limit.
//!
//! Reload rule: a change is seen when the file's device, inode, size, modification
//! time or status-change time (`ctime`, which every write moves, even one that puts the mtime
//! back) differ from the last check; the file is then read and rebuilt only when its content
//! (MD5 of the bytes) differs, so `touch` alone costs one read and no new continuum.
//! The path must name a regular file of at most [`MAX_FILE_BYTES`]: a directory, a FIFO, a
//! device (`/dev/zero`) or a larger file is refused at once, without reading, with a message
//! saying which.
//!
//! Pointer lifetime: an `mcs *` from `ketama_get_server` stays valid until `ketama_smoke`,
//! across any number of reloads. It points to an interned record, one per distinct
//! (address, point) pair the file has had while a continuum of that path was alive, shared by
//! every generation (see [`Records`]): a reload that changes some lines adds only the points
//! those servers did not have before, and a server that comes back reuses its records.
//! Memory is 28 bytes plus about 24 of index per such pair: for a file that only ever names
//! servers out of a set of N addresses, at most N x (the most points one of them ever had);
//! it grows only when the file names addresses (or weight shares) never seen before, and is
//! freed with the last continuum of the path. `continuum.array` itself is the current
//! generation's sorted copy; it stays valid for [`KEPT_GENERATIONS`] content changes
//! (libketama itself rewrote its shared segment in place on reload).
//!
//! Files still being written are not published: a read counts only when the file's stamp
//! is the same before and after it, and the file has not changed for [`SETTLE_MS`] (its
//! status-change time is that old, or the same stamp and content were seen that long
//! before). `ketama_get_server` keeps the previous continuum until then (and never waits);
//! `ketama_roll` waits for it, at most [`ROLL_WAIT_MS`]. Writing a new file and `rename`-ing
//! it over the old one is the safe way to change the servers; a writer that rewrites the
//! file in place and pauses longer than [`SETTLE_MS`] mid-way can still be read half-written.
//!
//! File-format quirks (docs/client-notes.md 3.5) are reproduced or rejected explicitly:
//! - reproduced: lines are read `fgets`-style in pieces of at most 126 bytes (a longer line
//!   becomes several lines); lines under 2 bytes or starting with `#` are skipped; tokens
//!   split on tab or space; **the memory token's last character is dropped** (so a last line
//!   without newline reads `100` as 10, and a one-digit memory there fails); the memory is
//!   read with `strtol` rules (leading spaces, a sign, digits, trailing junk ignored); CRLF
//!   works; duplicate addresses each get their own points; ties keep file order.
//! - rejected with a message where libketama misbehaves: addresses of 23 or more characters
//!   (libketama rejects over 23 and overflows `mcs.ip` at 22-23; we keep 22, whose `ip` is
//!   followed by a zero padding byte here); memory 0 or negative (libketama: a message
//!   without reason, or a huge unsigned weight); memory above 4294967295; a line of only
//!   blanks (libketama crashes).
//!
//! Thread safety: as libketama, a continuum is meant for one thread at a time; the library's
//! own state is locked, but `ketama_get_server` may reload and rewrite the public fields of
//! `continuum`. `ketama_error()` is per thread.

use core::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::cell::UnsafeCell;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use ketama_core::hash::md5;
use ketama_core::weight::Formula;

use crate::boundary::ffi_boundary;

/// Size of `mcs.ip` and `serverinfo.addr`.
const ADDR_LEN: usize = 22;

/// One point on the circle (libketama's `mcs`; 28 bytes like C's layout, padding explicit).
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug)]
pub struct mcs {
    /// Point on the circle.
    pub point: c_uint,
    /// The server address, NUL-terminated unless it is 22 characters long.
    pub ip: [c_char; ADDR_LEN],
    /// C's padding, kept zero so a 22-character `ip` still reads as a string.
    _pad: [u8; 2],
}

/// libketama's `serverinfo` (declared for source compatibility; the API does not use it).
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct serverinfo {
    /// Server address.
    pub addr: [c_char; ADDR_LEN],
    /// The memory column.
    pub memory: core::ffi::c_ulong,
}

/// libketama's `continuum`: `array` points to `numpoints` `mcs`, ascending; `modtime` to a
/// `time_t` holding the file's modification time (seconds).
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct continuum {
    /// Number of points.
    pub numpoints: c_int,
    /// Points to the file's modification time (`time_t`).
    pub modtime: *mut c_void,
    /// Points to the `mcs` array.
    pub array: *mut c_void,
}

/// libketama's handle type.
#[allow(non_camel_case_types)]
pub type ketama_continuum = *mut continuum;

const _: () = assert!(core::mem::size_of::<mcs>() == 28);

/// Largest server file accepted (bytes): 64 MiB, about 2.5 million lines.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// How many parsed copies of its file one continuum keeps (the current one and the ones
/// before it, so a recently read `continuum.array` stays valid).
const KEPT_GENERATIONS: usize = 8;

/// How long a server file must stay unchanged before it is published (milliseconds).
const SETTLE_MS: u64 = 200;

/// How long `ketama_roll` waits for a file being written to settle (milliseconds).
const ROLL_WAIT_MS: u64 = 2000;

/// The `mcs` records `ketama_get_server` hands out, one per distinct (address, point) pair,
/// shared by every generation of one path and never moved or changed once written (so a
/// pointer to one stays valid as long as this set lives: until the last `ketama_smoke` of
/// the path).
#[derive(Debug, Default)]
struct Records {
    inner: Mutex<RecordsInner>,
}

#[derive(Debug, Default)]
struct RecordsInner {
    /// Address -> its number in `index` keys.
    ids: HashMap<Vec<u8>, u32>,
    /// `(address number << 32) | point` -> the record.
    index: HashMap<u64, Record>,
    /// The blocks the records live in (from `Box::into_raw`, freed on drop), one per
    /// generation that brought new pairs.
    blocks: Vec<*mut [mcs]>,
}

/// A pointer to an interned `mcs` (into one of [`RecordsInner::blocks`]).
#[derive(Clone, Copy, Debug)]
struct Record(*const mcs);

// SAFETY: a Record points into a block that is written once, before any Record to it is
// shared, and then only read; the block lives as long as the `Records` that owns it.
unsafe impl Send for Record {}
// SAFETY: as above (read-only after publication).
unsafe impl Sync for Record {}
// SAFETY: the raw block pointers are owned by `RecordsInner` (freed in its Drop) and only
// touched under `Records::inner`'s lock.
unsafe impl Send for RecordsInner {}

impl Drop for RecordsInner {
    fn drop(&mut self) {
        for &b in &self.blocks {
            // SAFETY: from Box::into_raw in `Records::intern`, freed once, here.
            drop(unsafe { Box::from_raw(b) });
        }
    }
}

impl Records {
    /// The interned record for each of `points` (parallel to it), interning the new ones in
    /// one new block.
    fn intern(&self, points: &[mcs], addrs: &[&[u8]]) -> Box<[Record]> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let inner = &mut *inner;
        let mut keys = Vec::with_capacity(points.len());
        let mut fresh: Vec<mcs> = Vec::new();
        let mut fresh_keys: HashMap<u64, usize> = HashMap::new();
        for (m, addr) in points.iter().zip(addrs) {
            let next = u32::try_from(inner.ids.len()).unwrap_or(u32::MAX);
            let id = *inner.ids.entry(addr.to_vec()).or_insert(next);
            let key = u64::from(id) << 32 | u64::from(m.point);
            if !inner.index.contains_key(&key) {
                fresh_keys.entry(key).or_insert_with(|| {
                    fresh.push(*m);
                    fresh.len() - 1
                });
            }
            keys.push(key);
        }
        if !fresh.is_empty() {
            let block = Box::into_raw(fresh.into_boxed_slice());
            inner.blocks.push(block);
            let base = block.cast::<mcs>().cast_const();
            for (key, at) in fresh_keys {
                // SAFETY: `at` < the block's length (an index into `fresh`).
                inner.index.insert(key, Record(unsafe { base.add(at) }));
            }
        }
        keys.iter().map(|k| inner.index[k]).collect()
    }

    /// Number of interned records.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner.lock().unwrap().index.len()
    }
}

/// One parse of one server file.
#[derive(Debug)]
struct Generation {
    /// MD5 of the file's bytes.
    digest: [u8; 16],
    /// What `continuum.array` shows.
    points: Box<[mcs]>,
    /// `points[i].point` for each i: what `ketama_get_server` searches (4 bytes a point in
    /// a row, 64 KiB for 100 servers, where the 28-byte `mcs` rows take 448 KiB: the search
    /// was half of a lookup, one cache miss a step).
    positions: Box<[u32]>,
    /// The interned record of `points[i]` for each i: what `ketama_get_server` returns.
    records: Box<[Record]>,
    /// Keeps `records` alive.
    _store: Arc<Records>,
}

impl Generation {
    fn new(digest: [u8; 16], servers: &[(Vec<u8>, u32)], store: Arc<Records>) -> Generation {
        let (points, owners) = build(servers);
        let addrs: Vec<&[u8]> = owners.iter().map(|&o| servers[o].0.as_slice()).collect();
        let records = store.intern(&points, &addrs);
        let positions = points.iter().map(|m| m.point).collect();
        Generation {
            digest,
            points,
            positions,
            records,
            _store: store,
        }
    }
}

/// What a reload check compares: any difference means "read the file again".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// What `ketama_roll` allocates; `c` first so a `continuum *` is a `Continuum *`.
#[repr(C)]
struct Continuum {
    /// What C reads; written only by `publish`, under `inner`'s lock (C may read it from
    /// other threads: libketama's own unsynchronised contract).
    c: UnsafeCell<continuum>,
    inner: Mutex<Inner>,
    /// The current generation (the last of `inner.generations`, which keeps it alive), NULL
    /// before the first: what `ketama_get_server` searches without taking the lock.
    current: AtomicPtr<Generation>,
    /// When `ketama_get_server` next looks at the file ([`now_ms`]); between two looks a
    /// lookup takes no lock and makes no system call.
    next_check: AtomicU64,
}

/// How often `ketama_get_server` looks at the server file (milliseconds).
const CHECK_EVERY_MS: u64 = 1000;

/// Milliseconds on a monotonic clock, cheap enough for every `ketama_get_server`: Linux's
/// `CLOCK_MONOTONIC_COARSE` (read in user space through the vDSO, a few ns; it moves in ticks
/// of 1-10 ms, so "a second" is a second within one tick); elsewhere std's `Instant`.
#[cfg(target_os = "linux")]
fn now_ms() -> u64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: core::ffi::c_long,
        tv_nsec: core::ffi::c_long,
    }
    extern "C" {
        fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
    }
    const CLOCK_MONOTONIC_COARSE: c_int = 6;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a writable timespec (`long` seconds and nanoseconds: the layout of
    // glibc's and musl's default `struct timespec`); the clock id is Linux's.
    if unsafe { clock_gettime(CLOCK_MONOTONIC_COARSE, &mut ts) } != 0 {
        return 0; // not seen on Linux since 2.6.32; 0 only delays the next look at the file
    }
    u64::try_from(ts.tv_sec).unwrap_or(0) * 1000
        + u64::try_from(ts.tv_nsec).unwrap_or(0) / 1_000_000
}

/// Milliseconds on a monotonic clock (std's `Instant`, from the first call).
#[cfg(not(target_os = "linux"))]
fn now_ms() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(std::time::Instant::now);
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

struct Inner {
    path: PathBuf,
    /// The last [`KEPT_GENERATIONS`] generations handed out through `c.array`, oldest first
    /// (so a recently read `c.array` stays valid after a reload; see the module docs).
    generations: Vec<Arc<Generation>>,
    /// The record sets of every generation this continuum published (one per path in
    /// practice): every `mcs *` it returned stays valid until `ketama_smoke`.
    records: Vec<Arc<Records>>,
    /// The file as of the last published generation.
    stamp: Option<Stamp>,
    /// A changed file seen but not yet settled.
    pending: Option<Pending>,
    /// Storage `c.modtime` points to.
    modtime: Box<i64>,
}

/// The parsed generation and the records of each file path while some continuum uses them (what libketama's
/// shared segment was per `ftok`). Weak, and dropped when empty, so nothing outlives the last
/// `ketama_smoke` (valgrind sees no leak).
static CACHE: Mutex<Option<HashMap<PathBuf, CacheEntry>>> = Mutex::new(None);

/// A path's last generation and its interned records, while some continuum uses them.
type CacheEntry = (Weak<Generation>, Weak<Records>);

thread_local! {
    static ERROR: UnsafeCell<[c_char; 256]> = const { UnsafeCell::new([0; 256]) };
}

fn set_error(msg: &str) {
    ERROR.with(|e| {
        // SAFETY: the buffer belongs to this thread; nothing else holds a Rust reference to it.
        let buf = unsafe { &mut *e.get() };
        let n = msg.len().min(buf.len() - 1);
        for (d, s) in buf.iter_mut().zip(&msg.as_bytes()[..n]) {
            *d = *s as c_char;
        }
        buf[n] = 0;
    });
}

/// The file's stamp, or why it cannot be a server file (missing, not a regular file, too big).
fn stamp(path: &Path) -> Result<Stamp, String> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let file = path.display();
    let m = std::fs::metadata(path).map_err(|_| format!("Invalid filename specified: {file}"))?;
    let t = m.file_type();
    if t.is_dir() {
        return Err(format!("Invalid filename specified: {file} is a directory"));
    }
    if !t.is_file() {
        let what = if t.is_fifo() {
            "a FIFO"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        return Err(format!(
            "Invalid filename specified: {file} is {what}, not a regular file"
        ));
    }
    if m.len() > MAX_FILE_BYTES {
        return Err(format!(
            "File {file} is larger than {MAX_FILE_BYTES} bytes ({} bytes)",
            m.len()
        ));
    }
    Ok(Stamp {
        dev: m.dev(),
        ino: m.ino(),
        size: m.len(),
        mtime: (m.mtime(), m.mtime_nsec()),
        ctime: (m.ctime(), m.ctime_nsec()),
    })
}

/// Reads at most [`MAX_FILE_BYTES`] of a file [`stamp`] accepted (it may have grown since).
fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = path.display();
    let f = std::fs::File::open(path).map_err(|_| format!("File {file} doesn't exist!"))?;
    let mut data = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut data)
        .map_err(|e| format!("File {file} could not be read: {e}"))?;
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("File {file} is larger than {MAX_FILE_BYTES} bytes"));
    }
    Ok(data)
}

/// `strtol(s, &end, 10)` as an `Option` (None: no digits, or out of `long` range).
fn strtol(s: &[u8]) -> Option<i64> {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let start = i;
    let mut v: i128 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        v = (v * 10 + i128::from(s[i] - b'0')).min(i128::from(i64::MAX) + 2);
        i += 1;
    }
    if i == start {
        return None;
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// Splits `s` like `strtok(s, "\t ")`: the next token and the rest.
fn strtok(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let start = s.iter().position(|&b| b != b' ' && b != b'\t')?;
    let s = &s[start..];
    let end = s
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// Parses a server file the way libketama's `read_server_definitions` does.
fn read_servers(data: &[u8], file: &str) -> Result<Vec<(Vec<u8>, u32)>, String> {
    let mut servers = Vec::new();
    let mut rest = data;
    let mut lineno = 0u32;
    while !rest.is_empty() {
        // fgets(sline, 127, fi): up to 126 bytes, through the newline.
        let mut n = rest.len().min(126);
        if let Some(nl) = rest[..n].iter().position(|&b| b == b'\n') {
            n = nl + 1;
        }
        let chunk = &rest[..n];
        rest = &rest[n..];
        lineno += 1;
        // C string semantics: a NUL byte ends the line.
        let line = &chunk[..chunk.iter().position(|&b| b == 0).unwrap_or(chunk.len())];
        if line.len() < 2 || line[0] == b'#' {
            continue;
        }
        let fail = |reason: &str| format!("{reason} (line {lineno} in {file})");
        let (addr, after) = strtok(line).ok_or_else(|| fail("Unable to find delimiter"))?;
        if addr.len() > ADDR_LEN {
            return Err(fail("Address longer than 22 characters"));
        }
        let (mem, _) = strtok(after).ok_or_else(|| fail("Unable to find delimiter"))?;
        // libketama drops the token's last character, assuming it is the newline.
        let mem = &mem[..mem.len() - 1];
        let memory = match strtol(mem) {
            Some(m) if m > 0 => m,
            _ => return Err(fail("Invalid memory value")),
        };
        let memory = u32::try_from(memory).map_err(|_| fail("Memory value above 4294967295"))?;
        servers.push((addr.to_vec(), memory));
    }
    Ok(servers)
}

/// libketama's continuum for these servers: `LK` digests x 4 little-endian md5 words of
/// `addr-k`, sorted by point, ties in file order; with each point's server (its line's index).
fn build(servers: &[(Vec<u8>, u32)]) -> (Box<[mcs]>, Vec<usize>) {
    let total: u64 = servers.iter().map(|s| u64::from(s.1)).sum();
    let mut points = Vec::new();
    for (i, (addr, memory)) in servers.iter().enumerate() {
        let mut ip = [0 as c_char; ADDR_LEN];
        for (d, s) in ip.iter_mut().zip(addr) {
            *d = *s as c_char;
        }
        for k in 0..Formula::Libketama.digests(*memory, total, servers.len()) {
            let mut s = addr.clone();
            s.extend_from_slice(format!("-{k}").as_bytes());
            let d = md5::digest(&s);
            for g in 0..4 {
                let m = mcs {
                    point: md5::word_le(&d, g),
                    ip,
                    _pad: [0; 2],
                };
                points.push((m, i));
            }
        }
    }
    points.sort_by_key(|(m, _)| m.point); // stable: earlier server first among equal points
    let owners = points.iter().map(|&(_, i)| i).collect();
    (points.into_iter().map(|(m, _)| m).collect(), owners)
}

/// What one look at the server file found.
#[derive(Debug)]
enum Loaded {
    /// A settled file: its generation, and the file's stamp.
    Ready(Arc<Generation>, Stamp),
    /// The file is still changing: what was seen, for the next look to compare.
    Unsettled(Pending),
}

/// A state of the file seen but not yet published (it had not been quiet long enough).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    stamp: Stamp,
    digest: [u8; 16],
    /// When this same stamp and content were first seen ([`now_ms`]).
    seen_ms: u64,
}

/// How long ago (wall clock, milliseconds) the file's status last changed; None when its
/// `ctime` lies in the future (a clock set back).
fn quiet_for_ms(st: &Stamp) -> Option<u64> {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};
    let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
    let changed = Duration::new(
        u64::try_from(st.ctime.0).ok()?,
        u32::try_from(st.ctime.1).ok()?,
    );
    let age = now.checked_sub(changed)?;
    Some(u64::try_from(age.as_millis()).unwrap_or(u64::MAX))
}

/// Reads `path` and, when it has settled (see the module docs), returns its generation
/// through the cache: reparsed only when its content changed. `pending` is what the last
/// look found unsettled.
fn load(path: &Path, pending: Option<Pending>) -> Result<Loaded, String> {
    let file = path.display().to_string();
    let before = stamp(path)?;
    let data = read_capped(path)?;
    let after = stamp(path)?;
    let digest = md5::digest(&data);
    let now = now_ms();
    let same = pending.filter(|p| p.stamp == after && p.digest == digest);
    let settled = before == after
        && (quiet_for_ms(&after).is_some_and(|q| q >= SETTLE_MS)
            || same.is_some_and(|p| now.saturating_sub(p.seen_ms) >= SETTLE_MS));
    if !settled {
        return Ok(Loaded::Unsettled(Pending {
            stamp: after,
            digest,
            seen_ms: same.map_or(now, |p| p.seen_ms),
        }));
    }
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    let cache = cache.get_or_insert_with(HashMap::new);
    let entry = cache.entry(path.to_path_buf()).or_default();
    if let Some(g) = entry.0.upgrade() {
        if g.digest == digest {
            return Ok(Loaded::Ready(g, after));
        }
    }
    let servers = read_servers(&data, &file)?;
    if servers.is_empty() {
        return Err(format!("No valid server definitions in file {file}"));
    }
    let store = entry.1.upgrade().unwrap_or_default();
    entry.1 = Arc::downgrade(&store);
    let g = Arc::new(Generation::new(digest, &servers, store));
    entry.0 = Arc::downgrade(&g);
    Ok(Loaded::Ready(g, after))
}

/// [`load`] for `ketama_roll`: waits (at most [`ROLL_WAIT_MS`]) for a file being written to
/// settle.
fn load_waiting(path: &Path) -> Result<(Arc<Generation>, Stamp), String> {
    let start = now_ms();
    let mut pending = None;
    loop {
        match load(path, pending)? {
            Loaded::Ready(g, st) => return Ok((g, st)),
            Loaded::Unsettled(p) => pending = Some(p),
        }
        if now_ms().saturating_sub(start) >= ROLL_WAIT_MS {
            return Err(format!(
                "File {} is still being written (it changed during the last {ROLL_WAIT_MS} ms); \
                 write the new file elsewhere and rename it into place",
                path.display()
            ));
        }
        std::thread::sleep(std::time::Duration::from_millis(SETTLE_MS / 4));
    }
}

/// Forgets cache entries no continuum uses any more (after a `ketama_smoke`).
fn prune_cache() {
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(map) = cache.as_mut() {
        map.retain(|_, (g, r)| g.strong_count() > 0 || r.strong_count() > 0);
        if map.is_empty() {
            *cache = None;
        }
    }
}

impl Continuum {
    /// Makes `g` the current generation and points the C fields at it.
    fn install(&mut self, g: Arc<Generation>, stamp: Stamp) {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        Continuum::publish(&self.c, &self.current, inner, g, stamp);
    }

    /// `ketama_get_server`'s look at the file: under the lock, once per [`CHECK_EVERY_MS`]
    /// (the first thread past the deadline looks, the others go on with the current
    /// generation), reloads it when it changed; a broken file keeps the last good continuum.
    #[cold]
    fn check(&self, now: u64) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if now < self.next_check.load(Ordering::Relaxed) {
            return; // another thread looked meanwhile
        }
        self.next_check
            .store(now.saturating_add(CHECK_EVERY_MS), Ordering::Relaxed);
        let stale = match (inner.generations.last(), inner.stamp) {
            (Some(_), Some(old)) => stamp(&inner.path) != Ok(old),
            _ => true,
        };
        if stale {
            let path = inner.path.clone();
            match load(&path, inner.pending) {
                Ok(Loaded::Ready(g, st)) => {
                    inner.pending = None;
                    Continuum::publish(&self.c, &self.current, &mut inner, g, st);
                }
                Ok(Loaded::Unsettled(p)) => {
                    // Keep the current continuum; look again soon after it may have settled.
                    inner.pending = Some(p);
                    self.next_check
                        .store(now.saturating_add(SETTLE_MS / 4), Ordering::Relaxed);
                }
                Err(msg) => {
                    inner.pending = None;
                    set_error(&msg); // keep serving the last good continuum
                }
            }
        }
    }

    /// Points C at generation `g`. Callers hold `inner`'s lock (or own the continuum
    /// outright), which serialises every write to `c`.
    fn publish(
        c: &UnsafeCell<continuum>,
        current: &AtomicPtr<Generation>,
        inner: &mut Inner,
        g: Arc<Generation>,
        stamp: Stamp,
    ) {
        // SAFETY: writes to `c` happen only here, serialised by the lock our caller holds;
        // no Rust reference to the `continuum` exists besides this one.
        let c = unsafe { &mut *c.get() };
        *inner.modtime = stamp.mtime.0;
        inner.stamp = Some(stamp);
        c.numpoints = c_int::try_from(g.points.len()).unwrap_or(c_int::MAX);
        c.array = g.points.as_ptr().cast_mut().cast();
        c.modtime = core::ptr::from_mut::<i64>(&mut inner.modtime).cast();
        // Kept alive by `inner.generations` (pushed below, or already its last) until
        // KEPT_GENERATIONS later content changes or ketama_smoke.
        current.store(Arc::as_ptr(&g).cast_mut(), Ordering::Release);
        if !inner.records.iter().any(|r| Arc::ptr_eq(r, &g._store)) {
            inner.records.push(Arc::clone(&g._store));
        }
        // Same content (only touched): nothing new to keep.
        if !inner
            .generations
            .last()
            .is_some_and(|last| Arc::ptr_eq(last, &g))
        {
            inner.generations.push(g);
            if inner.generations.len() > KEPT_GENERATIONS {
                inner.generations.remove(0);
            }
        }
    }
}

/// Builds the continuum for a server file (`ip:port<TAB>memory` per line). Returns 1 on
/// success, 0 on failure with the reason in `ketama_error()`. On failure after the file was
/// found, `*contptr` still receives an empty continuum (as libketama); free it with
/// `ketama_smoke` either way.
///
/// # Safety
/// `contptr` is writable; `filename` is a NUL-terminated path.
#[no_mangle]
pub unsafe extern "C" fn ketama_roll(
    contptr: *mut ketama_continuum,
    filename: *mut c_char,
) -> c_int {
    ffi_boundary!(0 => {
        set_error("");
        if contptr.is_null() || filename.is_null() {
            set_error("NULL argument to ketama_roll");
            return 0;
        }
        // SAFETY: NUL-terminated by the caller's contract.
        let path = PathBuf::from(OsStr::from_bytes(unsafe { CStr::from_ptr(filename) }.to_bytes()));
        if let Err(msg) = stamp(&path) {
            set_error(&msg);
            return 0;
        }
        let mut cont = Box::new(Continuum {
            c: UnsafeCell::new(continuum { numpoints: 0, modtime: core::ptr::null_mut(), array: core::ptr::null_mut() }),
            inner: Mutex::new(Inner {
                path: path.clone(),
                generations: Vec::new(),
                records: Vec::new(),
                stamp: None,
                pending: None,
                modtime: Box::new(0),
            }),
            current: AtomicPtr::new(core::ptr::null_mut()),
            next_check: AtomicU64::new(now_ms().saturating_add(CHECK_EVERY_MS)),
        });
        let ok = match load_waiting(&path) {
            Ok((g, st)) => {
                cont.install(g, st);
                1
            }
            Err(msg) => {
                set_error(&msg);
                0
            }
        };
        // SAFETY: checked non-NULL; writable by the caller's contract.
        unsafe { *contptr = Box::into_raw(cont).cast::<continuum>() };
        ok
    })
}

/// Frees a continuum from `ketama_roll` (and every `mcs` it returned). NULL is a no-op.
///
/// # Safety
/// `contptr` is NULL or from `ketama_roll`, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn ketama_smoke(contptr: ketama_continuum) {
    ffi_boundary!(() => {
        if !contptr.is_null() {
            // SAFETY: allocated by ketama_roll as a Box<Continuum> (c is its first field).
            drop(unsafe { Box::from_raw(contptr.cast::<Continuum>()) });
            prune_cache();
        }
    })
}

/// The point a key maps to: the first point at or after `ketama_hashi(key)`, wrapping to the
/// first. NULL when the continuum is NULL or empty. The `mcs` stays valid until
/// `ketama_smoke`, across reloads (an interned record, see the module docs).
///
/// # Safety
/// `key` is NUL-terminated; `cont` is NULL or from `ketama_roll`.
#[no_mangle]
pub unsafe extern "C" fn ketama_get_server(key: *mut c_char, cont: ketama_continuum) -> *mut mcs {
    ffi_boundary!(core::ptr::null_mut() => {
        if key.is_null() || cont.is_null() {
            return core::ptr::null_mut();
        }
        // SAFETY: allocated by ketama_roll as a Box<Continuum>.
        // A shared reference only: other threads may be in here too; the lock below
        // serialises every write.
        let this = unsafe { &*cont.cast::<Continuum>() };
        // At most once a second, under the lock: has the file changed? Otherwise no lock and
        // no system call (libketama itself looked at the file only in ketama_roll).
        let now = now_ms();
        if now >= this.next_check.load(Ordering::Relaxed) {
            this.check(now);
        }
        // SAFETY: NULL, or the last of `inner.generations`, alive until KEPT_GENERATIONS
        // later content changes (each check at least a second apart) or ketama_smoke; this
        // call reads it only until it returns.
        let Some(g) = (unsafe { this.current.load(Ordering::Acquire).as_ref() }) else {
            return core::ptr::null_mut();
        };
        if g.points.is_empty() {
            return core::ptr::null_mut();
        }
        // SAFETY: NUL-terminated by the caller's contract.
        let h = md5::ketama(unsafe { CStr::from_ptr(key) }.to_bytes());
        let i = g.positions.partition_point(|&p| p < h);
        let i = if i == g.points.len() { 0 } else { i };
        // An interned record: valid until ketama_smoke, whatever reloads come meanwhile.
        g.records[i].0.cast_mut()
    })
}

extern "C" {
    fn printf(format: *const c_char, ...) -> c_int;
}

/// Prints `Numpoints in continuum: N` then `ip (point)` per point to stdout (C stdio, so it
/// interleaves correctly with the caller's `printf`), or `Continuum empty`.
///
/// # Safety
/// `cont` is NULL or from `ketama_roll`.
#[no_mangle]
pub unsafe extern "C" fn ketama_print_continuum(cont: ketama_continuum) {
    ffi_boundary!(() => {
        // SAFETY: NULL or from ketama_roll.
        let Some(c) = (unsafe { cont.as_ref() }) else {
            return;
        };
        // SAFETY: format strings match their arguments.
        unsafe { printf(c"Numpoints in continuum: %d\n".as_ptr(), c.numpoints) };
        if c.array.is_null() {
            // SAFETY: as above.
            unsafe { printf(c"Continuum empty\n".as_ptr()) };
            return;
        }
        let n = usize::try_from(c.numpoints).unwrap_or(0);
        // SAFETY: array points to numpoints mcs (set by publish).
        let points = unsafe { core::slice::from_raw_parts(c.array.cast::<mcs>(), n) };
        for m in points {
            // SAFETY: ip is followed by a zero padding byte, so %s stops inside the struct.
            unsafe { printf(c"%s (%u)\n".as_ptr(), m.ip.as_ptr(), m.point) };
        }
    })
}

/// -1, 0 or 1 as `a->point` is below, equal to or above `b->point` (a `qsort` comparator).
///
/// # Safety
/// Both are valid `mcs` pointers.
#[no_mangle]
pub unsafe extern "C" fn ketama_compare(a: *mut mcs, b: *mut mcs) -> c_int {
    ffi_boundary!(0 => {
        // SAFETY: caller's contract.
        match unsafe { (a.as_ref(), b.as_ref()) } {
            (Some(a), Some(b)) => a.point.cmp(&b.point) as c_int,
            _ => 0,
        }
    })
}

/// The first little-endian 32-bit word of the MD5 of a NUL-terminated string (the key hash).
///
/// # Safety
/// `in_string` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ketama_hashi(in_string: *mut c_char) -> c_uint {
    ffi_boundary!(0 => {
        if in_string.is_null() {
            return 0;
        }
        // SAFETY: caller's contract.
        md5::ketama(unsafe { CStr::from_ptr(in_string) }.to_bytes())
    })
}

/// The MD5 digest of a NUL-terminated string.
///
/// # Safety
/// `in_string` is NUL-terminated; `md5pword` has room for 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_md5_digest(in_string: *mut c_char, md5pword: *mut u8) {
    ffi_boundary!(() => {
        if in_string.is_null() || md5pword.is_null() {
            return;
        }
        // SAFETY: caller's contract.
        let d = md5::digest(unsafe { CStr::from_ptr(in_string) }.to_bytes());
        // SAFETY: 16 writable bytes by the caller's contract.
        unsafe { core::ptr::copy_nonoverlapping(d.as_ptr(), md5pword, 16) };
    })
}

/// The last error of this thread's `ketama_roll` (empty after a success). Static per thread.
#[no_mangle]
pub extern "C" fn ketama_error() -> *mut c_char {
    ERROR.with(|e| e.get().cast::<c_char>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Vec<(String, u32)>, String> {
        read_servers(s.as_bytes(), "f").map(|v| {
            v.into_iter()
                .map(|(a, m)| (String::from_utf8(a).unwrap(), m))
                .collect()
        })
    }

    #[test]
    fn quirks() {
        assert_eq!(parse("a:1\t100\n").unwrap(), [("a:1".into(), 100)]);
        assert_eq!(parse("a:1\t100").unwrap(), [("a:1".into(), 10)]);
        assert_eq!(parse("a:1\t100 \n").unwrap(), [("a:1".into(), 10)]);
        assert_eq!(parse("a:1\t100\r\n").unwrap(), [("a:1".into(), 100)]);
        assert_eq!(parse("# c\n\n a:1 7x\n").unwrap(), [("a:1".into(), 7)]);
        assert_eq!(
            parse("a:1\t5").unwrap_err(),
            "Invalid memory value (line 1 in f)"
        );
        assert_eq!(
            parse("\na:1\t0\n").unwrap_err(),
            "Invalid memory value (line 2 in f)"
        );
        assert_eq!(
            parse("a:1\t-5\n").unwrap_err(),
            "Invalid memory value (line 1 in f)"
        );
        assert_eq!(
            parse("a:1\n").unwrap_err(),
            "Unable to find delimiter (line 1 in f)"
        );
        assert_eq!(
            parse("   ").unwrap_err(),
            "Unable to find delimiter (line 1 in f)"
        );
        assert!(parse("aaaaaaaaaaaaaaaaaaaaaa 10\n").is_ok());
        assert!(parse("aaaaaaaaaaaaaaaaaaaaaaa 10\n").is_err());
        assert!(parse("a 99999999999\n").is_err());
        // fgets pieces of 126 bytes: a long comment line continues as a second "line".
        let long = format!("#{}x 10\n", " ".repeat(125));
        assert_eq!(parse(&long).unwrap(), [("x".into(), 10)]);
    }

    fn servers(lines: &[(&str, u32)]) -> Vec<(Vec<u8>, u32)> {
        lines
            .iter()
            .map(|&(a, m)| (a.as_bytes().to_vec(), m))
            .collect()
    }

    #[test]
    fn generations_share_records_and_stay_bounded() {
        let store = Arc::new(Records::default());
        let a = servers(&[("10.0.0.1:11211", 100), ("10.0.0.2:11211", 100)]);
        let b = servers(&[("10.0.0.1:11211", 100), ("10.0.0.3:11211", 100)]);
        let ga = Generation::new([0; 16], &a, Arc::clone(&store));
        assert_eq!(store.len(), 320);
        let gb = Generation::new([1; 16], &b, Arc::clone(&store));
        // Only 10.0.0.3's points are new.
        assert_eq!(store.len(), 480);
        // Flipping between the two files any number of times adds nothing.
        for i in 0..50u8 {
            let g = Generation::new(
                [i; 16],
                if i % 2 == 0 { &a } else { &b },
                Arc::clone(&store),
            );
            assert_eq!(g.records.len(), 320);
        }
        assert_eq!(store.len(), 480);
        // The records equal the generation's own points, and a server kept is the same record.
        for (m, r) in ga.points.iter().zip(ga.records.iter()) {
            // SAFETY: interned in `store`, alive.
            let r = unsafe { &*r.0 };
            assert_eq!((m.point, m.ip), (r.point, r.ip));
        }
        let kept = |g: &Generation| -> Vec<*const mcs> {
            g.points
                .iter()
                .zip(g.records.iter())
                .filter(|(m, _)| m.ip[7] == b'1' as c_char && m.ip[8] == b':' as c_char)
                .map(|(_, r)| r.0)
                .collect()
        };
        assert_eq!(kept(&ga), kept(&gb));
        assert_eq!(kept(&ga).len(), 160);
    }
}
