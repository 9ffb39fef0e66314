//! An external sort in bounded memory: records (a sort key, a sequence number, a payload)
//! are kept in memory up to a byte budget, then written out as sorted runs to anonymous
//! scratch files (removed from the folder as soon as they are made, so nothing stays behind
//! whatever ends the process) and merged back, at most [`FAN_IN`] runs at a time. Records
//! come back ordered by key, then sequence number.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use ketama_keyset::scratch;

/// Runs merged at once (each with its read buffer).
pub const FAN_IN: usize = 64;
/// Read and write buffer of one run.
const BUFFER: usize = 64 * 1024;
/// Memory a record costs beyond its bytes (two vectors and the tuple).
const OVERHEAD: usize = 64;

/// One record: sort key, sequence number, payload.
pub type Rec = (Vec<u8>, u64, Vec<u8>);

/// Records being sorted.
#[derive(Debug)]
pub struct Sorter {
    buf: Vec<Rec>,
    bytes: usize,
    budget: usize,
    /// Sorted runs and their level (a run of level L merged 64^L spills), levels never
    /// rising along the vector: 64 runs of one level are merged into one of the next.
    runs: Vec<(u32, File)>,
}

fn write_rec<W: Write>(w: &mut W, (k, seq, p): &Rec) -> io::Result<()> {
    let len = |n: usize| {
        u32::try_from(n).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "record too long"))
    };
    w.write_all(&len(k.len())?.to_le_bytes())?;
    w.write_all(&len(p.len())?.to_le_bytes())?;
    w.write_all(&seq.to_le_bytes())?;
    w.write_all(k)?;
    w.write_all(p)
}

fn read_rec<R: Read>(r: &mut R) -> io::Result<Option<Rec>> {
    let mut head = [0u8; 16];
    match r.read_exact(&mut head[..1]) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    r.read_exact(&mut head[1..])?;
    let word = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    let mut seq = [0u8; 8];
    seq.copy_from_slice(&head[8..16]);
    let mut k = vec![0u8; word(0) as usize];
    r.read_exact(&mut k)?;
    let mut p = vec![0u8; word(4) as usize];
    r.read_exact(&mut p)?;
    Ok(Some((k, u64::from_le_bytes(seq), p)))
}

/// A fresh anonymous scratch file.
fn run_file() -> io::Result<File> {
    scratch::anonymous("sort")
}

impl Sorter {
    /// An empty sorter keeping at most about `budget` bytes of records in memory.
    pub fn new(budget: usize) -> Sorter {
        Sorter {
            buf: Vec::new(),
            bytes: 0,
            budget,
            runs: Vec::new(),
        }
    }

    /// Adds a record.
    pub fn push(&mut self, key: Vec<u8>, seq: u64, payload: Vec<u8>) -> io::Result<()> {
        self.bytes += key.len() + payload.len() + OVERHEAD;
        self.buf.push((key, seq, payload));
        if self.bytes >= self.budget {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        self.buf
            .sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let mut w = BufWriter::with_capacity(BUFFER, run_file()?);
        for r in self.buf.drain(..) {
            write_rec(&mut w, &r)?;
        }
        self.bytes = 0;
        self.buf = Vec::new();
        let mut f = w.into_inner().map_err(|e| e.into_error())?;
        f.seek(SeekFrom::Start(0))?;
        self.runs.push((0, f));
        while self.runs.len() >= FAN_IN {
            let tail = self.runs.len() - FAN_IN;
            let level = self.runs[tail].0;
            if self.runs[tail..].iter().any(|r| r.0 != level) {
                break;
            }
            let group = self.runs.split_off(tail).into_iter().map(|r| r.1).collect();
            self.runs.push((level + 1, merge_to_file(group)?));
        }
        Ok(())
    }

    /// The records in order.
    pub fn finish(mut self) -> io::Result<Sorted> {
        if self.runs.is_empty() {
            self.buf
                .sort_unstable_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
            return Ok(Sorted::Memory(std::mem::take(&mut self.buf).into_iter()));
        }
        self.spill()?;
        let runs = std::mem::take(&mut self.runs).into_iter().map(|r| r.1);
        Ok(Sorted::Runs(Merge::new(runs.collect())?))
    }
}

/// Merges `runs` into one run in a fresh file, ready to be read.
fn merge_to_file(runs: Vec<File>) -> io::Result<File> {
    let mut merged = Merge::new(runs)?;
    let mut w = BufWriter::with_capacity(BUFFER, run_file()?);
    while let Some(r) = merged.next_rec()? {
        write_rec(&mut w, &r)?;
    }
    let mut f = w.into_inner().map_err(|e| e.into_error())?;
    f.seek(SeekFrom::Start(0))?;
    Ok(f)
}

/// A record at the head of a run: key, sequence number, run, payload.
type Head = Reverse<(Vec<u8>, u64, usize, Vec<u8>)>;

/// Sorted runs merged.
#[derive(Debug)]
pub struct Merge {
    readers: Vec<BufReader<File>>,
    heap: BinaryHeap<Head>,
}

impl Merge {
    fn new(runs: Vec<File>) -> io::Result<Merge> {
        let mut m = Merge {
            readers: runs
                .into_iter()
                .map(|f| BufReader::with_capacity(BUFFER, f))
                .collect(),
            heap: BinaryHeap::new(),
        };
        for i in 0..m.readers.len() {
            m.refill(i)?;
        }
        Ok(m)
    }

    fn refill(&mut self, i: usize) -> io::Result<()> {
        if let Some((k, s, p)) = read_rec(&mut self.readers[i])? {
            self.heap.push(Reverse((k, s, i, p)));
        }
        Ok(())
    }

    fn next_rec(&mut self) -> io::Result<Option<Rec>> {
        let Some(Reverse((k, s, i, p))) = self.heap.pop() else {
            return Ok(None);
        };
        self.refill(i)?;
        Ok(Some((k, s, p)))
    }
}

/// Records in order, from memory or from merged runs.
#[derive(Debug)]
pub enum Sorted {
    /// Everything fit in memory.
    Memory(std::vec::IntoIter<Rec>),
    /// Runs on disk.
    Runs(Merge),
}

impl Sorted {
    /// The next record.
    pub fn next_rec(&mut self) -> io::Result<Option<Rec>> {
        match self {
            Sorted::Memory(it) => Ok(it.next()),
            Sorted::Runs(m) => m.next_rec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(mut s: Sorted) -> Vec<Rec> {
        let mut v = Vec::new();
        while let Some(r) = s.next_rec().unwrap() {
            v.push(r);
        }
        v
    }

    #[test]
    fn records_come_back_sorted_from_memory_and_from_many_runs() {
        let recs: Vec<Rec> = (0..20_000u64)
            .map(|i| {
                let k = format!("k{}", (i * 7919) % 5000).into_bytes();
                (k, i, i.to_le_bytes().to_vec())
            })
            .collect();
        let mut want = recs.clone();
        want.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        for budget in [1 << 30, 4096, 200] {
            let mut s = Sorter::new(budget);
            for r in &recs {
                s.push(r.0.clone(), r.1, r.2.clone()).unwrap();
            }
            assert_eq!(drain(s.finish().unwrap()), want, "budget {budget}");
        }
        assert!(drain(Sorter::new(10).finish().unwrap()).is_empty());
    }
}
