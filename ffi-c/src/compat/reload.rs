//! When a server file is read again: its stamp (device, inode, size, times), the settling
//! rule for files still being written, and one parsed generation per path shared by every
//! continuum of that path (see the module docs of `compat`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use ketama_core::hash::md5;
use ketama_core::servers_file::{self, check_file, FileError, FileKind, MAX_FILE_BYTES};

use super::clock::now_ms;
use super::generations::{Generation, Records};

/// How long a server file must stay unchanged before it is published (milliseconds).
pub(super) const SETTLE_MS: u64 = 200;

/// How long `ketama_roll` waits for a file being written to settle (milliseconds).
const ROLL_WAIT_MS: u64 = 2000;

/// What a reload check compares: any difference means "read the file again".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    pub(super) mtime: (i64, i64),
    ctime: (i64, i64),
}

/// The parsed generation and the records of each file path while some continuum uses them (what libketama's
/// shared segment was per `ftok`). Weak, and dropped when empty, so nothing outlives the last
/// `ketama_smoke` (valgrind sees no leak).
static CACHE: Mutex<Option<HashMap<PathBuf, CacheEntry>>> = Mutex::new(None);

/// A path's last generation and its interned records, while some continuum uses them.
type CacheEntry = (Weak<Generation>, Weak<Records>);

/// A refusal's message for the file at `path` (core's wording, shared with Python's drop-in).
fn message(e: &FileError, path: &Path) -> String {
    e.in_file(&path.display().to_string()).to_string()
}

/// The file's stamp, or why it cannot be a server file (missing, not a regular file, too big:
/// core's [`check_file`] rule).
pub(super) fn stamp(path: &Path) -> Result<Stamp, String> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let m = std::fs::metadata(path).map_err(|_| message(&servers_file::missing(), path))?;
    let t = m.file_type();
    let kind = if t.is_file() {
        FileKind::Regular
    } else if t.is_dir() {
        FileKind::Directory
    } else if t.is_fifo() {
        FileKind::Fifo
    } else if t.is_char_device() || t.is_block_device() {
        FileKind::Device
    } else if t.is_socket() {
        FileKind::Socket
    } else {
        FileKind::Other
    };
    check_file(kind, m.len()).map_err(|e| message(&e, path))?;
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
    let unreadable = |e: std::io::Error| {
        message(
            &servers_file::unreadable(e.raw_os_error().unwrap_or(0)),
            path,
        )
    };
    let f = std::fs::File::open(path).map_err(unreadable)?;
    let mut data = Vec::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut data)
        .map_err(unreadable)?;
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(message(&servers_file::grew_too_large(), path));
    }
    Ok(data)
}

/// What one look at the server file found.
#[derive(Debug)]
pub(super) enum Loaded {
    /// A settled file: its generation, and the file's stamp.
    Ready(Arc<Generation>, Stamp),
    /// The file is still changing: what was seen, for the next look to compare.
    Unsettled(Pending),
}

/// A state of the file seen but not yet published (it had not been quiet long enough).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pending {
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
pub(super) fn load(path: &Path, pending: Option<Pending>) -> Result<Loaded, String> {
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
    let servers = servers_file::parse(&data).map_err(|e| message(&e, path))?;
    let store = entry.1.upgrade().unwrap_or_default();
    entry.1 = Arc::downgrade(&store);
    let g = Generation::new(digest, &servers, store).map_err(|e| message(&e, path))?;
    let g = Arc::new(g);
    entry.0 = Arc::downgrade(&g);
    Ok(Loaded::Ready(g, after))
}

/// [`load`] for `ketama_roll`: waits (at most [`ROLL_WAIT_MS`]) for a file being written to
/// settle.
pub(super) fn load_waiting(path: &Path) -> Result<(Arc<Generation>, Stamp), String> {
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
pub(super) fn prune_cache() {
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(map) = cache.as_mut() {
        map.retain(|_, (g, r)| g.strong_count() > 0 || r.strong_count() > 0);
        if map.is_empty() {
            *cache = None;
        }
    }
}
