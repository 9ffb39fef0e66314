//! One line of a state file: what it says ([`Line`]), how it is written ([`Line::write`])
//! and read ([`Line::parse`]), and the bounds a line must keep ([`read_bounded`]).

use std::fmt::Write as _;
use std::io::{self, BufRead};

use crate::backend::Version;

/// The first line of the current format.
pub const HEADER: &str = "ketama-migrate-state 2";
/// The first line of the format before it (read, never written).
pub const HEADER_V1: &str = "ketama-migrate-state 1";

/// The longest key a record may name, bytes (what the spool files can carry).
pub const MAX_KEY: usize = u16::MAX as usize;
/// The longest line read: a key of [`MAX_KEY`] bytes in hex, two labels and the numbers.
pub const MAX_LINE: usize = 2 * MAX_KEY + 2048;

/// A recorded version, and whether it is *sure*: given by the server process the file's
/// header names for that server (a version given by a process since gone may name another
/// item: memcached's CAS counter starts again with the process).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ver {
    /// The version.
    pub version: Version,
    /// Given by the process the header names.
    pub sure: bool,
}

impl Ver {
    /// A version given by the server process of this run.
    pub fn sure(version: Version) -> Ver {
        Ver {
            version,
            sure: true,
        }
    }

    /// The same version, no longer sure (its server restarted since).
    pub fn doubted(self) -> Ver {
        Ver {
            sure: false,
            ..self
        }
    }

    fn write(self, s: &mut String) {
        let _ = write!(s, " {}{}", if self.sure { "" } else { "?" }, self.version.0);
    }

    fn parse(t: &str) -> Option<Ver> {
        let (sure, n) = match t.strip_prefix('?') {
            Some(n) => (false, n),
            None => (true, t),
        };
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Ver {
            version: Version(n.parse().ok()?),
            sure,
        })
    }
}

/// Which fleet a server line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fleet {
    /// OLD (`s old`).
    Old,
    /// NEW (`s new`).
    New,
}

/// One line of a state file (labels and keys borrowed from the line's text; keys in hex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// `s old|new <label> <identity>`: the server process whose versions the records give
    /// (`-`: unknown).
    Server {
        /// OLD or NEW.
        fleet: Fleet,
        /// The server's label.
        label: &'a str,
        /// `<started> <process>` as [`ident_text`] writes it, `None` when unknown.
        ident: Option<&'a str>,
    },
    /// `c <old-label> <key> <new-label> <src-version> <copy-version> <digest>`: a copy the
    /// tool made (the key was read at `<old-label>` at `<src-version>`, written to
    /// `<new-label>` where it got `<copy-version>`; `<digest>` of the value and flags
    /// written, `-` when unknown).
    Copy {
        /// OLD label.
        src: &'a str,
        /// The key, lowercase hex.
        key: &'a str,
        /// NEW label.
        dst: &'a str,
        /// The source's version when read.
        sv: Ver,
        /// The copy's version.
        dv: Ver,
        /// What was written ([`digest`](super::digest)).
        digest: Option<u64>,
    },
    /// `i <old-label> <key> <new-label> <src-version> <digest>`: a write about to be sent,
    /// whose outcome is unknown until a later line says it.
    Intent {
        /// OLD label.
        src: &'a str,
        /// The key, lowercase hex.
        key: &'a str,
        /// NEW label.
        dst: &'a str,
        /// The source's version when read.
        sv: Ver,
        /// What is written.
        digest: u64,
    },
    /// `x <old-label> <key>`: the write of the last intent did not happen (the copy recorded
    /// before stays).
    Void {
        /// OLD label.
        src: &'a str,
        /// The key, lowercase hex.
        key: &'a str,
    },
    /// `d <old-label> <key>`: the key is forgotten (no copy of the tool's is known).
    Forget {
        /// OLD label.
        src: &'a str,
        /// The key, lowercase hex.
        key: &'a str,
    },
    /// `j`: the sorted records end; what follows is the journal of a run.
    Journal,
}

/// Lowercase hex of `bytes`, appended to `s`.
pub fn push_hex(s: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    s.reserve(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::new();
    push_hex(&mut s, bytes);
    s
}

/// The bytes of lowercase (or uppercase) hex `s` into `out` (cleared first); `false` when
/// it is not hex of whole bytes.
pub fn unhex_into(s: &str, out: &mut Vec<u8>) -> bool {
    out.clear();
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return false;
    }
    let nib = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    out.reserve(b.len() / 2);
    for pair in b.chunks_exact(2) {
        match (nib(pair[0]), nib(pair[1])) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => return false,
        }
    }
    true
}

/// The text of an identity on a server line: `<started> <process>`; `None` when the process
/// name holds what a line cannot (a line break or another control byte).
pub fn ident_text(started: i64, process: &str) -> Option<String> {
    if process.is_empty() || process.bytes().any(|b| b.is_ascii_control()) {
        return None;
    }
    Some(format!("{started} {process}"))
}

/// Whether two identities (as [`ident_text`] writes them) name the same server process:
/// the same process name, started alike ([`Identity::started_alike`]). Unknown is never the
/// same as anything.
///
/// [`Identity::started_alike`]: crate::backend::Identity::started_alike
pub fn same_process(a: Option<&str>, b: Option<&str>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    let split = |s: &str| -> Option<(i64, String)> {
        let (t, p) = s.split_once(' ')?;
        Some((t.parse().ok()?, p.to_string()))
    };
    match (split(a), split(b)) {
        (Some((ta, pa)), Some((tb, pb))) => {
            pa == pb && crate::backend::Identity::started_alike(ta, tb)
        }
        _ => false,
    }
}

fn digest_text(s: &mut String, d: Option<u64>) {
    match d {
        Some(d) => {
            let _ = write!(s, " {d:016x}");
        }
        None => s.push_str(" -"),
    }
}

fn parse_digest(t: &str) -> Option<Option<u64>> {
    if t == "-" {
        return Some(None);
    }
    if t.len() != 16 {
        return None;
    }
    u64::from_str_radix(t, 16).ok().map(Some)
}

impl<'a> Line<'a> {
    /// Appends the line (with its line break) to `s`.
    pub fn write(&self, s: &mut String) {
        match *self {
            Line::Server {
                fleet,
                label,
                ident,
            } => {
                let side = if fleet == Fleet::Old { "old" } else { "new" };
                let _ = writeln!(s, "s {side} {label} {}", ident.unwrap_or("-"));
            }
            Line::Copy {
                src,
                key,
                dst,
                sv,
                dv,
                digest,
            } => {
                let _ = write!(s, "c {src} {key} {dst}");
                sv.write(s);
                dv.write(s);
                digest_text(s, digest);
                s.push('\n');
            }
            Line::Intent {
                src,
                key,
                dst,
                sv,
                digest,
            } => {
                let _ = write!(s, "i {src} {key} {dst}");
                sv.write(s);
                digest_text(s, Some(digest));
                s.push('\n');
            }
            Line::Void { src, key } => {
                let _ = writeln!(s, "x {src} {key}");
            }
            Line::Forget { src, key } => {
                let _ = writeln!(s, "d {src} {key}");
            }
            Line::Journal => s.push_str("j\n"),
        }
    }

    /// Reads a line of the current format (without its line break); `None` when it is not
    /// one. Keys are checked to be hex of at most [`MAX_KEY`] bytes, not decoded.
    pub fn parse(text: &'a str) -> Option<Line<'a>> {
        let f: Vec<&str> = text.split(' ').collect();
        let key_ok = |k: &str| {
            !k.is_empty()
                && k.len() <= 2 * MAX_KEY
                && k.len() % 2 == 0
                && k.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        let label_ok = |l: &str| !l.is_empty();
        Some(match f.as_slice() {
            ["s", side, label, "-"] if label_ok(label) => Line::Server {
                fleet: fleet(side)?,
                label,
                ident: None,
            },
            ["s", side, label, started, ..] if label_ok(label) && f.len() > 4 => {
                started.parse::<i64>().ok()?;
                let at = 2 + side.len() + 1 + label.len() + 1;
                Line::Server {
                    fleet: fleet(side)?,
                    label,
                    ident: Some(&text[at..]),
                }
            }
            ["c", src, key, dst, sv, dv, d] if key_ok(key) && label_ok(src) && label_ok(dst) => {
                Line::Copy {
                    src,
                    key,
                    dst,
                    sv: Ver::parse(sv)?,
                    dv: Ver::parse(dv)?,
                    digest: parse_digest(d)?,
                }
            }
            ["i", src, key, dst, sv, d] if key_ok(key) && label_ok(src) && label_ok(dst) => {
                Line::Intent {
                    src,
                    key,
                    dst,
                    sv: Ver::parse(sv)?,
                    digest: parse_digest(d)??,
                }
            }
            ["x", src, key] if key_ok(key) && label_ok(src) => Line::Void { src, key },
            ["d", src, key] if key_ok(key) && label_ok(src) => Line::Forget { src, key },
            ["j"] => Line::Journal,
            _ => return None,
        })
    }

    /// The OLD label and hex key of a record line (what it is sorted by).
    pub fn subject(&self) -> Option<(&'a str, &'a str)> {
        match *self {
            Line::Copy { src, key, .. }
            | Line::Intent { src, key, .. }
            | Line::Void { src, key }
            | Line::Forget { src, key } => Some((src, key)),
            Line::Server { .. } | Line::Journal => None,
        }
    }
}

fn fleet(side: &str) -> Option<Fleet> {
    match side {
        "old" => Some(Fleet::Old),
        "new" => Some(Fleet::New),
        _ => None,
    }
}

/// What [`read_bounded`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A whole line (its line break removed) is in the buffer.
    Line,
    /// The text after the last line break (a line a crash cut short): in the buffer.
    Cut,
    /// A line longer than the bound (skipped to its end, not kept).
    TooLong,
    /// The end.
    End,
}

/// Reads the next line into `buf` (cleared first), keeping at most `max` bytes of it: a
/// longer line is read to its end without being kept.
pub fn read_bounded<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<Read> {
    buf.clear();
    let mut long = false;
    let mut any = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(match (any, long) {
                (false, _) => Read::End,
                (true, true) => Read::TooLong,
                (true, false) => Read::Cut,
            });
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !long && buf.len() + take <= max {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            long = true;
            buf.clear();
        }
        r.consume(take + usize::from(done));
        if done {
            return Ok(if long { Read::TooLong } else { Read::Line });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let lines = [
            Line::Server {
                fleet: Fleet::Old,
                label: "a:1",
                ident: Some("1700000000 pid 12"),
            },
            Line::Server {
                fleet: Fleet::New,
                label: "b:1",
                ident: None,
            },
            Line::Copy {
                src: "a:1",
                key: "6b00ff",
                dst: "b:1",
                sv: Ver::sure(Version(7)),
                dv: Ver::sure(Version(9)).doubted(),
                digest: Some(0x0123_4567_89ab_cdef),
            },
            Line::Copy {
                src: "a:1",
                key: "6b",
                dst: "b:1",
                sv: Ver::sure(Version(0)),
                dv: Ver::sure(Version(u64::MAX)),
                digest: None,
            },
            Line::Intent {
                src: "a:1",
                key: "6b",
                dst: "b:1",
                sv: Ver::sure(Version(3)).doubted(),
                digest: 5,
            },
            Line::Void {
                src: "a:1",
                key: "6b",
            },
            Line::Forget {
                src: "a:1",
                key: "6b",
            },
            Line::Journal,
        ];
        for l in lines {
            let mut s = String::new();
            l.write(&mut s);
            assert!(s.ends_with('\n'));
            assert_eq!(Line::parse(s.trim_end_matches('\n')), Some(l), "{s}");
        }
        for bad in [
            "c a:1 6b b:1 1 2",
            "c a:1 6 b:1 1 2 -",
            "c a:1 6b b:1 x 2 -",
            "c a:1 6b b:1 1 ?? -",
            "i a:1 6b b:1 1 -",
            "s mid a:1 -",
            "s old a:1 soon pid 1",
            "",
            "c  6b b:1 1 2 -",
        ] {
            assert_eq!(Line::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn identities_match_by_process_and_start_within_a_second() {
        let a = ident_text(100, "pid 7").unwrap();
        assert!(same_process(Some(&a), Some("101 pid 7")));
        assert!(!same_process(Some(&a), Some("102 pid 7")));
        assert!(!same_process(Some(&a), Some("100 pid 8")));
        assert!(!same_process(None, None));
        assert_eq!(ident_text(1, "pid\n7"), None);
    }

    #[test]
    fn a_long_line_is_skipped_not_kept() {
        let text = format!("short\n{}\nlast\ncut", "y".repeat(100));
        let mut r = std::io::BufReader::with_capacity(8, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_bounded(&mut r, &mut buf, 10).unwrap(), Read::Line);
        assert_eq!(buf, b"short");
        assert_eq!(read_bounded(&mut r, &mut buf, 10).unwrap(), Read::TooLong);
        assert!(buf.capacity() < 100);
        assert_eq!(read_bounded(&mut r, &mut buf, 10).unwrap(), Read::Line);
        assert_eq!(buf, b"last");
        assert_eq!(read_bounded(&mut r, &mut buf, 10).unwrap(), Read::Cut);
        assert_eq!(buf, b"cut");
        assert_eq!(read_bounded(&mut r, &mut buf, 10).unwrap(), Read::End);
    }
}
