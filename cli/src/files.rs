//! Every file the command reads, through `ketama-files`: regular files only (a FIFO or a
//! device such as `/dev/zero` is refused by name, at once), each within its bound. Standard
//! input stays allowed where a command reads keys from it, bounded per line and in all.

use std::path::Path;

use ketama_files::{FileError, Lines};

use crate::shared::Fail;

/// The largest servers file (a fleet of a million servers is about 30 MB... of no client).
pub(crate) const SERVERS_FILE: u64 = 16 << 20;
/// The largest keys file or keys read from standard input in all (they are held in memory).
pub(crate) const KEYS: u64 = 1 << 30;
/// The longest key line.
pub(crate) const KEY_LINE: usize = 1 << 20;
/// The largest vector file `ketama conformance` reads.
pub(crate) const VECTOR_FILE: u64 = 256 << 20;
/// The largest password file (its first line is the password).
pub(crate) const PASSWORD_FILE: u64 = 64 << 10;
/// The largest text `simulate --text` counts the words of.
pub(crate) const TEXT: u64 = 1 << 30;

fn fail(e: FileError) -> Fail {
    Fail::new(e.message)
}

/// All of the regular file `path` (`what` names it in messages), at most `max` bytes.
pub(crate) fn read(path: &Path, what: &str, max: u64) -> Result<Vec<u8>, Fail> {
    ketama_files::read_regular(path, what, max).map_err(fail)
}

/// The regular file `path`, open for reading.
pub(crate) fn open(path: &Path, what: &str) -> Result<std::fs::File, Fail> {
    ketama_files::open_regular(path, what).map_err(fail)
}

/// Key lines of `reader` (`name`: its path, or `-`), each at most [`KEY_LINE`] bytes and at
/// most `total` bytes in all.
pub(crate) fn key_lines<R: std::io::BufRead>(reader: R, name: &str, total: u64) -> Lines<R> {
    Lines::new(reader, Path::new(name), "keys", KEY_LINE, total)
}

/// The next line of `lines` into `buf`, as a command's failure.
pub(crate) fn next_line<R: std::io::BufRead>(
    lines: &mut Lines<R>,
    buf: &mut Vec<u8>,
) -> Result<bool, Fail> {
    lines.next_into(buf).map_err(fail)
}
