//! libketama's servers file (what `ketama_roll` reads): the format, its quirks, the rules
//! for what a path may name, and every refusal's message, in one place for both libketama
//! drop-ins (C `ketama_roll`, Python `ketama.Continuum`). Pure: the drop-ins `stat` and read
//! the file, this module decides ([`check_file`], [`parse`], [`continuum`]).
//!
//! The format, as libketama's `read_server_definitions` and `read_server_line` read it
//! (docs/libketama-files.md gives the source lines and what the real library does with each
//! hostile file):
//! - lines are read `fgets(line, 127, file)`-style, in pieces of at most [`LINE_MAX`] bytes
//!   through the newline: a longer line becomes several lines, each counted;
//! - a NUL byte ends a line (C strings);
//! - a line under 2 bytes, or starting with `#`, is skipped;
//! - tokens are split on space and tab only (`\r` and `\n` belong to the tokens): the address,
//!   then the memory; later tokens are ignored;
//! - **the memory token's last character is dropped** (libketama assumes it is the newline):
//!   a last line without a newline reads `100` as 10, and `5` there is refused;
//! - the memory is read as `strtol(s, NULL, 10)` reads it: leading white space, a sign,
//!   digits, anything after ignored;
//! - repeated addresses are each a server of their own, with their own points.
//!
//! Refused, as libketama refuses them: a line with no second token, a memory that is not a
//! number or is 0, an address of more than [`ADDRESS_MAX`] bytes, a file without a server
//! line, a missing file. Refused where libketama misbehaves (crashes, hangs, or reads
//! garbage): a line of blanks only at the end of the file, a negative memory, a memory above
//! 4294967295, a path that names no regular file, a file over [`MAX_FILE_BYTES`].

use alloc::vec::Vec;
use core::fmt;

use crate::error::Error;
use crate::profile::LIBKETAMA;
use crate::ring::RawContinuum;

/// Longest address accepted, in bytes: libketama accepts `strlen(token) - 1 < 23`.
pub const ADDRESS_MAX: usize = 23;

/// Longest line piece, in bytes: `fgets` into 127 bytes reads at most 126.
pub const LINE_MAX: usize = 126;

/// Largest servers file accepted: 64 MiB, about 2.5 million server lines.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// What a path names, as the drop-in's `stat` (following symbolic links) found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file: the only kind read.
    Regular,
    /// A directory (libketama loops forever on it).
    Directory,
    /// A FIFO (libketama blocks until a writer comes).
    Fifo,
    /// A character or block device (`/dev/zero` never ends).
    Device,
    /// A socket.
    Socket,
    /// Anything else.
    Other,
}

/// Why a servers file was refused.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// The path names nothing `stat` can see.
    Missing,
    /// The path names something other than a regular file.
    NotRegular(FileKind),
    /// The file is over [`MAX_FILE_BYTES`] (its size when `stat` told it).
    TooLarge(Option<u64>),
    /// The file could not be opened or read: the system's error number.
    Unreadable(i32),
    /// A line has no second token.
    NoDelimiter,
    /// An address of more than [`ADDRESS_MAX`] bytes.
    AddressTooLong,
    /// The memory is not a number, 0, negative or out of `long`'s range.
    BadMemory,
    /// The memory is above 4294967295.
    MemoryTooLarge,
    /// No server line.
    NoServers,
    /// Core refused the continuum (more points than one may hold).
    Refused(Error),
}

/// A refused servers file: the problem and, for a problem of one line, its number (1-based,
/// counting `fgets` pieces as libketama does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileError {
    /// What is wrong.
    pub problem: FileProblem,
    /// The line it is on, when it is one line's problem.
    pub line: Option<u32>,
}

impl FileError {
    fn whole(problem: FileProblem) -> FileError {
        FileError {
            problem,
            line: None,
        }
    }

    /// The message both drop-ins give for file `file` (libketama's wording where libketama
    /// says something, with the reason it lost on the way):
    /// `Invalid memory value (line 3 in /etc/ketama.servers)`.
    pub fn in_file<'a>(&'a self, file: &'a str) -> InFile<'a> {
        InFile { error: self, file }
    }

    /// The reason of a one-line problem (libketama's text where it has one).
    fn reason(&self) -> &'static str {
        match self.problem {
            FileProblem::NoDelimiter => "Unable to find delimiter",
            FileProblem::AddressTooLong => "Address longer than 23 characters",
            FileProblem::BadMemory => "Invalid memory value",
            FileProblem::MemoryTooLarge => "Memory value above 4294967295",
            _ => "",
        }
    }
}

/// Without the file's name (see [`FileError::in_file`] for the drop-ins' messages).
impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.problem, self.line) {
            (FileProblem::Missing, _) => f.write_str("no such file"),
            (FileProblem::NotRegular(kind), _) => write!(f, "not a regular file ({kind:?})"),
            (FileProblem::TooLarge(_), _) => write!(f, "larger than {MAX_FILE_BYTES} bytes"),
            (FileProblem::Unreadable(errno), _) => write!(f, "unreadable (os error {errno})"),
            (FileProblem::NoServers, _) => f.write_str("no valid server definitions"),
            (FileProblem::Refused(e), _) => write!(f, "refused: {e}"),
            (_, Some(n)) => write!(f, "{} (line {n})", self.reason()),
            (_, None) => f.write_str(self.reason()),
        }
    }
}

impl core::error::Error for FileError {}

/// A [`FileError`] with the file's name: its message ([`FileError::in_file`]).
#[derive(Clone, Copy, Debug)]
pub struct InFile<'a> {
    error: &'a FileError,
    file: &'a str,
}

impl fmt::Display for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file;
        match (self.error.problem, self.error.line) {
            (FileProblem::Missing, _) => write!(f, "Invalid filename specified: {file}"),
            (FileProblem::NotRegular(FileKind::Directory), _) => {
                write!(f, "Invalid filename specified: {file} is a directory")
            }
            (FileProblem::NotRegular(kind), _) => {
                let what = match kind {
                    FileKind::Fifo => "a FIFO",
                    FileKind::Device => "a device",
                    FileKind::Socket => "a socket",
                    _ => "not a regular file",
                };
                write!(
                    f,
                    "Invalid filename specified: {file} is {what}, not a regular file"
                )
            }
            (FileProblem::TooLarge(Some(n)), _) => write!(
                f,
                "File {file} is larger than {MAX_FILE_BYTES} bytes ({n} bytes)"
            ),
            (FileProblem::TooLarge(None), _) => {
                write!(f, "File {file} is larger than {MAX_FILE_BYTES} bytes")
            }
            (FileProblem::Unreadable(errno), _) => {
                write!(f, "File {file} could not be read (os error {errno})")
            }
            (FileProblem::NoServers, _) => {
                write!(f, "No valid server definitions in file {file}")
            }
            (FileProblem::Refused(e), _) => write!(f, "File {file} is refused: {e}"),
            (_, Some(n)) => write!(f, "{} (line {n} in {file})", self.error.reason()),
            (_, None) => write!(f, "{} (in {file})", self.error.reason()),
        }
    }
}

/// Whether a path `stat` found to be `kind`, `size` bytes, may be read as a servers file.
pub fn check_file(kind: FileKind, size: u64) -> Result<(), FileError> {
    if kind != FileKind::Regular {
        return Err(FileError::whole(FileProblem::NotRegular(kind)));
    }
    if size > MAX_FILE_BYTES {
        return Err(FileError::whole(FileProblem::TooLarge(Some(size))));
    }
    Ok(())
}

/// `strtol(s, &end, 10)` as an `Option` (None: no digits, or out of `long`'s range).
fn strtol(s: &[u8]) -> Option<i64> {
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let s = &s[s.iter().take_while(|b| blank(b)).count()..];
    let (neg, s) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut v: i128 = 0;
    for &d in &s[..digits] {
        // Saturates just past `long`'s range: enough to tell ERANGE, never overflows.
        v = (v * 10 + i128::from(d - b'0')).min(i128::from(i64::MAX) + 2);
    }
    i64::try_from(if neg { -v } else { v }).ok()
}

/// Splits `s` like `strtok(s, "\t ")`: the next token and what follows it.
fn strtok(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let start = s.iter().position(|&b| b != b' ' && b != b'\t')?;
    let s = &s[start..];
    let end = s
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// One line's server, `(address, memory)`, or why the line is refused.
fn server_line(line: &[u8]) -> Result<(&[u8], u32), FileProblem> {
    let (address, after) = strtok(line).ok_or(FileProblem::NoDelimiter)?;
    if address.len() > ADDRESS_MAX {
        return Err(FileProblem::AddressTooLong);
    }
    let (memory, _) = strtok(after).ok_or(FileProblem::NoDelimiter)?;
    // libketama drops the token's last character, assuming it is the newline.
    let memory = &memory[..memory.len() - 1];
    match strtol(memory) {
        Some(m) if m > 0 => u32::try_from(m)
            .map(|m| (address, m))
            .map_err(|_| FileProblem::MemoryTooLarge),
        _ => Err(FileProblem::BadMemory),
    }
}

/// The servers of a servers file's bytes, `(address, memory)` in file order (addresses as
/// written, any bytes but space, tab and NUL), or the first refusal (see the module docs).
///
/// ```
/// use ketama_core::servers_file::{parse, FileProblem};
/// let servers = parse(b"# cache\n10.0.1.1:11211\t600\n10.0.1.1:11211\t300\n")?;
/// assert_eq!(servers, [(&b"10.0.1.1:11211"[..], 600), (&b"10.0.1.1:11211"[..], 300)]);
/// // The last line has no newline: libketama drops the `0` instead.
/// assert_eq!(parse(b"10.0.1.1:11211 100")?, [(&b"10.0.1.1:11211"[..], 10)]);
/// let e = parse(b"\n10.0.1.1:11211\n").unwrap_err();
/// assert_eq!((e.problem, e.line), (FileProblem::NoDelimiter, Some(2)));
/// assert_eq!(e.in_file("f").to_string(), "Unable to find delimiter (line 2 in f)");
/// # Ok::<(), ketama_core::servers_file::FileError>(())
/// ```
pub fn parse(data: &[u8]) -> Result<Vec<(&[u8], u32)>, FileError> {
    let mut servers = Vec::new();
    let mut rest = data;
    let mut line_no = 0u32;
    while !rest.is_empty() {
        let mut n = rest.len().min(LINE_MAX);
        if let Some(nl) = rest[..n].iter().position(|&b| b == b'\n') {
            n = nl + 1;
        }
        let (piece, after) = rest.split_at(n);
        rest = after;
        line_no = line_no.saturating_add(1);
        let line = &piece[..piece.iter().position(|&b| b == 0).unwrap_or(piece.len())];
        if line.len() < 2 || line[0] == b'#' {
            continue;
        }
        let server = server_line(line).map_err(|problem| FileError {
            problem,
            line: Some(line_no),
        })?;
        servers.push(server);
    }
    if servers.is_empty() {
        return Err(FileError::whole(FileProblem::NoServers));
    }
    Ok(servers)
}

/// libketama's continuum of parsed servers (core's [`RawContinuum`] with the `libketama`
/// profile: each line its own points); a refusal of core's becomes
/// [`FileProblem::Refused`].
pub fn continuum(servers: &[(&[u8], u32)]) -> Result<RawContinuum, FileError> {
    RawContinuum::build(&LIBKETAMA, servers)
        .map_err(|e| FileError::whole(FileProblem::Refused(e.error)))
}

/// The error for a path `stat` could not see (libketama's `ftok` failed).
pub fn missing() -> FileError {
    FileError::whole(FileProblem::Missing)
}

/// The error for a file that could not be opened or read (`errno`).
pub fn unreadable(errno: i32) -> FileError {
    FileError::whole(FileProblem::Unreadable(errno))
}

/// The error for a file that grew past [`MAX_FILE_BYTES`] while it was read.
pub fn grew_too_large() -> FileError {
    FileError::whole(FileProblem::TooLarge(None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec;

    fn read(s: &[u8]) -> Result<Vec<(String, u32)>, String> {
        parse(s)
            .map(|v| {
                v.into_iter()
                    .map(|(a, m)| (String::from_utf8_lossy(a).into_owned(), m))
                    .collect()
            })
            .map_err(|e| e.in_file("f").to_string())
    }

    fn one(a: &str, m: u32) -> Result<Vec<(String, u32)>, String> {
        Ok(vec![(a.to_string(), m)])
    }

    #[test]
    fn libketamas_quirks() {
        assert_eq!(read(b"a:1\t100\n"), one("a:1", 100));
        assert_eq!(read(b"a:1\t100"), one("a:1", 10));
        assert_eq!(read(b"a:1\t100 \n"), one("a:1", 10));
        assert_eq!(read(b"a:1\t100\r\n"), one("a:1", 100));
        assert_eq!(read(b"a:1 100 extra\n"), one("a:1", 10));
        assert_eq!(read(b"# c\n\n a:1 7x\n"), one("a:1", 7));
        assert_eq!(read(b"a:1 +100\n"), one("a:1", 100));
        assert_eq!(read(b"a:1 \r100\n"), one("a:1", 100));
        assert_eq!(
            read(b"a:1 100\0junk\nb 1\n").unwrap()[0],
            ("a:1".into(), 10)
        );
        assert_eq!(read(b"\xff\xfe:1 9\n").unwrap()[0].1, 9);
        // fgets pieces of 126 bytes: a long comment line continues as a second "line".
        let mut long = vec![b'#'];
        long.extend_from_slice(&[b' '; 125]);
        long.extend_from_slice(b"x 10\n");
        assert_eq!(read(&long), one("x", 10));
        let mut split = vec![b' '; 120];
        split.extend_from_slice(b"a:1 100\n");
        assert_eq!(
            read(&split).unwrap_err(),
            "Unable to find delimiter (line 2 in f)"
        );
    }

    #[test]
    fn refusals_name_the_line() {
        let err = |s: &[u8]| read(s).unwrap_err();
        assert_eq!(err(b"a:1\t5"), "Invalid memory value (line 1 in f)");
        assert_eq!(err(b"\na:1\t0\n"), "Invalid memory value (line 2 in f)");
        assert_eq!(err(b"a:1\t-5\n"), "Invalid memory value (line 1 in f)");
        assert_eq!(err(b"a:1 0x10\n"), "Invalid memory value (line 1 in f)");
        assert_eq!(
            err(b"a 99999999999999999999\n"),
            "Invalid memory value (line 1 in f)"
        );
        assert_eq!(
            err(b"a 4294967296\n"),
            "Memory value above 4294967295 (line 1 in f)"
        );
        assert_eq!(read(b"a 4294967295\n"), one("a", u32::MAX));
        assert_eq!(err(b"a:1\n"), "Unable to find delimiter (line 1 in f)");
        assert_eq!(
            err(b"a:1 100\n   "),
            "Unable to find delimiter (line 2 in f)"
        );
        assert_eq!(
            err(b"a:1 100\n \t\n"),
            "Unable to find delimiter (line 2 in f)"
        );
        assert_eq!(
            err(b"a:1 100\r\n\r\n"),
            "Unable to find delimiter (line 2 in f)"
        );
        assert_eq!(err(b"x\n"), "Unable to find delimiter (line 1 in f)");
        assert_eq!(err(b" # c\n"), "Invalid memory value (line 1 in f)");
        assert!(read(&[&[b'a'; 23][..], b" 10\n"].concat()).is_ok());
        assert_eq!(
            err(&[&[b'a'; 24][..], b" 10\n"].concat()),
            "Address longer than 23 characters (line 1 in f)"
        );
        assert_eq!(err(b""), "No valid server definitions in file f");
        assert_eq!(err(b"# only\n\n"), "No valid server definitions in file f");
    }

    #[test]
    fn file_rules_and_messages() {
        assert_eq!(check_file(FileKind::Regular, MAX_FILE_BYTES), Ok(()));
        let msg = |r: Result<(), FileError>| r.unwrap_err().in_file("p").to_string();
        assert_eq!(
            msg(check_file(FileKind::Regular, MAX_FILE_BYTES + 1)),
            "File p is larger than 67108864 bytes (67108865 bytes)"
        );
        assert_eq!(
            msg(check_file(FileKind::Directory, 0)),
            "Invalid filename specified: p is a directory"
        );
        assert_eq!(
            msg(check_file(FileKind::Fifo, 0)),
            "Invalid filename specified: p is a FIFO, not a regular file"
        );
        assert_eq!(
            msg(check_file(FileKind::Device, 0)),
            "Invalid filename specified: p is a device, not a regular file"
        );
        assert_eq!(
            missing().in_file("p").to_string(),
            "Invalid filename specified: p"
        );
        assert_eq!(
            unreadable(13).in_file("p").to_string(),
            "File p could not be read (os error 13)"
        );
        assert_eq!(
            grew_too_large().in_file("p").to_string(),
            "File p is larger than 67108864 bytes"
        );
        // 60,000 lines of memory 1: 160 points each, 9.6 million, over core's 2^23.
        let lines: Vec<Vec<u8>> = (0..60_000u32)
            .map(|i| alloc::format!("10.{}.{}.1:11211", i / 256, i % 256).into_bytes())
            .collect();
        let many: Vec<(&[u8], u32)> = lines.iter().map(|l| (l.as_slice(), 1)).collect();
        let e = continuum(&many).unwrap_err();
        assert_eq!(e.problem, FileProblem::Refused(Error::TooManyPoints));
        let text = e.in_file("p").to_string();
        assert_eq!(
            text,
            alloc::format!("File p is refused: {}", Error::TooManyPoints)
        );
    }
}
