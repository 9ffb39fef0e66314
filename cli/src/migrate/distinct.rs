//! The distinct keys of a listing that may show a key more than once (a crawl repeated until
//! it has seen every item), in memory that does not grow with the number of keys.
//!
//! A key is known by a 64-bit fingerprint (a keyed hash, random per listing). Up to a limit
//! ([`MEMORY_KEYS`] for a listing) the fingerprints are kept in memory and each new key is
//! handed on at once. Past the limit the set moves to a private scratch folder: the
//! fingerprints known so far go to a file, each key listed after that to a file of the pass's
//! records, and when the pass ends its records are compared with the known fingerprints. A
//! part of the set is compared in memory when it holds at most the limit of fingerprints;
//! a bigger one is split by the next [`FAN_BITS`] bits of the fingerprint into [`FAN`] parts,
//! and so on, so memory stays within the limit whatever the number of keys, for one more pass
//! over files on disk.
//!
//! Two keys sharing a fingerprint count as one: one of them is not handed on. Among `n`
//! keys that happens with a chance of about n² / 2^65 (one in 370,000 for 10 million keys).

use std::collections::hash_map::RandomState;
use std::fs::{File, OpenOptions};
use std::hash::BuildHasher;
use std::io::{self, BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::meta::Listed;
use super::seen::Seen;
use super::{record, scratch};

/// Fingerprints a listing keeps in memory at most (a table of 4 MB).
pub const MEMORY_KEYS: usize = 1 << 18;
/// Bits of the fingerprint one split uses.
pub const FAN_BITS: u32 = 6;
/// Parts one split makes.
pub const FAN: usize = 1 << FAN_BITS;
/// The buffer of each scratch file read or written.
const BUFFER: usize = 64 * 1024;
/// Records handled between two looks at the stop flag.
const STOP_EVERY: u64 = 4096;

/// The keys seen so far, handing on each the first time it is offered.
#[derive(Debug)]
pub struct Distinct {
    hasher: RandomState,
    limit: usize,
    len: u64,
    stop: &'static AtomicBool,
    state: State,
}

#[derive(Debug)]
enum State {
    Memory(Seen),
    Disk(Disk),
}

/// The set on disk.
#[derive(Debug)]
struct Disk {
    dir: scratch::Dir,
    /// Parts named so far in `dir`.
    parts: u64,
    /// The whole set.
    top: Part,
    /// The records of this pass (opened on its first key).
    fresh: Option<BufWriter<File>>,
}

/// One part of the set on disk: the fingerprints known (8 bytes each, in no order) and the
/// records of this pass not yet compared with them.
#[derive(Debug)]
struct Part {
    known: PathBuf,
    known_n: u64,
    fresh: PathBuf,
    fresh_n: u64,
}

fn failed(path: &Path, e: io::Error) -> String {
    format!("scratch file {}: {e}", path.display())
}

fn create(path: &Path) -> Result<BufWriter<File>, String> {
    let f = scratch::create(path).map_err(|e| failed(path, e))?;
    Ok(BufWriter::with_capacity(BUFFER, f))
}

fn open(path: &Path) -> Result<BufReader<File>, String> {
    let f = File::open(path).map_err(|e| failed(path, e))?;
    Ok(BufReader::with_capacity(BUFFER, f))
}

fn append(path: &Path) -> Result<BufWriter<File>, String> {
    let f = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| failed(path, e))?;
    Ok(BufWriter::with_capacity(BUFFER, f))
}

/// Flushes and closes a file written.
fn finish(w: BufWriter<File>, path: &Path) -> Result<(), String> {
    w.into_inner()
        .map(drop)
        .map_err(|e| failed(path, e.into_error()))
}

fn remove(path: &Path) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != ErrorKind::NotFound => Err(failed(path, e)),
        _ => Ok(()),
    }
}

fn write_fp(w: &mut impl Write, fp: u64, path: &Path) -> Result<(), String> {
    w.write_all(&fp.to_le_bytes()).map_err(|e| failed(path, e))
}

/// The next fingerprint of a file of them; `None` at its end.
fn read_fp(r: &mut impl Read, path: &Path) -> Result<Option<u64>, String> {
    let mut b = [0u8; 8];
    match r.read_exact(&mut b) {
        Ok(()) => Ok(Some(u64::from_le_bytes(b))),
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(failed(path, e)),
    }
}

impl Distinct {
    /// An empty set expecting about `expected` keys, holding at most `limit` fingerprints in
    /// memory; its work on disk stops with an error when `stop` is raised.
    pub fn new(expected: usize, limit: usize, stop: &'static AtomicBool) -> Distinct {
        let limit = limit.max(1);
        Distinct {
            hasher: RandomState::new(),
            limit,
            len: 0,
            stop,
            state: State::Memory(Seen::with_capacity(expected.min(limit))),
        }
    }

    /// Distinct keys handed on so far (all of a pass once [`end_pass`](Self::end_pass)
    /// returned).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set moved to disk.
    #[cfg(test)]
    fn on_disk(&self) -> bool {
        matches!(self.state, State::Disk(_))
    }

    /// Offers one listed key: handed on to `each` now if it is new and the set is in memory,
    /// at the end of the pass if the set is on disk.
    pub fn offer(
        &mut self,
        it: Listed,
        each: &mut impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<(), String> {
        if let State::Memory(seen) = &mut self.state {
            if seen.len() < self.limit {
                if seen.insert(self.hasher.hash_one(&it.key[..])) {
                    self.len += 1;
                    return each(it);
                }
                return Ok(());
            }
            self.spill()?;
        }
        let State::Disk(d) = &mut self.state else {
            return Err("the key set left memory but is not on disk".into());
        };
        if d.fresh.is_none() {
            d.fresh = Some(create(&d.top.fresh)?);
        }
        let w = d.fresh.as_mut().expect("opened above");
        record::write(w, &it).map_err(|e| failed(&d.top.fresh, e))?;
        d.top.fresh_n += 1;
        Ok(())
    }

    /// Ends a pass: on disk, compares its records with the keys known and hands each new one
    /// on to `each`.
    pub fn end_pass(
        &mut self,
        each: &mut impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<(), String> {
        let State::Disk(d) = &mut self.state else {
            return Ok(());
        };
        if let Some(w) = d.fresh.take() {
            finish(w, &d.top.fresh)?;
        }
        let mut s = Settle {
            dir: &d.dir,
            parts: &mut d.parts,
            hasher: &self.hasher,
            limit: self.limit as u64,
            stop: self.stop,
            handled: 0,
        };
        self.len += s.settle(&mut d.top, 0, each)?;
        Ok(())
    }

    /// Moves the fingerprints in memory to a scratch folder.
    fn spill(&mut self) -> Result<(), String> {
        let State::Memory(seen) = &self.state else {
            return Ok(());
        };
        let dir = scratch::Dir::new().map_err(|e| format!("scratch folder: {e}"))?;
        let top = Part {
            known: dir.join("0.known"),
            known_n: seen.len() as u64,
            fresh: dir.join("0.fresh"),
            fresh_n: 0,
        };
        let mut w = create(&top.known)?;
        for fp in seen.iter() {
            write_fp(&mut w, fp, &top.known)?;
        }
        finish(w, &top.known)?;
        self.state = State::Disk(Disk {
            dir,
            parts: 1,
            top,
            fresh: None,
        });
        Ok(())
    }
}

/// One comparison of a pass's records with the fingerprints known.
struct Settle<'a> {
    dir: &'a scratch::Dir,
    parts: &'a mut u64,
    hasher: &'a RandomState,
    limit: u64,
    stop: &'a AtomicBool,
    handled: u64,
}

impl Settle<'_> {
    /// Counts one record or fingerprint handled; an error once a stop was requested.
    fn tick(&mut self) -> Result<(), String> {
        self.handled += 1;
        if self.handled % STOP_EVERY == 0 && self.stop.load(Ordering::SeqCst) {
            return Err("interrupted while dropping keys listed twice".into());
        }
        Ok(())
    }

    fn part(&mut self) -> Part {
        let n = *self.parts;
        *self.parts += 1;
        Part {
            known: self.dir.join(&format!("{n}.known")),
            known_n: 0,
            fresh: self.dir.join(&format!("{n}.fresh")),
            fresh_n: 0,
        }
    }

    /// Hands on the records of `part` whose fingerprint is not known, and adds them to the
    /// known ones; the number handed on. `depth` splits gave this part.
    fn settle(
        &mut self,
        part: &mut Part,
        depth: u32,
        each: &mut impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<u64, String> {
        if part.fresh_n == 0 {
            return Ok(0);
        }
        let used = depth * FAN_BITS;
        if part.known_n + part.fresh_n <= self.limit || used + FAN_BITS > 64 {
            return self.compare(part, each);
        }
        let shift = 64 - used - FAN_BITS;
        let which = |fp: u64| (fp >> shift) as usize & (FAN - 1);
        let mut subs: Vec<Part> = (0..FAN).map(|_| self.part()).collect();
        let mut outs = subs
            .iter()
            .map(|p| create(&p.known))
            .collect::<Result<Vec<_>, _>>()?;
        let mut r = open(&part.known)?;
        while let Some(fp) = read_fp(&mut r, &part.known)? {
            self.tick()?;
            let i = which(fp);
            write_fp(&mut outs[i], fp, &subs[i].known)?;
            subs[i].known_n += 1;
        }
        for (w, p) in outs.into_iter().zip(&subs) {
            finish(w, &p.known)?;
        }
        let mut outs = subs
            .iter()
            .map(|p| create(&p.fresh))
            .collect::<Result<Vec<_>, _>>()?;
        let mut r = open(&part.fresh)?;
        while let Some(it) = record::read(&mut r).map_err(|e| failed(&part.fresh, e))? {
            self.tick()?;
            let i = which(self.hasher.hash_one(&it.key[..]));
            record::write(&mut outs[i], &it).map_err(|e| failed(&subs[i].fresh, e))?;
            subs[i].fresh_n += 1;
        }
        for (w, p) in outs.into_iter().zip(&subs) {
            finish(w, &p.fresh)?;
        }
        remove(&part.known)?;
        remove(&part.fresh)?;
        let mut new = 0;
        for sub in &mut subs {
            new += self.settle(sub, depth + 1, each)?;
            remove(&sub.fresh)?;
        }
        let mut w = create(&part.known)?;
        for sub in &subs {
            let mut r = open(&sub.known)?;
            io::copy(&mut r, &mut w).map_err(|e| failed(&part.known, e))?;
            remove(&sub.known)?;
        }
        finish(w, &part.known)?;
        part.known_n += new;
        part.fresh_n = 0;
        Ok(new)
    }

    /// [`settle`](Self::settle) for a part whose fingerprints fit in memory.
    fn compare(
        &mut self,
        part: &mut Part,
        each: &mut impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<u64, String> {
        let n = (part.known_n + part.fresh_n).min(self.limit);
        let mut seen = Seen::with_capacity(usize::try_from(n).unwrap_or(usize::MAX));
        let mut r = open(&part.known)?;
        while let Some(fp) = read_fp(&mut r, &part.known)? {
            self.tick()?;
            seen.insert(fp);
        }
        let mut out = append(&part.known)?;
        let mut r = open(&part.fresh)?;
        let mut new = 0;
        while let Some(it) = record::read(&mut r).map_err(|e| failed(&part.fresh, e))? {
            self.tick()?;
            let fp = self.hasher.hash_one(&it.key[..]);
            if seen.insert(fp) {
                write_fp(&mut out, fp, &part.known)?;
                new += 1;
                each(it)?;
            }
        }
        finish(out, &part.known)?;
        remove(&part.fresh)?;
        part.known_n += new;
        part.fresh_n = 0;
        Ok(new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    static NEVER: AtomicBool = AtomicBool::new(false);

    fn listed(k: u64) -> Listed {
        Listed {
            key: format!("key:{k}").into_bytes(),
            exp: k as i64,
            cas: k * 3,
            size: k + 50,
        }
    }

    /// xorshift64*: the same pseudo-random keys on every run.
    fn keys(seed: u64, n: usize, range: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                x.wrapping_mul(0x2545_f491_4f6c_dd1d) % range
            })
            .collect()
    }

    /// Offers `passes` to a set of `limit`: what each pass handed on, and the set's count
    /// after it.
    fn run(limit: usize, passes: &[Vec<u64>]) -> (Vec<Vec<Listed>>, Vec<u64>, bool) {
        let mut d = Distinct::new(0, limit, &NEVER);
        let mut out = Vec::new();
        let mut lens = Vec::new();
        for p in passes {
            let mut got = Vec::new();
            let mut each = |it: Listed| {
                got.push(it);
                Ok(())
            };
            for &k in p {
                d.offer(listed(k), &mut each).unwrap();
            }
            d.end_pass(&mut each).unwrap();
            out.push(got);
            lens.push(d.len());
        }
        (out, lens, d.on_disk())
    }

    /// Each pass must hand on exactly the keys no earlier offer showed, each once, whole.
    fn check(limit: usize, passes: &[Vec<u64>]) -> bool {
        let (out, lens, on_disk) = run(limit, passes);
        let mut model: HashSet<u64> = HashSet::new();
        for (i, p) in passes.iter().enumerate() {
            let want: HashSet<u64> = p.iter().copied().filter(|k| !model.contains(k)).collect();
            let mut got: Vec<Listed> = out[i].clone();
            assert_eq!(got.len(), want.len(), "pass {i}: count");
            got.sort_by(|a, b| a.key.cmp(&b.key));
            let mut want_items: Vec<Listed> = want.iter().map(|&k| listed(k)).collect();
            want_items.sort_by(|a, b| a.key.cmp(&b.key));
            assert_eq!(got, want_items, "pass {i}");
            model.extend(p);
            assert_eq!(lens[i], model.len() as u64, "pass {i}: len");
        }
        on_disk
    }

    #[test]
    fn under_the_limit_it_stays_in_memory() {
        let passes = vec![keys(1, 500, 300), keys(2, 500, 400)];
        assert!(!check(1000, &passes));
    }

    #[test]
    fn past_the_limit_every_pass_hands_on_exactly_the_new_keys() {
        // A limit of 16 makes the 3,000 keys split twice (64 parts per split).
        for (seed, limit) in [(3, 16), (4, 50), (5, 700)] {
            let passes = vec![
                keys(seed, 3000, 2500),
                keys(seed + 10, 3000, 3000),
                Vec::new(),
                keys(seed + 20, 200, 4000),
                keys(seed + 30, 3000, 3000),
            ];
            assert!(check(limit, &passes), "seed {seed}, limit {limit}");
        }
    }

    #[test]
    fn the_scratch_folder_is_private_and_goes_with_the_set() {
        let mut d = Distinct::new(0, 2, &NEVER);
        let mut each = |_: Listed| Ok(());
        for k in 0..10 {
            d.offer(listed(k), &mut each).unwrap();
        }
        d.end_pass(&mut each).unwrap();
        let State::Disk(disk) = &d.state else {
            panic!("not on disk")
        };
        let folder = disk.dir.join("");
        assert!(folder.is_dir());
        drop(d);
        assert!(!folder.exists());
    }

    #[test]
    fn a_stop_ends_the_work_on_disk_with_an_error() {
        static STOP: AtomicBool = AtomicBool::new(false);
        let mut d = Distinct::new(0, 1, &STOP);
        let mut each = |_: Listed| Ok(());
        for k in 0..20_000 {
            d.offer(listed(k), &mut each).unwrap();
        }
        STOP.store(true, Ordering::SeqCst);
        let e = d.end_pass(&mut each).unwrap_err();
        assert!(e.contains("interrupted"), "{e}");
    }

    #[test]
    fn an_error_from_the_receiver_ends_the_pass() {
        let mut d = Distinct::new(0, 1, &NEVER);
        let mut n = 0;
        let mut each = |_: Listed| {
            n += 1;
            if n == 3 {
                Err("full".to_string())
            } else {
                Ok(())
            }
        };
        for k in 0..100 {
            d.offer(listed(k), &mut each).unwrap();
        }
        assert_eq!(d.end_pass(&mut each).unwrap_err(), "full");
    }
}
