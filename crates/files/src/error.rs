//! [`FileError`] and the words of what went wrong.

use std::fmt;
use std::io;
use std::path::Path;
use std::path::PathBuf;

/// Why a file cannot be read.
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, without the file's name ("no such file or directory", "it is a
    /// device, not a regular file").
    pub reason: String,
    /// One sentence naming the file (and what it was for) and what is wrong.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FileError {}

pub(crate) fn error(path: &Path, what: &str, why: impl fmt::Display) -> FileError {
    FileError {
        path: path.to_path_buf(),
        reason: why.to_string(),
        message: format!("{}: cannot read {what}: {why}", path.display()),
    }
}

/// An io error in lowercase, without the `(os error N)` tail.
pub(crate) fn io_text(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_lowercase(),
        None => s,
    }
}

/// What a file that is not a regular file is, in words.
pub(crate) fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}
