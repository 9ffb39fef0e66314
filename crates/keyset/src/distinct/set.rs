//! [`Distinct`]: the set itself, in memory and then on disk.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::files::{new_part, slice, write_fp, Outs, Part};
use super::settle;
use super::sizes::{Sizes, FAN};
use crate::error::Error;
use crate::filter::Filter;
use crate::record::Record;
use crate::scratch;
use crate::seen::Seen;

/// The keys seen so far, handing on each the first time it is offered.
#[derive(Debug)]
pub struct Distinct<T> {
    hasher: RandomState,
    limit: usize,
    sizes: Sizes,
    len: u64,
    stop: Arc<AtomicBool>,
    state: State,
    records: PhantomData<fn(T) -> T>,
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

impl<T: Record> Distinct<T> {
    /// An empty set expecting about `expected` keys, within `sizes`; its work on disk stops
    /// with an error when `stop` is raised.
    pub fn new(expected: usize, sizes: Sizes, stop: Arc<AtomicBool>) -> Distinct<T> {
        let limit = sizes.memory_keys.max(1);
        Distinct {
            hasher: RandomState::new(),
            limit,
            sizes,
            len: 0,
            stop,
            state: State::Memory(Seen::with_capacity(expected.min(limit))),
            records: PhantomData,
        }
    }

    /// Distinct keys handed on so far (all of a pass once [`end_pass`](Self::end_pass)
    /// returned).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no key was handed on yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Offers one listed key: handed on to `each` now if it is certainly new, at the end of
    /// the pass if it has to be compared with the keys on disk first, never if it was seen.
    pub fn offer<E: From<Error>>(
        &mut self,
        it: T,
        each: &mut impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), E> {
        let fp = self.hasher.hash_one(it.key());
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
            return Err(Error::Scratch("the key set left memory but is not on disk".into()).into());
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
        it.write_to(w).map_err(|e| Error::file(&part.fresh, e))?;
        part.fresh_n += 1;
        Ok(())
    }

    /// Ends a pass: on disk, compares the records that waited with the keys known and hands
    /// each new one on to `each`.
    pub fn end_pass<E: From<Error>>(
        &mut self,
        each: &mut impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), E> {
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
            stop: &self.stop,
            buffer: self.sizes.buffer,
            handled: 0,
        };
        for part in &mut d.top {
            self.len += s.settle(part, 1, each)?;
        }
        Ok(())
    }

    /// Moves the fingerprints in memory to a scratch folder and the filter.
    fn spill(&mut self) -> Result<(), Error> {
        let State::Memory(seen) = &self.state else {
            return Ok(());
        };
        let dir =
            scratch::Dir::new().map_err(|e| Error::Scratch(format!("scratch folder: {e}")))?;
        let mut parts = 0;
        let mut top: Vec<Part> = (0..FAN).map(|_| new_part(&dir, &mut parts)).collect();
        let mut filter = Filter::new(self.sizes.filter_bits);
        let mut known = Outs::new(self.sizes.buffer);
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
            fresh: Outs::new(self.sizes.buffer),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::io::{self, Read, Write};
    use std::sync::atomic::Ordering;

    use crate::record::{read_keyed, write_keyed};

    /// A listed key with three numbers that must survive the trip to disk.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Listed {
        key: Vec<u8>,
        nums: [u64; 3],
    }

    impl Record for Listed {
        fn key(&self) -> &[u8] {
            &self.key
        }
        fn write_to<W: Write>(&self, w: &mut W) -> io::Result<()> {
            write_keyed(w, &self.key, self.nums)
        }
        fn read_from<R: Read>(r: &mut R) -> io::Result<Option<Listed>> {
            Ok(read_keyed(r)?.map(|(key, nums)| Listed { key, nums }))
        }
    }

    /// The errors of a test receiver.
    #[derive(Debug, PartialEq, Eq)]
    enum Fails {
        Set(String),
        Receiver(&'static str),
    }

    impl From<Error> for Fails {
        fn from(e: Error) -> Fails {
            Fails::Set(e.to_string())
        }
    }

    fn sizes(memory_keys: usize, filter_bits: usize) -> Sizes {
        Sizes {
            memory_keys,
            filter_bits,
            buffer: 4096,
        }
    }

    fn never() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    fn listed(k: u64) -> Listed {
        Listed {
            key: format!("key:{k}").into_bytes(),
            nums: [k * 3, k, k + 50],
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
        let mut d = Distinct::new(0, sizes(limit, filter), never());
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
                Ok::<(), Fails>(())
            };
            for &k in p {
                d.offer(listed(k), &mut each).unwrap();
            }
            let n = got.len();
            let mut each = |it: Listed| {
                got.push(it);
                Ok::<(), Fails>(())
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
        let mut d = Distinct::new(0, sizes(2, 64), never());
        let mut each = |_: Listed| Ok::<(), Fails>(());
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
        let stop = never();
        let mut d = Distinct::new(0, sizes(1, 64), stop.clone());
        let mut each = |_: Listed| Ok::<(), Fails>(());
        for k in 0..20_000 {
            d.offer(listed(k), &mut each).unwrap();
        }
        stop.store(true, Ordering::SeqCst);
        let e = d.end_pass(&mut each).unwrap_err();
        assert_eq!(e, Fails::Set(Error::Interrupted.to_string()));
    }

    #[test]
    fn an_error_from_the_receiver_ends_the_pass() {
        let mut d = Distinct::new(0, sizes(1, 64), never());
        let mut n = 0;
        let mut each = |_: Listed| {
            n += 1;
            if n == 3 {
                Err(Fails::Receiver("full"))
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
        assert_eq!(r.unwrap_err(), Fails::Receiver("full"));
    }
}
