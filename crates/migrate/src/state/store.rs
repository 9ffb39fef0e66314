//! [`State`]: a state file opened by a run (locked, checked, compacted when it holds a
//! journal or a server's process changed), read one OLD server at a time, appended to.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Arc;

use super::compact::{compact, Base, Compacted};
use super::file::{open_state, Lock};
use super::ids::Ids;
use super::line::{push_hex, Fleet, Line, Ver};
use super::scan::{scan, Section};
use super::section::{Copy, Intent, SectionReader};
use super::StateError;

/// What a run appends to the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record<'a> {
    /// A copy written (settles an intent).
    Copied {
        /// OLD server (file position).
        src: usize,
        /// The key.
        key: &'a [u8],
        /// The copy.
        copy: Copy,
    },
    /// A write about to be sent.
    Intent {
        /// OLD server (file position).
        src: usize,
        /// The key.
        key: &'a [u8],
        /// The write.
        intent: Intent,
    },
    /// The intent's write did not happen (the copy recorded before stays).
    Void {
        /// OLD server (file position).
        src: usize,
        /// The key.
        key: &'a [u8],
    },
    /// Nothing of the tool's is known of the key any more.
    Forget {
        /// OLD server (file position).
        src: usize,
        /// The key.
        key: &'a [u8],
    },
}

/// A state file open for a run.
#[derive(Debug)]
pub struct State {
    path: String,
    _lock: Lock,
    /// The file (read by position, appended to).
    file: File,
    out: BufWriter<File>,
    sections: HashMap<String, Section>,
    records: Section,
    journal: (u64, u64),
    entries: u64,
    old: Vec<String>,
    new: Vec<String>,
    new_pos: Arc<HashMap<String, usize>>,
    ids: Ids,
    forgotten: usize,
    text: String,
}

fn journal_writer(path: &str, file: &File) -> Result<BufWriter<File>, StateError> {
    let dup = file
        .try_clone()
        .map_err(|e| StateError(format!("{path}: cannot open the state file: {e}")))?;
    Ok(BufWriter::with_capacity(256 * 1024, dup))
}

impl State {
    /// Opens (or creates) the state file at `path` for a migration between the servers of
    /// `ids` (labels in file order, with the processes this run found): locks it, reads it
    /// through (refusing a bad line with its number; `names` says which keys the servers
    /// can be asked for), and compacts it when it holds a journal, is of the first format,
    /// or a server's process is not the one it records. Records naming servers no longer in
    /// the files are dropped ([`State::forgotten`]).
    pub fn open(
        path: &str,
        mut ids: Ids,
        names: &dyn Fn(&[u8]) -> bool,
    ) -> Result<State, StateError> {
        let lock = Lock::take(path)?;
        let labels = |f: Fleet| -> Vec<String> {
            ids.header()
                .into_iter()
                .filter(|h| h.0 == f)
                .map(|h| h.1)
                .collect()
        };
        let (old, new) = (labels(Fleet::Old), labels(Fleet::New));
        let new_pos = Arc::new(
            new.iter()
                .enumerate()
                .map(|(i, l)| (l.clone(), i))
                .collect::<HashMap<_, _>>(),
        );
        let existing = open_state(path)?;
        let c = match &existing {
            None => compact(path, Base::None, &ids)?,
            Some(f) => {
                let s = scan(f, path, names)?;
                ids.set_recorded(&s.servers);
                if s.empty {
                    compact(path, Base::None, &ids)?
                } else if let Some(v1) = s.v1 {
                    let copies = v1.into_iter().map(|((s, k), c)| (s, k, c)).collect();
                    compact(path, Base::V1(copies), &ids)?
                } else if s.journal_records > 0 || ids.any_differs() {
                    let base = Base::File {
                        file: f,
                        records: s.records,
                        journal: s.journal,
                    };
                    compact(path, base, &ids)?
                } else {
                    let file = existing.expect("matched Some");
                    return Ok(State {
                        path: path.to_string(),
                        _lock: lock,
                        out: journal_writer(path, &file)?,
                        file,
                        sections: s.sections,
                        records: s.records,
                        journal: s.journal,
                        entries: s.entries,
                        old,
                        new,
                        new_pos,
                        ids,
                        forgotten: 0,
                        text: String::new(),
                    });
                }
            }
        };
        let Compacted {
            file,
            sections,
            entries,
            forgotten,
            records,
            journal,
        } = c;
        Ok(State {
            path: path.to_string(),
            _lock: lock,
            out: journal_writer(path, &file)?,
            file,
            sections,
            records,
            journal,
            entries,
            old,
            new,
            new_pos,
            ids: ids.as_recorded_now(),
            forgotten,
            text: String::new(),
        })
    }

    /// Records dropped because they name servers no longer in the servers files.
    pub fn forgotten(&self) -> usize {
        self.forgotten
    }

    /// Keys recorded when the file was opened.
    pub fn len(&self) -> u64 {
        self.entries
    }

    /// Whether nothing was recorded when the file was opened.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The records of OLD server `src` (file position), in key order; `None` when it has
    /// none.
    pub fn section(&self, src: usize) -> Result<Option<SectionReader>, StateError> {
        let Some(&sec) = self.sections.get(&self.old[src]) else {
            return Ok(None);
        };
        let file = self
            .file
            .try_clone()
            .map_err(|e| StateError(format!("{}: cannot read the state file: {e}", self.path)))?;
        Ok(Some(SectionReader::new(
            file,
            &self.path,
            sec,
            self.new_pos.clone(),
        )))
    }

    /// A version as this run records it: sure only when the server's process is known.
    fn ver(&self, v: Ver, fleet: Fleet, label: &str) -> Ver {
        if v.sure && self.ids.sure_now(fleet, label) {
            v
        } else {
            v.doubted()
        }
    }

    /// Appends a record to the journal (written out by [`flush`](Self::flush)).
    pub fn append(&mut self, r: Record<'_>) -> Result<(), StateError> {
        let mut key = std::mem::take(&mut self.text);
        key.clear();
        let (src, k) = match r {
            Record::Copied { src, key: k, .. }
            | Record::Intent { src, key: k, .. }
            | Record::Void { src, key: k }
            | Record::Forget { src, key: k } => (src, k),
        };
        push_hex(&mut key, k);
        let s = self.old[src].as_str();
        let line = match r {
            Record::Copied { copy, .. } => {
                let dst = self.new[copy.dst].as_str();
                Line::Copy {
                    src: s,
                    key: &key,
                    dst,
                    sv: self.ver(copy.sv, Fleet::Old, s),
                    dv: self.ver(copy.dv, Fleet::New, dst),
                    digest: copy.digest,
                }
            }
            Record::Intent { intent, .. } => Line::Intent {
                src: s,
                key: &key,
                dst: self.new[intent.dst].as_str(),
                sv: self.ver(intent.sv, Fleet::Old, s),
                digest: intent.digest,
            },
            Record::Void { .. } => Line::Void { src: s, key: &key },
            Record::Forget { .. } => Line::Forget { src: s, key: &key },
        };
        let mut text = String::with_capacity(key.len() + 96);
        line.write(&mut text);
        self.text = key;
        self.out
            .write_all(text.as_bytes())
            .map_err(|e| StateError(format!("{}: cannot write the state file: {e}", self.path)))
    }

    /// Writes the appended records out (to the system: a process killed after this keeps
    /// them).
    pub fn flush(&mut self) -> Result<(), StateError> {
        self.out
            .flush()
            .map_err(|e| StateError(format!("{}: cannot write the state file: {e}", self.path)))
    }

    /// Ends the run's use of the file: the journal written out and, with `compact`, merged
    /// into the sorted records. Returns the records dropped because they name servers no
    /// longer in the files. The lock is released.
    pub fn finish(mut self, compact_now: bool) -> Result<usize, StateError> {
        self.flush()?;
        if compact_now {
            let base = Base::File {
                file: &self.file,
                records: self.records,
                journal: self.journal,
            };
            let c = compact(&self.path, base, &self.ids)?;
            self.forgotten += c.forgotten;
        }
        Ok(self.forgotten)
    }
}
