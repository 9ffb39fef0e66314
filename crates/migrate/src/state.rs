//! The state file of a run: every copy the tool made, so a later run can sync.
//!
//! Format (text, one record per line, fields separated by one space):
//! ```text
//! ketama-migrate-state 1
//! c <old-label> <new-label> <source-cas> <copy-cas> <key-hex>
//! d <key-hex>
//! ```
//! `c` records a copy: the key (lowercase hex of its bytes) was read from `<old-label>` while
//! its CAS there was `<source-cas>` and written to `<new-label>`, where it got `<copy-cas>`.
//! `d` forgets a key. Later lines win. On open the file is read, then rewritten compacted
//! (one `c` line per live copy) to a temporary file that replaces it by a rename, so the file
//! on disk is always complete; during the run records are appended (and flushed after every
//! batch), so a run stopped by Ctrl-C or a crash keeps what it did. A last line cut short by a
//! crash is ignored.

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};

const HEADER: &str = "ketama-migrate-state 1";

/// A state file that cannot be read or written: the message names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError(pub String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateError {}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    use fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// One copy the tool made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    /// Position of the source in the OLD servers file.
    pub src: usize,
    /// Position of the copy's server in the NEW servers file.
    pub dst: usize,
    /// The source item's CAS when it was read.
    pub src_cas: u64,
    /// The CAS the copy got when the tool wrote it.
    pub dst_cas: u64,
    /// Whether this run listed the key at its source (not persisted).
    pub seen: bool,
}

/// The copies of earlier runs, and the file they are appended to.
#[derive(Debug)]
pub struct State {
    path: String,
    copies: HashMap<Vec<u8>, Copy>,
    log: BufWriter<File>,
    old: Vec<String>,
    new: Vec<String>,
    forgotten: usize,
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The copies a state file records (later lines win), and how many name servers not in
/// `old` and `new` (forgotten). The text after the last newline (empty, or a line a crash cut
/// short) is ignored.
fn read_records(
    path: &str,
    bytes: &[u8],
    old: &[String],
    new: &[String],
) -> Result<(HashMap<Vec<u8>, Copy>, usize), StateError> {
    let mut copies = HashMap::new();
    let mut dropped = 0usize;
    let mut lines = bytes.split(|&b| b == b'\n').enumerate().peekable();
    while let Some((i, raw)) = lines.next() {
        if lines.peek().is_none() {
            break;
        }
        let text = std::str::from_utf8(raw)
            .map_err(|_| StateError(format!("{path}:{}: not a state file line", i + 1)))?;
        if i == 0 {
            if text != HEADER {
                return Err(StateError(format!(
                    "{path}: not a migrate state file (first line is not '{HEADER}')"
                )));
            }
            continue;
        }
        let bad = || StateError(format!("{path}:{}: bad state record '{text}'", i + 1));
        match text.split(' ').collect::<Vec<&str>>().as_slice() {
            ["c", s, d, sc, dc, k] => {
                let key = unhex(k).ok_or_else(bad)?;
                let (Ok(src_cas), Ok(dst_cas)) = (sc.parse(), dc.parse()) else {
                    return Err(bad());
                };
                let src = old.iter().position(|l| l == s);
                let dst = new.iter().position(|l| l == d);
                if let (Some(src), Some(dst)) = (src, dst) {
                    let seen = false;
                    copies.insert(
                        key,
                        Copy {
                            src,
                            dst,
                            src_cas,
                            dst_cas,
                            seen,
                        },
                    );
                } else {
                    copies.remove(&key);
                    dropped += 1;
                }
            }
            ["d", k] => {
                copies.remove(&unhex(k).ok_or_else(bad)?);
            }
            _ => return Err(bad()),
        }
    }
    Ok((copies, dropped))
}

impl State {
    /// Opens (or creates) the state of a migration from `old` to `new` (labels in file
    /// order). Copies recorded for a label not in those files are forgotten
    /// ([`State::forgotten`] counts them).
    pub fn open(path: &str, old: &[String], new: &[String]) -> Result<State, StateError> {
        let (copies, forgotten) = match std::fs::read(path) {
            Ok(bytes) => read_records(path, &bytes, old, new)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (HashMap::new(), 0),
            Err(e) => {
                return Err(StateError(format!(
                    "{path}: cannot read the state file: {e}"
                )))
            }
        };
        let mut st = State {
            path: path.to_string(),
            copies,
            log: BufWriter::new(
                // Replaced by `compact` just below; opening here gives the field a value.
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| StateError(format!("{path}: cannot open the state file: {e}")))?,
            ),
            old: old.to_vec(),
            new: new.to_vec(),
            forgotten,
        };
        st.compact()?;
        Ok(st)
    }

    /// Copies recorded for servers no longer in the servers files, forgotten on open.
    pub fn forgotten(&self) -> usize {
        self.forgotten
    }

    /// The copy recorded for `key`.
    pub fn get(&self, key: &[u8]) -> Option<&Copy> {
        self.copies.get(key)
    }

    /// Marks `key` as listed at its source in this run.
    pub fn mark_seen(&mut self, key: &[u8]) {
        if let Some(c) = self.copies.get_mut(key) {
            c.seen = true;
        }
    }

    /// Number of recorded copies.
    pub fn len(&self) -> usize {
        self.copies.len()
    }

    /// Whether no copy is recorded.
    pub fn is_empty(&self) -> bool {
        self.copies.is_empty()
    }

    /// Records a copy (appended to the file at the next [`flush`](Self::flush)).
    pub fn record(&mut self, key: &[u8], c: Copy) -> Result<(), StateError> {
        let line = format!(
            "c {} {} {} {} {}\n",
            self.old[c.src],
            self.new[c.dst],
            c.src_cas,
            c.dst_cas,
            hex(key)
        );
        self.copies.insert(key.to_vec(), c);
        self.append(&line)
    }

    /// Forgets a key.
    pub fn forget(&mut self, key: &[u8]) -> Result<(), StateError> {
        if self.copies.remove(key).is_some() {
            let line = format!("d {}\n", hex(key));
            self.append(&line)?;
        }
        Ok(())
    }

    fn append(&mut self, line: &str) -> Result<(), StateError> {
        let path = &self.path;
        self.log
            .write_all(line.as_bytes())
            .map_err(|e| StateError(format!("{path}: cannot write the state file: {e}")))
    }

    /// Writes the appended records out.
    pub fn flush(&mut self) -> Result<(), StateError> {
        let path = &self.path;
        self.log
            .flush()
            .map_err(|e| StateError(format!("{path}: cannot write the state file: {e}")))
    }

    /// The copies whose source is `src` and that this run did not list there.
    pub fn unseen(&self, src: usize) -> Vec<(Vec<u8>, Copy)> {
        self.copies
            .iter()
            .filter(|(_, c)| c.src == src && !c.seen)
            .map(|(k, c)| (k.clone(), c.clone()))
            .collect()
    }

    /// Rewrites the file with one line per live copy (temporary file, then rename), and
    /// appends to the new file from then on.
    pub fn compact(&mut self) -> Result<(), StateError> {
        self.flush()?;
        let path = self.path.clone();
        let tmp = format!("{path}.tmp{}", std::process::id());
        let fail = |e: std::io::Error| {
            StateError(format!("{path}: cannot write the state file ({tmp}): {e}"))
        };
        {
            let mut w = BufWriter::new(File::create(&tmp).map_err(fail)?);
            writeln!(w, "{HEADER}").map_err(fail)?;
            for (k, c) in &self.copies {
                writeln!(
                    w,
                    "c {} {} {} {} {}",
                    self.old[c.src],
                    self.new[c.dst],
                    c.src_cas,
                    c.dst_cas,
                    hex(k)
                )
                .map_err(fail)?;
            }
            let f = w.into_inner().map_err(|e| fail(e.into_error()))?;
            f.sync_all().map_err(fail)?;
        }
        std::fs::rename(&tmp, &path).map_err(fail)?;
        self.log = BufWriter::new(
            OpenOptions::new()
                .append(true)
                .open(&path)
                .map_err(|e| StateError(format!("{path}: cannot open the state file: {e}")))?,
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn records_survive_a_reopen_and_a_cut_last_line() {
        let dir = std::env::temp_dir().join(format!("ketama-state-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("s").to_string_lossy().into_owned();
        let _ = std::fs::remove_file(&path);
        let old = labels(&["a:1", "b:1"]);
        let new = labels(&["a:1", "b:1", "c:1"]);
        let mut s = State::open(&path, &old, &new).unwrap();
        assert!(s.is_empty());
        let c = |src, dst, sc, dc| Copy {
            src,
            dst,
            src_cas: sc,
            dst_cas: dc,
            seen: false,
        };
        s.record(b"k1", c(0, 2, 5, 9)).unwrap();
        s.record(b"k 2\xff", c(1, 2, 6, 10)).unwrap();
        s.record(b"k3", c(1, 0, 7, 11)).unwrap();
        s.forget(b"k3").unwrap();
        s.record(b"k1", c(0, 2, 8, 12)).unwrap();
        s.flush().unwrap();
        drop(s);
        // A crash while appending leaves a partial line: it is ignored.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"c a:1 c:1 1 2 6b").unwrap();
        drop(f);
        let s = State::open(&path, &old, &new).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s.get(b"k1"), Some(&c(0, 2, 8, 12)));
        assert_eq!(s.get(b"k 2\xff"), Some(&c(1, 2, 6, 10)));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3, "compacted: {text}");
        // A server no longer in the files: its copies are dropped.
        let s = State::open(&path, &labels(&["a:1"]), &new).unwrap();
        assert_eq!(s.len(), 1);
        std::fs::write(&path, "something else\n").unwrap();
        assert!(State::open(&path, &old, &new)
            .unwrap_err()
            .0
            .contains("not a migrate state file"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
