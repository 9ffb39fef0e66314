//! The scratch files of a key set on disk: parts, their files of fingerprints and of
//! records, and the few ways they are read and written.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::sizes::{FAN, FAN_BITS, STOP_EVERY};
use crate::error::Error;
use crate::scratch;

/// One part of the set on disk: the fingerprints known (8 bytes each, in no order) and the
/// records of this pass still to compare with them. A file exists once something was
/// written to it.
#[derive(Debug)]
pub struct Part {
    /// The file of fingerprints known.
    pub known: PathBuf,
    /// How many it holds.
    pub known_n: u64,
    /// The file of this pass's records.
    pub fresh: PathBuf,
    /// How many it holds.
    pub fresh_n: u64,
}

/// Which of [`FAN`] parts `fp` falls in after `depth` splits.
pub fn slice(fp: u64, depth: u32) -> usize {
    (fp >> (64 - (depth + 1) * FAN_BITS)) as usize & (FAN - 1)
}

/// A new empty part in `dir`, named after the `parts` named so far.
pub fn new_part(dir: &scratch::Dir, parts: &mut u64) -> Part {
    let n = *parts;
    *parts += 1;
    Part {
        known: dir.join(&format!("{n}.known")),
        known_n: 0,
        fresh: dir.join(&format!("{n}.fresh")),
        fresh_n: 0,
    }
}

/// Reads `path` from its start, through a buffer of `buffer` bytes.
pub fn open(path: &Path, buffer: usize) -> Result<BufReader<File>, Error> {
    let f = File::open(path).map_err(|e| Error::file(path, e))?;
    Ok(BufReader::with_capacity(buffer, f))
}

/// Writes at the end of `path`, created when missing, through a buffer of `buffer` bytes.
pub fn append(path: &Path, buffer: usize) -> Result<BufWriter<File>, Error> {
    let f = scratch::append(path).map_err(|e| Error::file(path, e))?;
    Ok(BufWriter::with_capacity(buffer, f))
}

/// Flushes and closes a file written.
pub fn finish(w: BufWriter<File>, path: &Path) -> Result<(), Error> {
    w.into_inner()
        .map(drop)
        .map_err(|e| Error::file(path, e.into_error()))
}

/// Removes `path` if it exists.
pub fn remove(path: &Path) -> Result<(), Error> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != ErrorKind::NotFound => Err(Error::file(path, e)),
        _ => Ok(()),
    }
}

/// Appends one fingerprint.
pub fn write_fp(w: &mut impl Write, fp: u64, path: &Path) -> Result<(), Error> {
    w.write_all(&fp.to_le_bytes())
        .map_err(|e| Error::file(path, e))
}

/// The next fingerprint of a file of them; `None` at its end.
pub fn read_fp(r: &mut impl Read, path: &Path) -> Result<Option<u64>, Error> {
    let mut b = [0u8; 8];
    match r.read_exact(&mut b) {
        Ok(()) => Ok(Some(u64::from_le_bytes(b))),
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(Error::file(path, e)),
    }
}

/// Calls `each` with every fingerprint of `part`'s known file; an error once `stop` is
/// raised.
pub fn each_known(
    part: &Part,
    stop: &AtomicBool,
    buffer: usize,
    mut each: impl FnMut(u64) -> Result<(), Error>,
) -> Result<(), Error> {
    if part.known_n == 0 {
        return Ok(());
    }
    let mut r = open(&part.known, buffer)?;
    let mut n = 0u64;
    while let Some(fp) = read_fp(&mut r, &part.known)? {
        n += 1;
        if n % STOP_EVERY == 0 && stop.load(Ordering::SeqCst) {
            return Err(Error::Interrupted);
        }
        each(fp)?;
    }
    Ok(())
}

/// The writers of one kind of file of [`FAN`] parts, each opened on its first write.
#[derive(Debug)]
pub struct Outs {
    files: Vec<Option<BufWriter<File>>>,
    buffer: usize,
}

impl Outs {
    /// No file open; each will write through a buffer of `buffer` bytes.
    pub fn new(buffer: usize) -> Outs {
        Outs {
            files: (0..FAN).map(|_| None).collect(),
            buffer,
        }
    }

    /// The writer of part `i`, whose file is `path`.
    pub fn get(&mut self, i: usize, path: &Path) -> Result<&mut BufWriter<File>, Error> {
        Ok(match &mut self.files[i] {
            Some(w) => w,
            none => none.insert(append(path, self.buffer)?),
        })
    }

    /// Flushes and closes every file written; `path` names part `i`'s.
    pub fn finish<'p>(&mut self, path: impl Fn(usize) -> &'p Path) -> Result<(), Error> {
        for (i, w) in self.files.iter_mut().enumerate() {
            if let Some(w) = w.take() {
                finish(w, path(i))?;
            }
        }
        Ok(())
    }
}
