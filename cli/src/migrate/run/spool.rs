//! The listing of each OLD server, spooled to a temporary file so memory does not grow with
//! the number of keys, and the feeder that reads it back, sorts out what does not move and
//! hands the moving keys to the workers in batches.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::sync::atomic::Ordering;

use super::super::meta;
use super::super::plan::now;
use super::super::{list_server, Fate, Listing, Placement};
use super::shared::{inc, Counts, Ctx, Job};
use super::BATCH_BYTES;
use crate::shared::Fail;

/// A spool file of listed keys, removed when dropped. Records are binary: key length
/// (`u16`), CAS (`u64`), absolute expiry (`i64`, -1 for none), item size (`u64`), all
/// little-endian, then the key's bytes.
#[derive(Debug)]
pub struct Spool {
    path: std::path::PathBuf,
    /// The OLD server (file position) listed.
    pub src: usize,
    /// How it was listed.
    pub listing: Listing,
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Lists one OLD server into a spool file.
pub fn spool(pl: &Placement, src: usize, counts: &Counts) -> Result<Spool, String> {
    let path =
        std::env::temp_dir().join(format!("ketama-migrate-{}-{src}.spool", std::process::id()));
    let mut s = Spool {
        path,
        src,
        listing: Listing::Metadump,
    };
    let fail = |e: std::io::Error| format!("spool file {}: {e}", s.path.display());
    let mut w = BufWriter::with_capacity(256 * 1024, File::create(&s.path).map_err(fail)?);
    let label = &pl.old_labels[src];
    let listing = list_server(label, &pl.old_addrs[src], pl.net(), |it| {
        inc(&counts.listed, 1);
        // memcached keys are at most 250 bytes.
        let len = u16::try_from(it.key.len())
            .map_err(|_| format!("a listed key of {} bytes", it.key.len()))?;
        let mut head = [0u8; 26];
        head[..2].copy_from_slice(&len.to_le_bytes());
        head[2..10].copy_from_slice(&it.cas.to_le_bytes());
        head[10..18].copy_from_slice(&it.exp.to_le_bytes());
        head[18..26].copy_from_slice(&it.size.to_le_bytes());
        w.write_all(&head)
            .and_then(|_| w.write_all(&it.key))
            .map_err(|e| format!("spool file: {e}"))
    })?;
    w.flush().map_err(fail)?;
    s.listing = listing;
    Ok(s)
}

/// One record of a spool file.
struct Record {
    cas: u64,
    exp: i64,
    size: u64,
    key: Vec<u8>,
}

/// The next record of a spool file; `None` at its end.
fn next(r: &mut impl Read) -> std::io::Result<Option<Record>> {
    let mut head = [0u8; 26];
    match r.read_exact(&mut head) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let n = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[i..i + 8]);
        b
    };
    let len = usize::from(u16::from_le_bytes([head[0], head[1]]));
    let mut key = vec![0u8; len];
    r.read_exact(&mut key)?;
    Ok(Some(Record {
        cas: u64::from_le_bytes(n(2)),
        exp: i64::from_le_bytes(n(10)),
        size: u64::from_le_bytes(n(18)),
        key,
    }))
}

/// Reads the spools, counts what does not move, and hands the moving keys to `send` in
/// batches of at most `cap` keys and about [`BATCH_BYTES`] of values.
pub fn feed(
    ctx: &Ctx,
    spools: &[Spool],
    dry_run: bool,
    cap: usize,
    mut send: impl FnMut(Vec<Job>) -> Result<(), Fail>,
) -> Result<(), Fail> {
    let c = ctx.counts;
    let t = now();
    let mut batch = Vec::with_capacity(cap);
    let mut bytes = 0u64;
    for s in spools {
        let bad = |e: std::io::Error| Fail::new(format!("spool file {}: {e}", s.path.display()));
        let mut r = BufReader::with_capacity(256 * 1024, File::open(&s.path).map_err(bad)?);
        while let Some(Record {
            cas,
            exp,
            size,
            key,
        }) = next(&mut r).map_err(bad)?
        {
            if crate::stop::requested() || ctx.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let skip = |n: &std::sync::atomic::AtomicU64| {
                inc(n, 1);
                inc(&c.done, 1);
            };
            if exp >= 0 && exp <= t {
                skip(&c.expired);
                continue;
            }
            let dst = match ctx.pl.fate(s.src, &key) {
                Fate::Stale => {
                    skip(&c.stale);
                    continue;
                }
                Fate::Stays => {
                    skip(&c.stay);
                    continue;
                }
                Fate::NoNewOwner => {
                    skip(&c.no_new_owner);
                    continue;
                }
                Fate::Moves(d) => d,
            };
            inc(&c.moving, 1);
            if !meta::sendable(&key) {
                skip(&c.unsendable);
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
            bytes += size;
            batch.push(Job {
                src: s.src,
                dst,
                key,
                cas,
                prev,
            });
            if batch.len() >= cap || bytes >= BATCH_BYTES {
                send(std::mem::replace(&mut batch, Vec::with_capacity(cap)))?;
                bytes = 0;
            }
        }
    }
    if !batch.is_empty() {
        send(batch)?;
    }
    Ok(())
}
