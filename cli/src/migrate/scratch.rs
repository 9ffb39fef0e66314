//! The tool's scratch files (listings waiting on disk): under the system's temporary folder,
//! always created afresh (never an existing file, nor a link someone planted there) and
//! readable by this user only, since they hold the fleet's keys.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Scratch names taken by this process, for unique names.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A fresh name in the temporary folder: `ketama-migrate-<pid>-<n>.<kind>`.
pub fn path(kind: &str) -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("ketama-migrate-{}-{n}.{kind}", std::process::id()))
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
pub fn create(path: &Path) -> io::Result<File> {
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
        let path = path("d");
        let mut b = DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        b.create(&path)?;
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
