//! The end of a pass over a key set on disk: each part's records of the pass are compared
//! with its known fingerprints, and the new ones handed on.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use super::files::{append, each_known, finish, new_part, open, remove, slice, write_fp};
use super::files::{Outs, Part};
use super::sizes::{FAN, FAN_BITS, STOP_EVERY};
use crate::error::Error;
use crate::record::Record;
use crate::scratch;
use crate::seen::Seen;

/// One comparison of a pass's records with the fingerprints known.
pub struct Settle<'a> {
    /// Where the parts' files are.
    pub dir: &'a scratch::Dir,
    /// Parts named so far.
    pub parts: &'a mut u64,
    /// The fingerprint of a key.
    pub hasher: &'a RandomState,
    /// The most records of a part compared in memory at once.
    pub limit: u64,
    /// Raised to abandon the work (an error then).
    pub stop: &'a AtomicBool,
    /// The buffer of each scratch file.
    pub buffer: usize,
    /// Records handled, for looks at `stop`.
    pub handled: u64,
}

impl Settle<'_> {
    /// Counts one record or fingerprint handled; an error once a stop was requested.
    fn tick(&mut self) -> Result<(), Error> {
        self.handled += 1;
        if self.handled % STOP_EVERY == 0 && self.stop.load(Ordering::SeqCst) {
            return Err(Error::Interrupted);
        }
        Ok(())
    }

    fn fp<T: Record>(&self, it: &T) -> u64 {
        self.hasher.hash_one(it.key())
    }

    /// Hands on the records of `part` whose fingerprint is not known, each once, and adds
    /// them to the known ones; the number handed on. `depth` splits gave this part.
    pub fn settle<T: Record, E: From<Error>>(
        &mut self,
        part: &mut Part,
        depth: u32,
        each: &mut impl FnMut(T) -> Result<(), E>,
    ) -> Result<u64, E> {
        if part.fresh_n == 0 {
            return Ok(0);
        }
        if part.fresh_n <= self.limit || (depth + 1) * FAN_BITS > 64 {
            return self.compare(part, each);
        }
        // Too many records for memory: split the part by the next bits of the fingerprint.
        let mut subs: Vec<Part> = (0..FAN).map(|_| new_part(self.dir, self.parts)).collect();
        let mut outs = Outs::new(self.buffer);
        each_known(part, self.stop, self.buffer, |fp| {
            let i = slice(fp, depth);
            subs[i].known_n += 1;
            write_fp(outs.get(i, &subs[i].known)?, fp, &subs[i].known)
        })?;
        outs.finish(|i| &subs[i].known)?;
        let mut r = open(&part.fresh, self.buffer)?;
        while let Some(it) = T::read_from(&mut r).map_err(|e| Error::file(&part.fresh, e))? {
            self.tick()?;
            let i = slice(self.fp(&it), depth);
            let w = outs.get(i, &subs[i].fresh)?;
            it.write_to(w).map_err(|e| Error::file(&subs[i].fresh, e))?;
            subs[i].fresh_n += 1;
        }
        outs.finish(|i| &subs[i].fresh)?;
        remove(&part.known)?;
        remove(&part.fresh)?;
        let mut new = 0;
        for sub in &mut subs {
            new += self.settle(sub, depth + 1, each)?;
        }
        let mut w = append(&part.known, self.buffer)?;
        for sub in subs.iter().filter(|s| s.known_n > 0) {
            let mut r = open(&sub.known, self.buffer)?;
            io::copy(&mut r, &mut w).map_err(|e| Error::file(&part.known, e))?;
            remove(&sub.known)?;
        }
        finish(w, &part.known)?;
        part.known_n += new;
        part.fresh_n = 0;
        Ok(new)
    }

    /// [`settle`](Self::settle) for a part whose records fit in memory: their fingerprints
    /// are held, the known ones streamed past them.
    fn compare<T: Record, E: From<Error>>(
        &mut self,
        part: &mut Part,
        each: &mut impl FnMut(T) -> Result<(), E>,
    ) -> Result<u64, E> {
        let cap = usize::try_from(part.fresh_n.min(self.limit)).unwrap_or(usize::MAX);
        let mut fresh = Seen::with_capacity(cap);
        let mut r = open(&part.fresh, self.buffer)?;
        while let Some(it) = T::read_from(&mut r).map_err(|e| Error::file(&part.fresh, e))? {
            self.tick()?;
            fresh.insert(self.fp(&it));
        }
        // The pass's fingerprints already known, then those handed on.
        let mut done = Seen::with_capacity(cap);
        each_known(part, self.stop, self.buffer, |fp| {
            if fresh.contains(fp) {
                done.insert(fp);
            }
            Ok(())
        })?;
        drop(fresh);
        let mut out = append(&part.known, self.buffer)?;
        let mut r = open(&part.fresh, self.buffer)?;
        let mut new = 0;
        while let Some(it) = T::read_from(&mut r).map_err(|e| Error::file(&part.fresh, e))? {
            self.tick()?;
            let fp = self.fp(&it);
            if done.insert(fp) {
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
