//! Listed keys spooled to a temporary file, so memory does not grow with their number: a
//! server's listing waits here for the copy, and a key whose NEW owner is an OLD server not
//! yet listed waits until every listing has ended.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::meta::Listed;
use crate::shared::Fail;

/// Buffer size of the file's reader and writer.
const BUFFER: usize = 256 * 1024;

/// Spools created by this process, for unique file names.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A spool file of listed keys, created on the first key and removed when dropped. Records
/// are binary: key length (`u16`), CAS (`u64`), absolute expiry (`i64`, -1 for none), item
/// size (`u64`), all little-endian, then the key's bytes.
#[derive(Debug)]
pub struct Spool {
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl Drop for Spool {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Spool {
    /// An empty spool (no file yet).
    pub fn new() -> Spool {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        Spool {
            path: std::env::temp_dir()
                .join(format!("ketama-migrate-{}-{n}.spool", std::process::id())),
            out: None,
        }
    }

    fn failed(&self, e: std::io::Error) -> String {
        format!("spool file {}: {e}", self.path.display())
    }

    /// Appends one listed key.
    pub fn push(&mut self, it: &Listed) -> Result<(), String> {
        // memcached keys are at most 250 bytes.
        let len = u16::try_from(it.key.len())
            .map_err(|_| format!("a listed key of {} bytes", it.key.len()))?;
        if self.out.is_none() {
            let f = File::create(&self.path).map_err(|e| self.failed(e))?;
            self.out = Some(BufWriter::with_capacity(BUFFER, f));
        }
        let mut head = [0u8; 26];
        head[..2].copy_from_slice(&len.to_le_bytes());
        head[2..10].copy_from_slice(&it.cas.to_le_bytes());
        head[10..18].copy_from_slice(&it.exp.to_le_bytes());
        head[18..26].copy_from_slice(&it.size.to_le_bytes());
        let w = self.out.as_mut().expect("created above");
        let r = w.write_all(&head).and_then(|_| w.write_all(&it.key));
        r.map_err(|e| self.failed(e))
    }

    /// Reads the keys back, in the order pushed, to `each` until it returns `false`; the
    /// file is removed after.
    pub fn drain(mut self, mut each: impl FnMut(Listed) -> Result<bool, Fail>) -> Result<(), Fail> {
        let Some(w) = self.out.as_mut() else {
            return Ok(());
        };
        w.flush().map_err(|e| Fail::new(self.failed(e)))?;
        let bad = |e: std::io::Error| Fail::new(format!("spool file {}: {e}", self.path.display()));
        let mut r = BufReader::with_capacity(BUFFER, File::open(&self.path).map_err(bad)?);
        while let Some(it) = next(&mut r).map_err(bad)? {
            if !each(it)? {
                break;
            }
        }
        Ok(())
    }
}

/// The next record of a spool file; `None` at its end.
fn next(r: &mut impl Read) -> std::io::Result<Option<Listed>> {
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
    Ok(Some(Listed {
        key,
        cas: u64::from_le_bytes(n(2)),
        exp: i64::from_le_bytes(n(10)),
        size: u64::from_le_bytes(n(18)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_back_in_order_and_the_file_goes() {
        let mut s = Spool::new();
        let items: Vec<Listed> = (0..3000u64)
            .map(|i| Listed {
                key: format!("k{i}\0%").into_bytes(),
                exp: if i % 2 == 0 {
                    -1
                } else {
                    1_700_000_000 + i as i64
                },
                cas: i * 7,
                size: i + 60,
            })
            .collect();
        for it in &items {
            s.push(it).unwrap();
        }
        let path = s.path.clone();
        assert!(path.exists());
        let mut back = Vec::new();
        s.drain(|it| {
            back.push(it);
            Ok(true)
        })
        .unwrap();
        assert_eq!(back, items);
        assert!(!path.exists());
    }

    #[test]
    fn an_empty_spool_makes_no_file() {
        let s = Spool::new();
        let path = s.path.clone();
        let mut n = 0;
        s.drain(|_| {
            n += 1;
            Ok(true)
        })
        .unwrap();
        assert_eq!(n, 0);
        assert!(!path.exists());
    }
}
