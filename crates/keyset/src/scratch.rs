//! The tool's scratch files (listings waiting on disk): under the system's temporary folder,
//! always created afresh (never an existing file, nor a link someone planted there) and
//! readable by this user only, since they hold the fleet's keys.
//!
//! A name says whose it is: `ketama-scratch-<ns>-<pid>-<start>-<n>.<kind>` (the process's
//! PID namespace, PID and start time, from `/proc`). A process killed before it could
//! remove its files (`kill -9`) leaves them behind: the first scratch file a later process
//! makes first removes those of this user whose owner, in the same PID namespace, is gone
//! (no process of that PID, or one started at another time). Files of another namespace
//! (another container sharing the folder) are never touched. Where `/proc` is missing no
//! name carries an owner and nothing is removed.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

/// Scratch names taken by this process, for unique names.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// The sweep of dead processes' files, once per process.
static SWEEP: Once = Once::new();

/// Names tried before giving up (a name an earlier process of the same id left is skipped).
const TRIES: usize = 100;

/// What every scratch name starts with.
const PREFIX: &str = "ketama-scratch-";

/// A process as scratch names carry it: PID namespace, PID, start time (clock ticks since
/// boot); `None` where `/proc` does not tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Owner {
    ns: u64,
    pid: u32,
    start: u64,
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`).
fn started(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: fields after the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// The PID namespace of process `pid` (the inode of `/proc/<pid>/ns/pid`).
fn namespace(pid: &str) -> Option<u64> {
    let link = std::fs::read_link(format!("/proc/{pid}/ns/pid")).ok()?;
    let text = link.to_str()?;
    text.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
}

/// This process.
fn me() -> Option<Owner> {
    Some(Owner {
        ns: namespace("self")?,
        pid: std::process::id(),
        start: started("self")?,
    })
}

/// The owner a scratch name carries.
fn owner_of(name: &str) -> Option<Owner> {
    let mut f = name.strip_prefix(PREFIX)?.split('-');
    Some(Owner {
        ns: f.next()?.parse().ok()?,
        pid: f.next()?.parse().ok()?,
        start: f.next()?.parse().ok()?,
    })
}

/// Whether `o` (of this namespace) is gone: no process of its PID started at its time.
fn gone(o: Owner) -> bool {
    started(&o.pid.to_string()) != Some(o.start)
}

/// Removes the scratch files and folders in `dir` of this user whose owner, in this PID
/// namespace, is gone.
fn sweep(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (Some(me), Ok(self_meta)) = (me(), std::fs::metadata("/proc/self")) else {
            return;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(o) = name.to_str().and_then(owner_of) else {
                continue;
            };
            let Ok(m) = e.path().symlink_metadata() else {
                continue;
            };
            if o.ns != me.ns || o == me || m.uid() != self_meta.uid() || !gone(o) {
                continue;
            }
            let _ = if m.is_dir() {
                std::fs::remove_dir_all(e.path())
            } else {
                std::fs::remove_file(e.path())
            };
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// A name in the temporary folder not used by this process yet:
/// `ketama-scratch-<ns>-<pid>-<start>-<n>.<kind>` (`0-<pid>-0` where `/proc` does not tell).
/// The first call removes what dead processes left there.
fn path(kind: &str) -> PathBuf {
    let dir = std::env::temp_dir();
    SWEEP.call_once(|| sweep(&dir));
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let o = me().unwrap_or(Owner {
        ns: 0,
        pid: std::process::id(),
        start: 0,
    });
    dir.join(format!("{PREFIX}{}-{}-{}-{n}.{kind}", o.ns, o.pid, o.start))
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

/// Creates a fresh file in the temporary folder, for reading and writing by this user only,
/// and removes its name at once: the file lives until its last handle is closed, and no
/// end of the process leaves it behind.
pub fn anonymous(kind: &str) -> io::Result<File> {
    let (path, f) = fresh(kind, |p| {
        private(OpenOptions::new().read(true).write(true).create_new(true)).open(p)
    })?;
    std::fs::remove_file(&path)?;
    Ok(f)
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
    fn an_anonymous_file_has_no_name() {
        use std::io::{Read, Seek, Write};
        let mut f = anonymous("test").unwrap();
        f.write_all(b"keys").unwrap();
        f.rewind().unwrap();
        let mut back = String::new();
        f.read_to_string(&mut back).unwrap();
        assert_eq!(back, "keys");
        let mine = format!("-{}-", std::process::id());
        let named = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with(PREFIX) && n.contains(&mine) && n.ends_with(".test")
            });
        assert!(!named);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_files_of_a_dead_process_are_swept_and_others_kept() {
        let me = me().unwrap();
        let dir = std::env::temp_dir().join(format!("ketama-sweep-unit-{}", me.pid));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A process that has exited: its PID is free (or taken by a later process, started
        // at another time).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead_pid = child.id();
        child.wait().unwrap();
        let dead = dir.join(format!("{PREFIX}{}-{dead_pid}-1-0.spool", me.ns));
        let dead_dir = dir.join(format!("{PREFIX}{}-{dead_pid}-1-1.d", me.ns));
        let alive = dir.join(format!("{PREFIX}{}-{}-{}-0.spool", me.ns, me.pid, me.start));
        let other_ns = dir.join(format!("{PREFIX}{}-{dead_pid}-1-2.spool", me.ns + 1));
        let unrelated = dir.join("notes.txt");
        for f in [&dead, &alive, &other_ns, &unrelated] {
            std::fs::write(f, "k").unwrap();
        }
        std::fs::create_dir(&dead_dir).unwrap();
        std::fs::write(dead_dir.join("0.known"), "k").unwrap();
        sweep(&dir);
        assert!(!dead.exists() && !dead_dir.exists());
        assert!(alive.exists() && other_ns.exists() && unrelated.exists());
        std::fs::remove_dir_all(&dir).unwrap();
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
