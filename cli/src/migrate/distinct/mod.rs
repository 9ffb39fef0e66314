//! The distinct keys of a listing that may show a key more than once (a crawl repeated until
//! it has seen every item), in memory that does not grow with the number of keys.
//!
//! A key is known by a 64-bit fingerprint (a keyed hash, random per listing). Up to a limit
//! ([`MEMORY_KEYS`] for a listing) the fingerprints are kept in memory and each new key is
//! handed on at once. Past the limit the set moves to a private scratch folder, in [`FAN`]
//! parts by the first [`FAN_BITS`] bits of the fingerprint, each a file of the fingerprints
//! known; a fixed-size [`Filter`] of every fingerprint stays in memory. A key the filter has
//! certainly not seen is new: it is handed on at once and its fingerprint appended to its
//! part. A key the filter may have seen (a key listed twice, or, as the filter fills, a new
//! one) waits in its part's file of records for the pass, and when the pass ends each
//! part's waiting records are compared with its known fingerprints ([`settle`]): the
//! records' fingerprints in memory, the known ones streamed past them; a part with more
//! records than the limit is first split by the next bits into [`FAN`] parts, and so on. So
//! memory stays within the limit and the filter whatever the number of keys, and a key is
//! never dropped unless its fingerprint was truly seen.
//!
//! Two keys sharing a fingerprint count as one: one of them is not handed on. Among `n`
//! keys that happens with a chance of about n² / 2^65 (one in 370,000 for 10 million keys).

mod files;
mod settle;

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::AtomicBool;

use super::filter::Filter;
use super::meta::Listed;
use super::record;
use super::scratch;
use super::seen::Seen;
use files::{failed, new_part, slice, write_fp, Outs, Part};

/// Fingerprints a listing keeps in memory at most (a table of 4 MB), and the most waiting
/// records of one part compared in memory at once (two such tables).
pub const MEMORY_KEYS: usize = 1 << 18;
/// Bits of the filter of a listing on disk (4 MB): past 3 million keys, more and more new
/// keys wait for the end of their pass.
pub const FILTER_BITS: usize = 1 << 25;
/// Bits of the fingerprint one split uses.
pub const FAN_BITS: u32 = 6;
/// Parts one split makes.
pub const FAN: usize = 1 << FAN_BITS;
/// Records handled between two looks at the stop flag.
const STOP_EVERY: u64 = 4096;
/// The error of work on disk stopped by the stop flag.
const INTERRUPTED: &str = "interrupted while dropping keys listed twice";

/// The keys seen so far, handing on each the first time it is offered.
#[derive(Debug)]
pub struct Distinct {
    hasher: RandomState,
    limit: usize,
    filter_bits: usize,
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
    /// The set, by the first bits of the fingerprint.
    top: Vec<Part>,
    /// Every fingerprint known or waiting.
    filter: Filter,
    /// Appending to each top part's fingerprints during a pass.
    known: Outs,
    /// Each top part's waiting records of this pass.
    fresh: Outs,
}

impl Distinct {
    /// An empty set expecting about `expected` keys, with the sizes of a listing
    /// ([`MEMORY_KEYS`], [`FILTER_BITS`]); its work on disk stops with an error when `stop`
    /// is raised.
    pub fn new(expected: usize, stop: &'static AtomicBool) -> Distinct {
        Distinct::with_sizes(expected, MEMORY_KEYS, FILTER_BITS, stop)
    }

    /// [`new`](Self::new) holding at most `limit` fingerprints in memory, with a filter of
    /// `filter_bits`.
    pub fn with_sizes(
        expected: usize,
        limit: usize,
        filter_bits: usize,
        stop: &'static AtomicBool,
    ) -> Distinct {
        let limit = limit.max(1);
        Distinct {
            hasher: RandomState::new(),
            limit,
            filter_bits,
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

    /// Offers one listed key: handed on to `each` now if it is certainly new, at the end of
    /// the pass if it has to be compared with the keys on disk first, never if it was seen.
    pub fn offer(
        &mut self,
        it: Listed,
        each: &mut impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<(), String> {
        let fp = self.hasher.hash_one(&it.key[..]);
        if let State::Memory(seen) = &mut self.state {
            if seen.len() < self.limit {
                if seen.insert(fp) {
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
        let i = slice(fp, 0);
        let part = &mut d.top[i];
        if !d.filter.insert(fp) {
            write_fp(d.known.get(i, &part.known)?, fp, &part.known)?;
            part.known_n += 1;
            self.len += 1;
            return each(it);
        }
        let w = d.fresh.get(i, &part.fresh)?;
        record::write(w, &it).map_err(|e| failed(&part.fresh, e))?;
        part.fresh_n += 1;
        Ok(())
    }

    /// Ends a pass: on disk, compares the records that waited with the keys known and hands
    /// each new one on to `each`.
    pub fn end_pass(
        &mut self,
        each: &mut impl FnMut(Listed) -> Result<(), String>,
    ) -> Result<(), String> {
        let State::Disk(d) = &mut self.state else {
            return Ok(());
        };
        let top = &d.top;
        d.known.finish(|i| &top[i].known)?;
        d.fresh.finish(|i| &top[i].fresh)?;
        let mut s = settle::Settle {
            dir: &d.dir,
            parts: &mut d.parts,
            hasher: &self.hasher,
            limit: self.limit as u64,
            stop: self.stop,
            handled: 0,
        };
        for part in &mut d.top {
            self.len += s.settle(part, 1, each)?;
        }
        Ok(())
    }

    /// Moves the fingerprints in memory to a scratch folder and the filter.
    fn spill(&mut self) -> Result<(), String> {
        let State::Memory(seen) = &self.state else {
            return Ok(());
        };
        let dir = scratch::Dir::new().map_err(|e| format!("scratch folder: {e}"))?;
        let mut parts = 0;
        let mut top: Vec<Part> = (0..FAN).map(|_| new_part(&dir, &mut parts)).collect();
        let mut filter = Filter::new(self.filter_bits);
        let mut known = Outs::new();
        for fp in seen.iter() {
            let i = slice(fp, 0);
            filter.insert(fp);
            write_fp(known.get(i, &top[i].known)?, fp, &top[i].known)?;
            top[i].known_n += 1;
        }
        self.state = State::Disk(Disk {
            dir,
            parts,
            top,
            filter,
            known,
            fresh: Outs::new(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::atomic::Ordering;

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

    /// What a run of passes gave.
    struct Run {
        /// Per pass, the keys handed on.
        out: Vec<Vec<Listed>>,
        /// Per pass, the set's count after it.
        lens: Vec<u64>,
        /// Keys handed on during offers, and at the ends of passes.
        at_once: usize,
        at_end: usize,
        on_disk: bool,
    }

    /// Offers `passes` to a set of `limit` and `filter` bits.
    fn run(limit: usize, filter: usize, passes: &[Vec<u64>]) -> Run {
        let mut d = Distinct::with_sizes(0, limit, filter, &NEVER);
        let mut r = Run {
            out: Vec::new(),
            lens: Vec::new(),
            at_once: 0,
            at_end: 0,
            on_disk: false,
        };
        for p in passes {
            let mut got = Vec::new();
            let mut each = |it: Listed| {
                got.push(it);
                Ok(())
            };
            for &k in p {
                d.offer(listed(k), &mut each).unwrap();
            }
            let n = got.len();
            let mut each = |it: Listed| {
                got.push(it);
                Ok(())
            };
            d.end_pass(&mut each).unwrap();
            r.at_once += n;
            r.at_end += got.len() - n;
            r.out.push(got);
            r.lens.push(d.len());
        }
        r.on_disk = matches!(d.state, State::Disk(_));
        r
    }

    /// Each pass must hand on exactly the keys no earlier offer showed, each once, whole.
    fn check(limit: usize, filter: usize, passes: &[Vec<u64>]) -> Run {
        let r = run(limit, filter, passes);
        let mut model: HashSet<u64> = HashSet::new();
        for (i, p) in passes.iter().enumerate() {
            let want: HashSet<u64> = p.iter().copied().filter(|k| !model.contains(k)).collect();
            let mut got: Vec<Listed> = r.out[i].clone();
            assert_eq!(got.len(), want.len(), "pass {i}: count");
            got.sort_by(|a, b| a.key.cmp(&b.key));
            let mut want_items: Vec<Listed> = want.iter().map(|&k| listed(k)).collect();
            want_items.sort_by(|a, b| a.key.cmp(&b.key));
            assert_eq!(got, want_items, "pass {i}");
            model.extend(p);
            assert_eq!(r.lens[i], model.len() as u64, "pass {i}: len");
        }
        r
    }

    fn passes(seed: u64) -> Vec<Vec<u64>> {
        vec![
            keys(seed, 3000, 2500),
            keys(seed + 10, 3000, 3000),
            Vec::new(),
            keys(seed + 20, 200, 4000),
            keys(seed + 30, 3000, 3000),
        ]
    }

    #[test]
    fn under_the_limit_it_stays_in_memory() {
        let r = check(1000, 1 << 20, &[keys(1, 500, 300), keys(2, 500, 400)]);
        assert!(!r.on_disk);
        assert_eq!(r.at_end, 0);
    }

    #[test]
    fn on_disk_with_a_full_filter_every_key_waits_and_parts_split() {
        // A 64-bit filter is full at once: every key past the limit waits for the end of its
        // pass, and a limit of 16 makes parts of ~47 records split again.
        for (seed, limit) in [(3, 16), (4, 50), (5, 700)] {
            let r = check(limit, 64, &passes(seed));
            assert!(r.on_disk, "seed {seed}");
            assert!(r.at_end > 2000, "seed {seed}: {} at the end", r.at_end);
        }
    }

    #[test]
    fn on_disk_with_a_roomy_filter_new_keys_go_at_once() {
        let r = check(16, 1 << 20, &passes(6));
        assert!(r.on_disk);
        assert!(
            r.at_once > 2500 && r.at_end < 50,
            "{} / {}",
            r.at_once,
            r.at_end
        );
        // A filter that fills along the way: both kinds.
        let r = check(16, 1 << 12, &passes(7));
        assert!(
            r.at_once > 100 && r.at_end > 100,
            "{} / {}",
            r.at_once,
            r.at_end
        );
    }

    #[test]
    fn the_scratch_folder_is_private_and_goes_with_the_set() {
        let mut d = Distinct::with_sizes(0, 2, 64, &NEVER);
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
        let mut d = Distinct::with_sizes(0, 1, 64, &STOP);
        let mut each = |_: Listed| Ok(());
        for k in 0..20_000 {
            d.offer(listed(k), &mut each).unwrap();
        }
        STOP.store(true, Ordering::SeqCst);
        let e = d.end_pass(&mut each).unwrap_err();
        assert_eq!(e, INTERRUPTED);
    }

    #[test]
    fn an_error_from_the_receiver_ends_the_pass() {
        let mut d = Distinct::with_sizes(0, 1, 64, &NEVER);
        let mut n = 0;
        let mut each = |_: Listed| {
            n += 1;
            if n == 3 {
                Err("full".to_string())
            } else {
                Ok(())
            }
        };
        let mut r = Ok(());
        for k in 0..100 {
            r = d.offer(listed(k), &mut each);
            if r.is_err() {
                break;
            }
        }
        let r = r.and_then(|_| d.end_pass(&mut each));
        assert_eq!(r.unwrap_err(), "full");
    }
}
