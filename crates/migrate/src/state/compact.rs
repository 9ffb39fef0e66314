//! Compaction: the sorted records and the journal after them merged into a new file of
//! sorted records (one copy line and at most one intent line per key), written beside the
//! state file and renamed over it, so the file on disk is always whole.
//!
//! The journal is sorted in bounded memory ([`Sorter`]) and merged with the sorted records
//! as both are read: memory does not grow with the number of records. Records whose server
//! restarted since (its identity changed) keep their versions, marked as no longer sure.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use super::file::{create_beside, replace};
use super::line::{hex, read_bounded, Fleet, Line, Read as Got, Ver, HEADER, MAX_LINE};
use super::scan::{sort_key, Section};
use super::section::At;
use super::{Ids, StateError};
use crate::sort::{Sorted, Sorter};

/// Journal bytes sorted in memory before they spill to scratch files.
const SORT_BUDGET: usize = 16 << 20;

/// One key's records while they are merged: the copy line and the intent line (labels and
/// hex key owned).
#[derive(Debug, Default)]
struct Fold {
    copy: Option<(String, Ver, Ver, Option<u64>)>,
    intent: Option<(String, Ver, u64)>,
}

impl Fold {
    fn apply(&mut self, l: &Line<'_>) {
        match *l {
            Line::Copy {
                dst,
                sv,
                dv,
                digest,
                ..
            } => {
                self.copy = Some((dst.to_string(), sv, dv, digest));
                self.intent = None;
            }
            Line::Intent {
                dst, sv, digest, ..
            } => {
                self.intent = Some((dst.to_string(), sv, digest));
            }
            Line::Void { .. } => self.intent = None,
            Line::Forget { .. } => *self = Fold::default(),
            Line::Server { .. } | Line::Journal => {}
        }
    }
}

/// Where the records come from: the file's sorted part, or a file of the first format.
pub enum Base<'a> {
    /// Nothing yet.
    None,
    /// The sorted records of `file` (bytes `start..end`), then its journal (`journal`:
    /// first byte and line number).
    File {
        /// The state file.
        file: &'a File,
        /// The sorted records' bytes and first line.
        records: Section,
        /// The journal's first byte and line number.
        journal: (u64, u64),
    },
    /// The copies of a file of the first format, by OLD label and key.
    V1(Vec<(String, Vec<u8>, super::scan::V1Copy)>),
}

/// What compaction made: the new file (open for appending), each OLD label's section,
/// how many keys it records, how many records it dropped (their servers are gone).
pub struct Compacted {
    /// The new state file.
    pub file: File,
    /// Each OLD label's records.
    pub sections: HashMap<String, Section>,
    /// Keys recorded.
    pub entries: u64,
    /// Keys dropped: their OLD or NEW server is not in the files.
    pub forgotten: usize,
    /// The sorted records: from the first to the `j` line.
    pub records: Section,
    /// The journal's first byte and line number.
    pub journal: (u64, u64),
}

/// Sorts the journal of `base` (from its first byte) by OLD label and key.
fn sort_journal(path: &str, file: &File, journal: (u64, u64)) -> Result<Sorted, StateError> {
    let io = |e: std::io::Error| StateError(format!("{path}: cannot sort the journal: {e}"));
    let dup = file.try_clone().map_err(io)?;
    let mut r = BufReader::with_capacity(256 * 1024, At::new(dup, journal.0, u64::MAX));
    let mut sorter = Sorter::new(SORT_BUDGET);
    let mut buf = Vec::new();
    let mut no = journal.1;
    loop {
        let got = read_bounded(&mut r, &mut buf, MAX_LINE).map_err(io)?;
        if got != Got::Line {
            // A last line cut short is a write a crash interrupted: not done.
            break;
        }
        let text =
            std::str::from_utf8(&buf).map_err(|_| StateError(format!("{path}:{no}: not text")))?;
        let (src, key) = Line::parse(text)
            .and_then(|l| l.subject())
            .ok_or_else(|| StateError(format!("{path}:{no}: not a state record")))?;
        sorter
            .push(sort_key(src, key), no, buf.clone())
            .map_err(io)?;
        no += 1;
    }
    sorter.finish().map_err(io)
}

/// The lines of the sorted part, each with its sort key.
struct Groups<'a> {
    r: BufReader<At>,
    buf: Vec<u8>,
    path: &'a str,
}

impl Groups<'_> {
    /// The next line and its sort key.
    fn next_line(&mut self) -> Result<Option<(Vec<u8>, String)>, StateError> {
        let got = read_bounded(&mut self.r, &mut self.buf, MAX_LINE)
            .map_err(|e| StateError(format!("{}: cannot read the state file: {e}", self.path)))?;
        if got != Got::Line {
            return Ok(None);
        }
        let text = String::from_utf8(self.buf.clone())
            .map_err(|_| StateError(format!("{}: a record changed while read", self.path)))?;
        let key = Line::parse(&text)
            .and_then(|l| l.subject())
            .map(|(s, k)| sort_key(s, k))
            .ok_or_else(|| StateError(format!("{}: a record changed while read", self.path)))?;
        Ok(Some((key, text)))
    }
}

/// Applies the record `text` to `fold`; the first gives the key's OLD label and hex key.
fn apply(fold: &mut Fold, subject: &mut Option<(String, String)>, text: &str) {
    if let Some(line) = Line::parse(text) {
        if subject.is_none() {
            *subject = line.subject().map(|(s, k)| (s.to_string(), k.to_string()));
        }
        fold.apply(&line);
    }
}

/// Writes the new file: the server lines of `ids`, every key's merged records (from `base`
/// and its journal), the `j` line.
pub fn compact(path: &str, base: Base<'_>, ids: &Ids) -> Result<Compacted, StateError> {
    let (tmp, file) = create_beside(path)?;
    let fail = |e: std::io::Error| {
        let _ = std::fs::remove_file(&tmp);
        StateError(format!("{path}: cannot write {}: {e}", tmp.display()))
    };
    let mut w = Writer {
        out: BufWriter::with_capacity(256 * 1024, file),
        at: 0,
        line: 0,
        sections: HashMap::new(),
        entries: 0,
        forgotten: 0,
        text: String::new(),
    };
    w.header().map_err(fail)?;
    for (fleet, label, ident) in ids.header() {
        w.put(&Line::Server {
            fleet,
            label: &label,
            ident: ident.as_deref(),
        })
        .map_err(fail)?;
    }
    let merged = match base {
        Base::None => Ok(()),
        Base::V1(copies) => w.v1(copies, ids).map_err(fail),
        Base::File {
            file,
            records,
            journal,
        } => merge_file(path, file, records, journal, &mut w, ids),
    };
    if let Err(e) = merged {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let records = Section {
        start: w.sections.values().map(|s| s.start).min().unwrap_or(w.at),
        end: w.at,
        line: w
            .sections
            .values()
            .map(|s| s.line)
            .min()
            .unwrap_or(w.line + 1),
    };
    w.put(&Line::Journal).map_err(fail)?;
    let journal = (w.at, w.line + 1);
    let file = w.out.into_inner().map_err(|e| fail(e.into_error()))?;
    file.sync_all().map_err(fail)?;
    replace(&tmp, path)?;
    Ok(Compacted {
        file,
        sections: w.sections,
        entries: w.entries,
        forgotten: w.forgotten,
        records,
        journal,
    })
}

fn merge_file(
    path: &str,
    file: &File,
    records: Section,
    journal: (u64, u64),
    w: &mut Writer,
    ids: &Ids,
) -> Result<(), StateError> {
    let io = |e: std::io::Error| StateError(format!("{path}: cannot write the state file: {e}"));
    let mut sorted = sort_journal(path, file, journal)?;
    let dup = file.try_clone().map_err(io)?;
    let mut groups = Groups {
        r: BufReader::with_capacity(256 * 1024, At::new(dup, records.start, records.end)),
        buf: Vec::new(),
        path,
    };
    let mut j = sorted.next_rec().map_err(io)?;
    let mut b = groups.next_line()?;
    loop {
        let key = match (&b, &j) {
            (None, None) => break,
            (Some(x), Some(y)) => x.0.as_slice().min(y.0.as_slice()).to_vec(),
            (Some(x), None) => x.0.clone(),
            (None, Some(y)) => y.0.clone(),
        };
        let mut fold = Fold::default();
        let mut subject = None;
        while let Some((_, text)) = b.as_ref().filter(|x| x.0 == key) {
            apply(&mut fold, &mut subject, text);
            b = groups.next_line()?;
        }
        while let Some(r) = j.as_ref().filter(|r| r.0 == key) {
            let text = std::str::from_utf8(&r.2).unwrap_or_default();
            apply(&mut fold, &mut subject, text);
            j = sorted.next_rec().map_err(io)?;
        }
        if let Some((src, k)) = subject {
            w.entry(&src, &k, fold, ids).map_err(io)?;
        }
    }
    Ok(())
}

/// The new file as it is written, and what is learnt on the way.
struct Writer {
    out: BufWriter<File>,
    at: u64,
    line: u64,
    sections: HashMap<String, Section>,
    entries: u64,
    forgotten: usize,
    text: String,
}

impl Writer {
    fn header(&mut self) -> std::io::Result<()> {
        writeln!(self.out, "{HEADER}")?;
        self.at += HEADER.len() as u64 + 1;
        self.line += 1;
        Ok(())
    }

    fn put(&mut self, l: &Line<'_>) -> std::io::Result<()> {
        self.text.clear();
        l.write(&mut self.text);
        self.out.write_all(self.text.as_bytes())?;
        self.at += self.text.len() as u64;
        self.line += 1;
        Ok(())
    }

    /// Writes one key's merged records (none when it has none, or names a server no longer
    /// in the files), each version doubted when its server's process changed.
    fn entry(&mut self, src: &str, key: &str, f: Fold, ids: &Ids) -> std::io::Result<()> {
        if f.copy.is_none() && f.intent.is_none() {
            return Ok(());
        }
        let known = |d: &str| ids.has(Fleet::New, d);
        if !ids.has(Fleet::Old, src)
            || !f.copy.as_ref().is_none_or(|c| known(&c.0))
            || !f.intent.as_ref().is_none_or(|i| known(&i.0))
        {
            self.forgotten += 1;
            return Ok(());
        }
        let start = self.at;
        let first = self.line + 1;
        let sure_src = ids.unchanged(Fleet::Old, src);
        let keep = |v: Ver, ok: bool| if ok { v } else { v.doubted() };
        if let Some((dst, sv, dv, digest)) = &f.copy {
            self.put(&Line::Copy {
                src,
                key,
                dst,
                sv: keep(*sv, sure_src),
                dv: keep(*dv, ids.unchanged(Fleet::New, dst)),
                digest: *digest,
            })?;
        }
        if let Some((dst, sv, digest)) = &f.intent {
            self.put(&Line::Intent {
                src,
                key,
                dst,
                sv: keep(*sv, sure_src),
                digest: *digest,
            })?;
        }
        self.entries += 1;
        let s = self.sections.entry(src.to_string()).or_insert(Section {
            start,
            end: start,
            line: first,
        });
        s.end = self.at;
        Ok(())
    }

    fn v1(
        &mut self,
        mut copies: Vec<(String, Vec<u8>, super::scan::V1Copy)>,
        ids: &Ids,
    ) -> std::io::Result<()> {
        let mut keyed: Vec<(Vec<u8>, String, String, super::scan::V1Copy)> = copies
            .drain(..)
            .map(|(src, key, c)| {
                let k = hex(&key);
                (sort_key(&src, &k), src, k, c)
            })
            .collect();
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (_, src, key, c) in keyed {
            let (sv, dv) = super::scan::v1_versions(&c);
            // The first format named no process: its versions are taken as given by the
            // current ones, sure as far as those are known.
            let fold = Fold {
                copy: Some((c.dst.clone(), sv, dv, None)),
                intent: None,
            };
            self.entry(&src, &key, fold, &ids.as_recorded_now())?;
        }
        Ok(())
    }
}
