//! The tool's scratch files (listings waiting on disk): under the system's temporary folder,
//! always created afresh (never an existing file, nor a link someone planted there) and
//! readable by this user only, since they hold the fleet's keys.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Scratch names taken by this process, for unique names.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// Names tried before giving up (a name an earlier process of the same id left is skipped).
const TRIES: usize = 100;

/// A name in the temporary folder not used by this process yet:
/// `ketama-scratch-<pid>-<n>.<kind>`.
fn path(kind: &str) -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("ketama-scratch-{}-{n}.{kind}", std::process::id()))
}

/// `make` on the first fresh name it can create (it fails with `AlreadyExists` on a taken
/// one): that name and what `make` gave.
fn fresh<T>(kind: &str, make: impl Fn(&Path) -> io::Result<T>) -> io::Result<(PathBuf, T)> {
    let mut taken = None;
    for _ in 0..TRIES {
        let p = path(kind);
        match make(&p) {
            Ok(t) => return Ok((p, t)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => taken = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(taken.unwrap_or_else(|| io::Error::other("no scratch name tried")))
}

/// Creates a fresh file in the temporary folder (`kind` ends its name), for writing by this
/// user only: its path and the file.
pub fn create_fresh(kind: &str) -> io::Result<(PathBuf, File)> {
    fresh(kind, create)
}

/// `o`, making files readable by this user only.
fn private(o: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o
}

/// Creates `path`, which must not exist yet, for writing by this user only.
fn create(path: &Path) -> io::Result<File> {
    private(OpenOptions::new().write(true).create_new(true)).open(path)
}

/// Opens `path`, a file in a scratch [`Dir`], for appending, creating it (readable by this
/// user only) when missing.
pub fn append(path: &Path) -> io::Result<File> {
    private(OpenOptions::new().append(true).create(true)).open(path)
}

/// A scratch folder only this user may enter, removed with its contents when dropped.
#[derive(Debug)]
pub struct Dir {
    path: PathBuf,
}

impl Dir {
    /// Creates a fresh folder.
    pub fn new() -> io::Result<Dir> {
        let mut b = DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        let (path, ()) = fresh("d", |p| b.create(p))?;
        Ok(Dir { path })
    }

    /// The path of `name` in the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(p: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn files_are_private_and_never_reused() {
        let p = path("test");
        let f = create(&p).unwrap();
        drop(f);
        #[cfg(unix)]
        assert_eq!(mode(&p), 0o600);
        assert_eq!(create(&p).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        std::fs::remove_file(&p).unwrap();
    }

    #[test]
    fn a_folder_is_private_and_goes_with_its_contents() {
        let d = Dir::new().unwrap();
        let inner = d.join("x");
        drop(create(&inner).unwrap());
        drop(append(&d.join("y")).unwrap());
        #[cfg(unix)]
        assert_eq!(mode(&d.join("y")), 0o600);
        let top = d.path.clone();
        #[cfg(unix)]
        assert_eq!(mode(&top), 0o700);
        drop(d);
        assert!(!top.exists());
    }
}
