//! The installable pieces of the CLI: shell completions and man pages generated
//! from the clap definitions, the version line, and progress bars that stay off pipes.

use std::path::PathBuf;
use std::process::{Command, Stdio};

#[path = "../../examples/gen-assets.rs"]
#[allow(dead_code)]
mod gen_assets;

fn out_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every visible subcommand, from the clap definition itself (new ones are covered too).
fn subcommands() -> Vec<String> {
    ketama_cli::command()
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_string())
        .collect()
}

#[test]
fn completions_name_every_subcommand_and_option() {
    let subs = subcommands();
    assert!(subs.len() >= 8, "{subs:?}");
    for (shell, _) in gen_assets::SHELLS {
        let text = String::from_utf8(gen_assets::completion(shell)).unwrap();
        for s in &subs {
            assert!(text.contains(s.as_str()), "{shell:?} completion lacks {s}");
        }
        for opt in ["--profile", "--servers", "--format"] {
            assert!(
                text.contains(opt.trim_start_matches('-')),
                "{shell:?} lacks {opt}"
            );
        }
    }
}

#[test]
fn completions_are_valid_shell() {
    let dir = out_dir("assets-syntax");
    gen_assets::write_all(&dir).unwrap();
    for (sh, file) in [
        ("bash", "ketama.bash"),
        ("zsh", "_ketama"),
        ("fish", "ketama.fish"),
    ] {
        let path = dir.join("completions").join(file);
        let args: Vec<&str> = match sh {
            "fish" => vec!["--no-execute"],
            _ => vec!["-n"],
        };
        match Command::new(sh).args(&args).arg(&path).output() {
            Ok(o) => assert!(
                o.status.success(),
                "{sh} -n {}: {}",
                path.display(),
                String::from_utf8_lossy(&o.stderr)
            ),
            // The shell is not installed: its syntax cannot be checked here (bash always is).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && sh != "bash" => {
                eprintln!("{sh} not installed: syntax of {file} not checked")
            }
            Err(e) => panic!("{sh}: {e}"),
        }
    }
}

#[test]
fn bash_completion_completes_subcommands() {
    let dir = out_dir("assets-bash");
    gen_assets::write_all(&dir).unwrap();
    let script = format!(
        "source '{}'; COMP_WORDS=(ketama si); COMP_CWORD=1; COMP_LINE='ketama si'; COMP_POINT=9; \
         _ketama ketama si ketama; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        dir.join("completions/ketama.bash").display()
    );
    let o = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines().any(|l| l == "simulate"),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn man_pages_for_the_command_and_each_subcommand() {
    let dir = out_dir("assets-man");
    let files = gen_assets::write_all(&dir).unwrap();
    let main = std::fs::read_to_string(dir.join("man/ketama.1")).unwrap();
    assert!(
        main.starts_with(".ie") || main.contains(".TH KETAMA 1"),
        "{}",
        &main[..200]
    );
    assert!(main.contains(".TH KETAMA 1"));
    for s in subcommands() {
        assert!(
            main.contains(&format!("ketama\\-{s}")) || main.contains(&s),
            "ketama.1 lacks {s}"
        );
        let page = dir.join(format!("man/ketama-{s}.1"));
        assert!(files.contains(&page), "no man page for {s}");
        let text = std::fs::read_to_string(&page).unwrap();
        assert!(
            text.contains(&format!(".TH KETAMA-{} 1", s.to_ascii_uppercase())),
            "{s}"
        );
    }
    // man(1) renders it without warnings when groff is installed.
    if let Ok(o) = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .arg(dir.join("man/ketama.1"))
        .output()
    {
        assert!(
            o.status.success() && o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn version_names_cli_and_core() {
    let o = Command::new(env!("CARGO_BIN_EXE_ketama"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(o.status.success());
    let line = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        line.trim_end(),
        format!(
            "ketama {} (ketama-core {})",
            env!("CARGO_PKG_VERSION"),
            ketama_core::VERSION
        )
    );
}

#[test]
fn no_progress_output_when_stderr_is_not_a_terminal() {
    // A keys file big enough that simulate takes over a second in a debug build.
    let dir = out_dir("progress-keys");
    std::fs::create_dir_all(&dir).unwrap();
    let keys: String = (0..300_000).map(|i| format!("key:{i}\n")).collect();
    let path = dir.join("keys.txt");
    std::fs::write(&path, keys).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ketama"))
        .args([
            "simulate",
            "--hash",
            "KETAMA_HASH,FNV1_32_HASH",
            "--format",
            "json",
            "--keys",
        ])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "stderr: {:?}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["keys"], 300_000);
}
