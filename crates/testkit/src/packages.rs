//! Debian packages a fixture needs, installed through the repository's one helper
//! (tests/lib/need.sh) when their command is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Installs the Debian package `pkg` for command `cmd` when the command is missing.
pub fn need(cmd: &str, pkg: &str) {
    let have = |c: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {c}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if have(cmd) {
        return;
    }
    let need = root().join("tests/lib/need.sh");
    let _ = Command::new("bash")
        .args([
            "-c",
            &format!("source '{}' && need_packages {pkg}", need.display()),
        ])
        .status();
}
