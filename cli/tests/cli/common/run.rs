//! What the `cli_*` tests share: running the binary, expecting success or a one-line failure,
//! scratch directories.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use crate::common::ketama_stdin;

/// Runs `ketama args` without standard input.
pub fn ketama(args: &[&str]) -> Output {
    ketama_stdin(args, None)
}

/// Runs and expects success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    crate::common::stdout_of(args, ketama(args))
}

/// Runs and expects success; returns stdout parsed as JSON.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

/// Runs and expects exit 2 with one line on stderr containing every `needle`.
pub fn fails(args: &[&str], needles: &[&str]) {
    let out = ketama(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?} should exit 2; stderr: {err}"
    );
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one-line message expected, got: {err}"
    );
    assert!(err.starts_with("ketama: "), "{err}");
    for n in needles {
        assert!(
            err.contains(n),
            "{args:?}: message {err:?} should mention {n:?}"
        );
    }
    assert!(
        out.stdout.is_empty(),
        "{args:?}: nothing on stdout on failure"
    );
}

/// A scratch directory, removed when dropped.
pub struct Dir(pub PathBuf);

impl Dir {
    /// A fresh directory for the test `name`.
    pub fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("ketama-cli-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
    /// Writes `text` to the file `name` in it; returns its path.
    pub fn file(&self, name: &str, text: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// libketama's own servers file format: `ip:port<TAB>memory`.
pub const LIBKETAMA_SERVERS: &[u8] = b"# libketama ketama.servers\n10.0.1.1:11211\t600\n10.0.1.2:11211\t300\n10.0.1.3:11211\t200\n\n";
