//! Reading a state file through once when it is opened: every line checked (a line that is
//! not a record, too long, or naming a key the servers cannot be asked for is refused with
//! the file and line), and what the rest of the run needs from it: the server lines, where
//! each OLD server's records sit, and where the journal starts.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};

use super::line::{read_bounded, unhex_into, Fleet, Line, Read, Ver, HEADER, HEADER_V1, MAX_LINE};
use super::StateError;
use crate::backend::Version;

/// Where one OLD server's records sit: bytes `start..end` of the file, from line `line`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// First byte.
    pub start: u64,
    /// Byte after the last.
    pub end: u64,
    /// Line number of the first record.
    pub line: u64,
}

/// A copy a file of the first format records (its later lines won).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct V1Copy {
    /// NEW label.
    pub dst: String,
    /// Source version.
    pub sv: u64,
    /// Copy version.
    pub dv: u64,
}

/// What a state file holds, as read through once.
#[derive(Debug, Default)]
pub struct Scan {
    /// The server lines: fleet, label, identity.
    pub servers: Vec<(Fleet, String, Option<String>)>,
    /// Each OLD label's sorted records.
    pub sections: HashMap<String, Section>,
    /// Keys with sorted records.
    pub entries: u64,
    /// The sorted records: from the first to the `j` line.
    pub records: Section,
    /// Byte where the journal starts (after the `j` line), and its first line number.
    pub journal: (u64, u64),
    /// Records in the journal.
    pub journal_records: u64,
    /// A file of the first format: its copies by OLD label and key (later lines won).
    pub v1: Option<HashMap<(String, Vec<u8>), V1Copy>>,
    /// An empty file (as good as none).
    pub empty: bool,
}

/// Reads lines of `file` with their number and first byte, refusing bad ones (`check`
/// reads each whole line; a last line cut short is skipped).
struct Lines<'a> {
    path: &'a str,
    names: &'a dyn Fn(&[u8]) -> bool,
    r: BufReader<&'a File>,
    buf: Vec<u8>,
    no: u64,
    at: u64,
}

impl<'a> Lines<'a> {
    fn bad(&self, what: &str) -> StateError {
        StateError(format!("{}:{}: {what}", self.path, self.no))
    }

    /// The next whole line (number, first byte, byte after it, text); `None` at the end.
    fn next(&mut self) -> Result<Option<(u64, u64, u64, &str)>, StateError> {
        let read = read_bounded(&mut self.r, &mut self.buf, MAX_LINE)
            .map_err(|e| StateError(format!("{}: cannot read the state file: {e}", self.path)))?;
        self.no += 1;
        let at = self.at;
        match read {
            Read::End | Read::Cut => return Ok(None),
            Read::TooLong => {
                return Err(self.bad(&format!(
                    "a line of more than {MAX_LINE} bytes: not a state record"
                )))
            }
            Read::Line => {}
        }
        self.at += self.buf.len() as u64 + 1;
        let (no, end, path) = (self.no, self.at, self.path);
        let text = std::str::from_utf8(&self.buf)
            .map_err(|_| StateError(format!("{path}:{no}: not a state record (not text)")))?;
        Ok(Some((no, at, end, text)))
    }
}

/// Shortens a line for a message.
fn shown(text: &str) -> String {
    if text.len() <= 120 {
        text.to_string()
    } else {
        let mut end = 120;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}... ({} bytes)", &text[..end], text.len())
    }
}

/// Checks a key (hex) of line `no`: `names` must accept it (the servers could be asked for
/// it); `key` receives its bytes.
fn check_key(
    path: &str,
    no: u64,
    hex: &str,
    key: &mut Vec<u8>,
    names: &dyn Fn(&[u8]) -> bool,
) -> Result<(), StateError> {
    if !unhex_into(hex, key) {
        return Err(StateError(format!("{path}:{no}: a key that is not hex")));
    }
    if !names(key) {
        return Err(StateError(format!(
            "{path}:{no}: a key of {} bytes that the servers cannot be asked for (no listing \
             gives it): not a record of this tool",
            key.len()
        )));
    }
    Ok(())
}

/// Reads the state file `file` (at `path`) through once. `names` says which keys the
/// servers can be asked for.
pub fn scan(file: &File, path: &str, names: &dyn Fn(&[u8]) -> bool) -> Result<Scan, StateError> {
    let mut f = file;
    f.seek(SeekFrom::Start(0))
        .map_err(|e| StateError(format!("{path}: cannot read the state file: {e}")))?;
    let mut lines = Lines {
        path,
        names,
        r: BufReader::with_capacity(256 * 1024, file),
        buf: Vec::new(),
        no: 0,
        at: 0,
    };
    let first = lines.next()?.map(|(_, _, _, t)| t.to_string());
    match first.as_deref() {
        Some(HEADER) => scan_v2(lines),
        Some(HEADER_V1) => scan_v1(lines),
        None if lines.at == 0 => Ok(Scan {
            empty: true,
            ..Scan::default()
        }),
        _ => Err(StateError(format!(
            "{path}: not a migrate state file (its first line is not '{HEADER}')"
        ))),
    }
}

fn scan_v2(mut lines: Lines<'_>) -> Result<Scan, StateError> {
    let (path, names) = (lines.path, lines.names);
    let mut scan = Scan::default();
    let mut key = Vec::new();
    // The last record's (OLD label, key, kind): records must rise.
    let mut last: Option<(String, String, u8)> = None;
    let mut in_journal = false;
    let mut first_record = None;
    while let Some((no, at, end, text)) = lines.next()? {
        let bad = || {
            StateError(format!(
                "{path}:{no}: not a state record: '{}'",
                shown(text)
            ))
        };
        let line = Line::parse(text).ok_or_else(bad)?;
        if let Some((_, k)) = line.subject() {
            check_key(path, no, k, &mut key, names)?;
        }
        if in_journal {
            match line {
                Line::Server { .. } | Line::Journal => return Err(bad()),
                _ => scan.journal_records += 1,
            }
            continue;
        }
        match line {
            Line::Server {
                fleet,
                label,
                ident,
            } if last.is_none() => {
                scan.servers
                    .push((fleet, label.to_string(), ident.map(str::to_string)));
            }
            Line::Copy { src, key: k, .. } | Line::Intent { src, key: k, .. } => {
                let kind = u8::from(matches!(line, Line::Intent { .. }));
                let this = (src, k, kind);
                if let Some((ls, lk, lkind)) = &last {
                    let was = (ls.as_str(), lk.as_str(), *lkind);
                    if sort_key_cmp((was.0, was.1), (src, k)).then(was.2.cmp(&kind))
                        != std::cmp::Ordering::Less
                    {
                        return Err(StateError(format!(
                            "{path}:{no}: records out of order (the file was changed by hand?)"
                        )));
                    }
                    if was.0 != src || was.1 != k {
                        scan.entries += 1;
                    }
                } else {
                    scan.entries += 1;
                }
                first_record.get_or_insert((at, no));
                let s = scan.sections.entry(src.to_string()).or_insert(Section {
                    start: at,
                    end: at,
                    line: no,
                });
                s.end = end;
                last = Some((this.0.to_string(), this.1.to_string(), this.2));
            }
            Line::Journal => {
                in_journal = true;
                let (start, line) = first_record.unwrap_or((at, no));
                scan.records = Section {
                    start,
                    end: at,
                    line,
                };
                scan.journal = (end, no + 1);
            }
            _ => return Err(bad()),
        }
    }
    if !in_journal {
        return Err(StateError(format!(
            "{path}: the state file ends before its 'j' line (not written by this tool?)"
        )));
    }
    Ok(scan)
}

/// Orders records by OLD label, then key (hex): as the bytes of `"<label> <key>"`.
pub fn sort_key_cmp(a: (&str, &str), b: (&str, &str)) -> std::cmp::Ordering {
    let ka = a.0.bytes().chain(std::iter::once(b' ')).chain(a.1.bytes());
    let kb = b.0.bytes().chain(std::iter::once(b' ')).chain(b.1.bytes());
    ka.cmp(kb)
}

/// The bytes records are sorted by: `"<label> <key-hex>"`.
pub fn sort_key(label: &str, key_hex: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(label.len() + 1 + key_hex.len());
    k.extend_from_slice(label.as_bytes());
    k.push(b' ');
    k.extend_from_slice(key_hex.as_bytes());
    k
}

fn scan_v1(mut lines: Lines<'_>) -> Result<Scan, StateError> {
    let (path, names) = (lines.path, lines.names);
    let mut copies: HashMap<(String, Vec<u8>), V1Copy> = HashMap::new();
    // Each key's OLD label (a `d` line names the key only).
    let mut owner: HashMap<Vec<u8>, String> = HashMap::new();
    let mut key = Vec::new();
    while let Some((no, _, _, text)) = lines.next()? {
        let bad = || {
            StateError(format!(
                "{path}:{no}: not a state record: '{}'",
                shown(text)
            ))
        };
        let f: Vec<&str> = text.split(' ').collect();
        match f.as_slice() {
            ["c", s, d, sc, dc, k] if !s.is_empty() && !d.is_empty() => {
                check_key(path, no, k, &mut key, names)?;
                let (Ok(sv), Ok(dv)) = (sc.parse(), dc.parse()) else {
                    return Err(bad());
                };
                if let Some(prev) = owner.insert(key.clone(), s.to_string()) {
                    copies.remove(&(prev, key.clone()));
                }
                copies.insert(
                    (s.to_string(), key.clone()),
                    V1Copy {
                        dst: d.to_string(),
                        sv,
                        dv,
                    },
                );
            }
            ["d", k] => {
                check_key(path, no, k, &mut key, names)?;
                if let Some(prev) = owner.remove(&key) {
                    copies.remove(&(prev, key.clone()));
                }
            }
            _ => return Err(bad()),
        }
    }
    Ok(Scan {
        v1: Some(copies),
        ..Scan::default()
    })
}

/// A copy of the first format as a record of the current one: its versions taken as given
/// by the servers' current processes (that format did not say which), its digest unknown.
pub fn v1_versions(c: &V1Copy) -> (Ver, Ver) {
    (Ver::sure(Version(c.sv)), Ver::sure(Version(c.dv)))
}
