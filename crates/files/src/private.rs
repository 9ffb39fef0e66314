//! The files the program keeps for itself beside a file the user named (a state file, the
//! fresh file that replaces it, its lock): in that file's folder, readable and writable by
//! this user only (0600), never reached through a symbolic link someone planted
//! (`O_NOFOLLOW`), never a FIFO or a device, and a new one only under a name nobody holds
//! (created exclusively: `O_CREAT | O_EXCL`).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use crate::error::{io_text, kind, FileError};

/// Names tried for a fresh file beside another before giving up.
const TRIES: u32 = 100;

/// `o` with the flags that keep a planted link from being followed and a FIFO from blocking
/// the open, creating files readable by this user only.
fn guarded(o: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    o
}

fn failed(path: &Path, doing: &str, what: &str, why: impl std::fmt::Display) -> FileError {
    FileError {
        path: path.to_path_buf(),
        reason: why.to_string(),
        message: format!("{}: cannot {doing} {what}: {why}", path.display()),
    }
}

/// What an open of `path` failing with `e` means, in words.
fn open_failed(path: &Path, doing: &str, what: &str, e: &io::Error) -> FileError {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        let why = "it is a symbolic link; give the path of the file itself";
        return FileError {
            path: path.to_path_buf(),
            reason: why.to_string(),
            message: format!(
                "{}: {what} is a symbolic link; give the path of the file itself",
                path.display()
            ),
        };
    }
    failed(path, doing, what, io_text(e))
}

/// Refuses what is not a regular file, and makes the file readable by this user only.
fn private_regular(f: &File, path: &Path, what: &str) -> Result<(), FileError> {
    let m = f
        .metadata()
        .map_err(|e| failed(path, "read", what, io_text(&e)))?;
    if !m.file_type().is_file() {
        let why = format!("it is {}, not a regular file", kind(m.file_type()));
        return Err(failed(path, "use", what, why));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if m.permissions().mode() & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| failed(path, "make private", what, io_text(&e)))?;
        }
    }
    Ok(())
}

/// Opens the existing file `path` for reading and appending (never through a symbolic link,
/// never a FIFO or a device; made readable by this user only); `None` when there is none.
pub fn open_private(path: &Path, what: &str) -> Result<Option<File>, FileError> {
    let f = match guarded(OpenOptions::new().read(true).append(true)).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(open_failed(path, "open", what, &e)),
    };
    private_regular(&f, path, what)?;
    Ok(Some(f))
}

/// Creates a fresh file beside `path`, in its folder (`<path>.tmp<pid>-<n>`: created
/// exclusively, so never an existing name nor a link planted there), readable by this user
/// only, open for reading and appending: its path and the file.
pub fn create_beside(path: &Path, what: &str) -> Result<(PathBuf, File), FileError> {
    let mut last = None;
    for n in 0..TRIES {
        let mut name = path.as_os_str().to_owned();
        name.push(format!(".tmp{}-{n}", std::process::id()));
        let p = PathBuf::from(name);
        let o = guarded(OpenOptions::new().read(true).append(true).create_new(true)).open(&p);
        match o {
            Ok(f) => return Ok((p, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(open_failed(&p, "create", what, &e)),
        }
    }
    let e = last.unwrap_or_else(|| io::Error::other("no name tried"));
    Err(failed(
        path,
        "create",
        &format!("{what} beside it"),
        io_text(&e),
    ))
}

/// Opens the lock file `path` for reading and writing: created exclusively when there is
/// none, else the one there (a lock a process that ended left), never through a symbolic
/// link, a regular file readable by this user only.
pub fn open_lock(path: &Path, what: &str) -> Result<File, FileError> {
    let f = match guarded(OpenOptions::new().read(true).write(true).create_new(true)).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            guarded(OpenOptions::new().read(true).write(true))
                .open(path)
                .map_err(|e| open_failed(path, "open", what, &e))?
        }
        Err(e) => return Err(open_failed(path, "create", what, &e)),
    };
    private_regular(&f, path, what)?;
    Ok(f)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "ketama-files-private-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn fresh_files_and_locks_are_private_and_never_follow_a_planted_link() {
        let d = dir("fresh");
        let path = d.join("s");
        let target = d.join("target");
        std::fs::write(&target, "precious").unwrap();
        let planted = format!("{}.tmp{}-0", path.display(), std::process::id());
        std::os::unix::fs::symlink(&target, &planted).unwrap();
        let (p, mut f) = create_beside(&path, "a fresh state file").unwrap();
        assert!(p.to_string_lossy().ends_with("-1"), "{}", p.display());
        assert_eq!(p.parent(), path.parent());
        f.write_all(b"x").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        assert_eq!(mode(&p), 0o600);
        // A lock: created 0600, then opened again as it is; a link there is refused.
        let lock = d.join("s.lock");
        drop(open_lock(&lock, "its lock").unwrap());
        assert_eq!(mode(&lock), 0o600);
        drop(open_lock(&lock, "its lock").unwrap());
        let link_lock = d.join("t.lock");
        std::os::unix::fs::symlink(&target, &link_lock).unwrap();
        let e = open_lock(&link_lock, "its lock").unwrap_err();
        assert!(e.message.contains("symbolic link"), "{e}");
        // An existing file is made private; a link or a FIFO is refused; none is no file.
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(open_private(&p, "the state file").unwrap().is_some());
        assert_eq!(mode(&p), 0o600);
        let e = open_private(Path::new(&planted), "the state file").unwrap_err();
        assert!(e.message.contains("symbolic link"), "{e}");
        assert!(open_private(&d.join("none"), "the state file")
            .unwrap()
            .is_none());
        let fifo = d.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let e = open_private(&fifo, "the state file").unwrap_err();
        assert!(e.message.contains("a FIFO"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
