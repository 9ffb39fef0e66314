//! Writes the shell completions and man pages of `ketama`, generated from its clap
//! definitions (so every subcommand and option appears as soon as it is declared):
//!
//! ```sh
//! cargo run -p ketama-cli --example gen-assets -- OUTDIR
//! ```
//!
//! OUTDIR/completions/: `ketama.bash`, `_ketama` (zsh), `ketama.fish`;
//! OUTDIR/man/: `ketama.1` and one `ketama-<subcommand>.1` per subcommand.
//! `make -C ffi-c install` and `make -C ffi-c deb` install them.

use std::path::{Path, PathBuf};

use clap_complete::Shell;

/// The shells completions are written for, with their file names.
pub const SHELLS: [(Shell, &str); 3] = [
    (Shell::Bash, "ketama.bash"),
    (Shell::Zsh, "_ketama"),
    (Shell::Fish, "ketama.fish"),
];

/// The completion script for `shell`.
pub fn completion(shell: Shell) -> Vec<u8> {
    let mut cmd = ketama_cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "ketama", &mut out);
    out
}

/// Writes completions and man pages under `out`; returns the files written.
pub fn write_all(out: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let comp = out.join("completions");
    std::fs::create_dir_all(&comp)?;
    for (shell, name) in SHELLS {
        let path = comp.join(name);
        std::fs::write(&path, completion(shell))?;
        written.push(path);
    }
    let man = out.join("man");
    std::fs::create_dir_all(&man)?;
    let mut cmd = ketama_cli::command();
    cmd.build();
    written.push(write_man(&cmd, &man, "ketama")?);
    for sub in cmd.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        // After build(), clap names a subcommand `ketama-<sub>` (display name) and shows its
        // usage as `ketama <sub>` (bin name), as the pages should.
        let name = format!("ketama-{}", sub.get_name());
        let page = sub.clone().version(ketama_cli::version::LINE);
        written.push(write_man(&page, &man, &name)?);
    }
    Ok(written)
}

fn write_man(cmd: &clap::Command, dir: &Path, name: &str) -> std::io::Result<PathBuf> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .title(name.to_ascii_uppercase())
        .section("1")
        .source(format!("ketama {}", ketama_cli::version::CLI))
        .manual("ketama manual")
        .render(&mut buf)?;
    let path = dir.join(format!("{name}.1"));
    std::fs::write(&path, buf)?;
    Ok(path)
}

#[allow(dead_code)] // the tests include this file as a module and call write_all themselves
fn main() {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: gen-assets OUTDIR");
        std::process::exit(2);
    };
    match write_all(Path::new(&out)) {
        Ok(files) => {
            for f in files {
                println!("{}", f.display());
            }
        }
        Err(e) => {
            eprintln!("gen-assets: {e}");
            std::process::exit(1);
        }
    }
}
