//! Reading the files a user names (servers files, key files, TLS certificates and keys, vector
//! files, state files): only regular files, and never more than a bound, so a FIFO, a device
//! (`/dev/zero`) or a huge file given by mistake is refused with its name instead of blocking
//! the program or filling its memory.
//!
//! - [`open_regular`]: opened without waiting (`O_NONBLOCK`: a FIFO without a writer would
//!   block `open` itself, where no Ctrl-C handler runs yet), then checked on the open file
//!   (`fstat`, so a path swapped after the check cannot slip a FIFO in);
//! - [`read_regular`]: all of a regular file, at most a bound;
//! - [`Lines`]: a stream (a file or standard input) read line by line, each line and the
//!   whole within bounds;
//! - [`open_private`], [`create_beside`], [`open_lock`]: the files the program keeps for
//!   itself beside one the user named (a state file, its replacement, its lock): created
//!   exclusively in that file's folder, 0600, never through a symbolic link ([`private`]).
#![deny(missing_docs)]

mod error;
pub mod private;

use std::fs::File;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

pub use error::FileError;
use error::{error, io_text, kind};
pub use private::{create_beside, open_lock, open_private};

/// Opens `path` for reading if it is a regular file (`what` names it in messages: "servers
/// file", "TLS CA file"). The open does not wait (a FIFO without a writer is refused at
/// once), and the check is made on the open file.
pub fn open_regular(path: &Path, what: &str) -> Result<File, FileError> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path).map_err(|e| error(path, what, io_text(&e)))?;
    let m = f.metadata().map_err(|e| error(path, what, io_text(&e)))?;
    if !m.file_type().is_file() {
        return Err(error(
            path,
            what,
            format!("it is {}, not a regular file", kind(m.file_type())),
        ));
    }
    // O_NONBLOCK does not change reads of a regular file.
    Ok(f)
}

/// All of the regular file `path`, refused when it has more than `max` bytes (checked
/// before reading, and while reading: a file may grow).
pub fn read_regular(path: &Path, what: &str, max: u64) -> Result<Vec<u8>, FileError> {
    let f = open_regular(path, what)?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let over = || error(path, what, format!("it is larger than {max} bytes"));
    if len > max {
        return Err(over());
    }
    let mut data = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    f.take(max.saturating_add(1))
        .read_to_end(&mut data)
        .map_err(|e| error(path, what, io_text(&e)))?;
    if data.len() as u64 > max {
        return Err(over());
    }
    Ok(data)
}

/// A stream read line by line (`\n` separated, one trailing `\r` dropped), each line at most
/// `max_line` bytes and the stream at most `max_total`; what passes either is an error naming
/// the stream and the line.
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    name: PathBuf,
    what: String,
    max_line: usize,
    max_total: u64,
    total: u64,
    line: u64,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`, called `name` (a path, or `-` for standard input) and `what` in
    /// messages.
    pub fn new(reader: R, name: &Path, what: &str, max_line: usize, max_total: u64) -> Lines<R> {
        Lines {
            reader,
            name: name.to_path_buf(),
            what: what.to_string(),
            max_line,
            max_total,
            total: 0,
            line: 0,
        }
    }

    /// The next line into `buf` (cleared first); `false` at the end.
    pub fn next_into(&mut self, buf: &mut Vec<u8>) -> Result<bool, FileError> {
        buf.clear();
        self.line += 1;
        let limit = self.max_line as u64 + 2;
        let n = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', buf)
            .map_err(|e| error(&self.name, &self.what, io_text(&e)))?;
        if n == 0 {
            return Ok(false);
        }
        self.total += n as u64;
        if self.total > self.max_total {
            return Err(error(
                &self.name,
                &self.what,
                format!("it is longer than {} bytes", self.max_total),
            ));
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if buf.len() > self.max_line {
            return Err(error(
                &self.name,
                &self.what,
                format!("line {} is longer than {} bytes", self.line, self.max_line),
            ));
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_and_a_device_are_refused_at_once() {
        let dir = std::env::temp_dir().join(format!("ketama-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = open_regular(&fifo, "state file").unwrap_err();
        assert!(e.message.contains("a FIFO"), "{e}");
        let e = read_regular(Path::new("/dev/zero"), "servers file", 1 << 20).unwrap_err();
        assert!(e.message.contains("a device"), "{e}");
        let e = open_regular(&dir, "keys file").unwrap_err();
        assert!(e.message.contains("a directory"), "{e}");
        let f = dir.join("f");
        std::fs::write(&f, b"abc").unwrap();
        assert_eq!(read_regular(&f, "x", 3).unwrap(), b"abc");
        assert!(read_regular(&f, "x", 2)
            .unwrap_err()
            .message
            .contains("larger than 2"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lines_are_bounded() {
        let text = b"a\r\nbb\nccc";
        let mut l = Lines::new(&text[..], Path::new("-"), "keys", 3, 100);
        let mut buf = Vec::new();
        let mut got = Vec::new();
        while l.next_into(&mut buf).unwrap() {
            got.push(buf.clone());
        }
        assert_eq!(got, [b"a".to_vec(), b"bb".to_vec(), b"ccc".to_vec()]);
        let mut l = Lines::new(&b"ok\ntoo long\n"[..], Path::new("-"), "keys", 3, 100);
        assert!(l.next_into(&mut buf).unwrap());
        let e = l.next_into(&mut buf).unwrap_err();
        assert!(e.message.contains("line 2 is longer than 3 bytes"), "{e}");
        let zeros = std::io::repeat(0).take(1 << 20);
        let mut l = Lines::new(
            std::io::BufReader::new(zeros),
            Path::new("-"),
            "keys",
            1 << 30,
            1000,
        );
        assert!(l
            .next_into(&mut buf)
            .unwrap_err()
            .message
            .contains("longer than 1000 bytes"));
    }
}
