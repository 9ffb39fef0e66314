//! The files of a state: the lock that keeps one run per state file, the state file itself
//! and the fresh files that replace it, each opened or created through `ketama-files`
//! (in the state file's folder, created exclusively, 0600, never through a link).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::StateError;

fn state_error(e: ketama_files::FileError) -> StateError {
    StateError(e.message)
}

/// Opens the state file at `path` for reading and appending (never through a symbolic
/// link, never a FIFO or a device; made readable by this user only); `None` when there is
/// none.
pub fn open_state(path: &str) -> Result<Option<File>, StateError> {
    ketama_files::open_private(Path::new(path), "the state file").map_err(state_error)
}

/// Creates a fresh file beside the state file, in its folder (`<path>.tmp<pid>-<n>`,
/// created exclusively: never an existing name, nor a link someone planted there), readable
/// by this user only, open for reading and appending: its path and the file.
pub fn create_beside(path: &str) -> Result<(PathBuf, File), StateError> {
    ketama_files::create_beside(Path::new(path), "a file").map_err(state_error)
}

/// Makes `tmp` (written and synced) the state file at `path`, durably.
pub fn replace(tmp: &Path, path: &str) -> Result<(), StateError> {
    std::fs::rename(tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(tmp);
        StateError(format!("{path}: cannot replace the state file: {e}"))
    })?;
    let dir = match Path::new(path).parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // The rename itself reaches the disk with the folder (best effort: not every file
    // system lets a folder be synced).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The lock of a state file: held while a run uses it, by one process at a time.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    #[cfg(unix)]
    _held: nix::fcntl::Flock<File>,
}

/// The lock file of the state file at `path`.
pub fn lock_path(path: &str) -> PathBuf {
    PathBuf::from(format!("{path}.lock"))
}

impl Lock {
    /// Takes the lock of the state file at `path` (`<path>.lock`, which holds the PID of
    /// the process that has it); refused, naming that process, while another holds it.
    #[cfg(unix)]
    pub fn take(path: &str) -> Result<Lock, StateError> {
        use nix::fcntl::{Flock, FlockArg};
        use std::os::unix::fs::MetadataExt;
        let lp = lock_path(path);
        loop {
            let f = ketama_files::open_lock(&lp, "the state file's lock").map_err(state_error)?;
            let mut held = match Flock::lock(f, FlockArg::LockExclusiveNonblock) {
                Ok(h) => h,
                Err((mut f, _)) => {
                    let mut text = String::new();
                    let _ = (&mut f).take(64).read_to_string(&mut text);
                    let who = match text.trim().parse::<u32>() {
                        Ok(pid) => format!("process {pid}"),
                        Err(_) => "another process".to_string(),
                    };
                    return Err(StateError(format!(
                        "{path}: in use by {who} (it holds {}); one run at a time per state \
                         file: give each process its own --state",
                        lp.display()
                    )));
                }
            };
            // The lock file may have been removed (by the run that held it, ending) between
            // the open and the lock: then the lock is on a file nobody else sees.
            let same = match (std::fs::symlink_metadata(&lp), held.metadata()) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            };
            if !same {
                continue;
            }
            let f: &mut File = &mut held;
            f.set_len(0)
                .and_then(|()| f.seek(SeekFrom::Start(0)))
                .and_then(|_| writeln!(f, "{}", std::process::id()))
                .map_err(|e| StateError(format!("{path}: cannot write {}: {e}", lp.display())))?;
            return Ok(Lock {
                path: lp,
                _held: held,
            });
        }
    }

    /// Without `flock`, the lock file is created exclusively and removed at the end.
    #[cfg(not(unix))]
    pub fn take(path: &str) -> Result<Lock, StateError> {
        let lp = lock_path(path);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lp)
        {
            Ok(mut f) => {
                let _ = writeln!(f, "{}", std::process::id());
                Ok(Lock { path: lp })
            }
            Err(e) => Err(StateError(format!(
                "{path}: in use by another process, or left by one that ended ({}: {e}); \
                 remove it if no run uses this state file",
                lp.display()
            ))),
        }
    }
}

impl Drop for Lock {
    /// Removes the lock file, then releases the lock.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("ketama-state-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[cfg(unix)]
    #[test]
    fn fresh_files_are_private_and_never_follow_a_planted_link() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("fresh");
        let path = d.join("s").to_string_lossy().into_owned();
        let target = d.join("target");
        std::fs::write(&target, "precious").unwrap();
        std::os::unix::fs::symlink(&target, format!("{path}.tmp{}-0", std::process::id())).unwrap();
        let (p, mut f) = create_beside(&path).unwrap();
        assert!(p.to_string_lossy().ends_with("-1"), "{}", p.display());
        f.write_all(b"x").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        replace(&p, &path).unwrap();
        assert!(open_state(&path).unwrap().is_some());
        let link = d.join("link").to_string_lossy().into_owned();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = open_state(&link).unwrap_err().0;
        assert!(e.contains("symbolic link"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn one_lock_at_a_time_and_the_refusal_names_the_holder() {
        let d = dir("lock");
        let path = d.join("s").to_string_lossy().into_owned();
        let held = Lock::take(&path).unwrap();
        let e = Lock::take(&path).unwrap_err().0;
        assert!(
            e.contains(&format!("process {}", std::process::id())),
            "{e}"
        );
        drop(held);
        assert!(!lock_path(&path).exists());
        drop(Lock::take(&path).unwrap());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
