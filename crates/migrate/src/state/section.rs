//! Reading records back: a part of the state file as a byte stream of its own ([`At`], by
//! position, so appends to the same file go on meanwhile), and one OLD server's sorted
//! records as [`Entry`]s in key order ([`SectionReader`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::sync::Arc;

use super::line::{read_bounded, unhex_into, Line, Read as Got, Ver, MAX_LINE};
use super::scan::Section;
use super::StateError;

/// Bytes `pos..end` of a file, read by position (the file's own offset is not used).
#[derive(Debug)]
pub struct At {
    file: File,
    pos: u64,
    end: u64,
}

impl At {
    /// Bytes `pos..end` (`u64::MAX`: to the end) of `file`.
    pub fn new(file: File, pos: u64, end: u64) -> At {
        At { file, pos, end }
    }
}

impl Read for At {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.pos);
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        let n = read_at(&self.file, &mut buf[..want], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, pos)
}

#[cfg(windows)]
fn read_at(f: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, pos)
}

/// A copy the tool made, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy {
    /// Its server (position in the NEW file).
    pub dst: usize,
    /// The source's version when it was read.
    pub sv: Ver,
    /// The version the copy got.
    pub dv: Ver,
    /// What was written (`None`: recorded by the first format).
    pub digest: Option<u64>,
}

/// A write the tool was about to send, whose outcome is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intent {
    /// Its server (position in the NEW file).
    pub dst: usize,
    /// The source's version when it was read.
    pub sv: Ver,
    /// What was written.
    pub digest: u64,
}

/// What the state says of one key of one OLD server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The key.
    pub key: Vec<u8>,
    /// The copy recorded.
    pub copy: Option<Copy>,
    /// A write whose outcome is unknown.
    pub intent: Option<Intent>,
}

impl Entry {
    /// Whether the entry says nothing (no copy, no intent).
    pub fn is_empty(&self) -> bool {
        self.copy.is_none() && self.intent.is_none()
    }
}

/// One OLD server's records, in key order.
#[derive(Debug)]
pub struct SectionReader {
    path: String,
    r: BufReader<At>,
    buf: Vec<u8>,
    line: u64,
    new: Arc<HashMap<String, usize>>,
    /// The first record of the next entry, read ahead.
    next: Option<Entry>,
    done: bool,
}

impl SectionReader {
    /// The records of `section` of `file` (at `path`); `new` gives each NEW label's
    /// position (records naming another server are skipped).
    pub fn new(
        file: File,
        path: &str,
        section: Section,
        new: Arc<HashMap<String, usize>>,
    ) -> SectionReader {
        SectionReader {
            path: path.to_string(),
            r: BufReader::with_capacity(64 * 1024, At::new(file, section.start, section.end)),
            buf: Vec::new(),
            line: section.line,
            new,
            next: None,
            done: false,
        }
    }

    /// The next record as a one-record entry; `None` at the end.
    fn record(&mut self) -> Result<Option<Entry>, StateError> {
        let bad = |what: &str, line: u64| StateError(format!("{}:{line}: {what}", self.path));
        let got = read_bounded(&mut self.r, &mut self.buf, MAX_LINE)
            .map_err(|e| StateError(format!("{}: cannot read the state file: {e}", self.path)))?;
        let line = self.line;
        self.line += 1;
        if got != Got::Line {
            return match got {
                Got::End => Ok(None),
                _ => Err(bad("a record changed since the file was opened", line)),
            };
        }
        let text = std::str::from_utf8(&self.buf).map_err(|_| bad("not a state record", line))?;
        let mut e = Entry::default();
        let parsed = Line::parse(text);
        let k = match parsed {
            Some(Line::Copy {
                key,
                dst,
                sv,
                dv,
                digest,
                ..
            }) => {
                e.copy = self.new.get(dst).map(|&dst| Copy {
                    dst,
                    sv,
                    dv,
                    digest,
                });
                key
            }
            Some(Line::Intent {
                key,
                dst,
                sv,
                digest,
                ..
            }) => {
                e.intent = self.new.get(dst).map(|&dst| Intent { dst, sv, digest });
                key
            }
            _ => return Err(bad("not a sorted state record", line)),
        };
        if !unhex_into(k, &mut e.key) {
            return Err(bad("a key that is not hex", line));
        }
        Ok(Some(e))
    }

    /// The next key's entry (its copy and intent together); `None` at the end. Entries that
    /// name only servers no longer in the files are skipped.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, StateError> {
        loop {
            let mut e = match self.next.take() {
                Some(e) => e,
                None if self.done => return Ok(None),
                None => match self.record()? {
                    Some(e) => e,
                    None => return Ok(None),
                },
            };
            loop {
                match self.record()? {
                    Some(r) if r.key == e.key => {
                        e.copy = e.copy.or(r.copy);
                        e.intent = e.intent.or(r.intent);
                    }
                    Some(r) => {
                        self.next = Some(r);
                        break;
                    }
                    None => {
                        self.done = true;
                        break;
                    }
                }
            }
            if !e.is_empty() {
                return Ok(Some(e));
            }
        }
    }
}
