//! Runs the real `ketama` binary: the clap definition, help and version, the profile and
//! hash lists, usage errors (exit 2, one line), garbage input, file names, terminal safety.

use crate::common;
use common::ketama_stdin;
use common::run::*;

#[test]
fn clap_definition_is_consistent() {
    ketama_cli::command().debug_assert();
}

#[test]
fn help_and_version_exit_zero() {
    assert!(ok(&["--help"]).contains("simulate"));
    assert!(ok(&["--version"]).contains(ketama_core::VERSION));
    assert!(ok(&["simulate", "--help"]).contains("--nodes"));
    // No command at all is bad usage.
    fails(&[], &["missing command"]);
    fails(&["simulate", "--add", "18446744073709551615"], &["--add"]);
}

#[test]
fn profiles_in_every_format() {
    let table = ok(&["profiles"]);
    for p in ketama_core::Profile::all() {
        assert!(table.contains(p.name), "{}", p.name);
    }
    assert!(table.lines().next().unwrap().starts_with("profile"));
    let v = json(&["profiles", "--format", "json"]);
    assert_eq!(
        v.as_array().unwrap().len(),
        ketama_core::Profile::all().len()
    );
    let pm = v
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "libmemcached-weighted")
        .unwrap();
    assert!(pm["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "php-memcached"));
    let csv = ok(&["--format", "csv", "profiles"]);
    assert_eq!(
        csv.lines().next(),
        Some("profile,aliases,default hash,description")
    );
    assert_eq!(csv.lines().count(), ketama_core::Profile::all().len() + 1);
}

#[test]
fn hashes_in_every_format() {
    let table = ok(&["hashes"]);
    assert!(
        table.contains("one_at_a_time")
            && table.contains("KETAMA_HASH")
            && table.contains("crc32a")
    );
    let v = json(&["hashes", "-f", "json"]);
    let n = ketama_core::Hash::all().count();
    assert_eq!(v.as_array().unwrap().len(), n);
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["description"].as_str().is_some_and(|d| !d.is_empty())));
    let csv = ok(&["hashes", "-f", "csv"]);
    assert_eq!(csv.lines().count(), n + 1);
    assert!(csv.starts_with("hash,aliases,description\n"));
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let d = Dir::new("usage");
    let servers = d.file("s", LIBKETAMA_SERVERS);
    fails(
        &["lookup", "-p", "nope", "-s", &servers, "k"],
        &["unknown profile 'nope'"],
    );
    fails(
        &[
            "lookup",
            "-p",
            "libketama",
            "-H",
            "nope",
            "-s",
            &servers,
            "k",
        ],
        &["unknown hash 'nope'"],
    );
    fails(
        &[
            "lookup",
            "-p",
            "libketama",
            "-H",
            "crc32",
            "-s",
            &servers,
            "k",
        ],
        &["crc32", "'crc'", "'crc32a'"],
    );
    fails(&["lookup", "-p", "libketama"], &["--servers"]);
    fails(&["frobnicate"], &["frobnicate"]);
    fails(&["profiles", "--format", "xml"], &["xml"]);
    fails(&["simulate", "--nodes", "0"], &["--nodes"]);
    fails(&["simulate", "--nodes", "many"], &["many"]);
    fails(&["simulate", "--remove", "11"], &["--remove"]);
    fails(&["simulate", "--add", "0"], &["nothing changes"]);
    fails(
        &["simulate", "--hash", "KETAMA_HASH,bogus"],
        &["unknown hash 'bogus'"],
    );
    fails(
        &["simulate", "--text", "/nonexistent/text"],
        &["/nonexistent/text"],
    );
    fails(
        &[
            "diff",
            "-p",
            "libketama",
            "-s",
            &servers,
            "--to",
            "/nonexistent/new",
        ],
        &["/nonexistent/new"],
    );
    fails(
        &[
            "compare",
            "-p",
            "libketama",
            "--with",
            "nope",
            "-s",
            &servers,
        ],
        &["unknown profile 'nope'"],
    );
}

#[test]
fn no_panic_on_garbage() {
    let d = Dir::new("garbage");
    let mut seed = 0x1234_5678_9abc_def0u64;
    for i in 0..40 {
        let mut bytes = Vec::new();
        for _ in 0..(i * 7 % 90) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            const ALPHABET: &[u8] = b"ab1:.[] \t\n#09x\xff";
            bytes.push(ALPHABET[(seed % ALPHABET.len() as u64) as usize]);
        }
        let f = d.file(&format!("g{i}"), &bytes);
        for profile in ["libketama", "xmemcached", "flexihash-seed", "pecl-memcache"] {
            let out = ketama_stdin(&["lookup", "-p", profile, "-s", &f], Some(&bytes));
            assert!(
                matches!(out.status.code(), Some(0 | 2)),
                "{profile} {bytes:?}"
            );
        }
    }
}

#[test]
fn control_characters_never_reach_the_terminal_raw() {
    let d = Dir::new("escapes");
    let s = d.file("servers", b"10.0.0.1:11211\n10.0.0.2:11211\n");
    // ESC [2J (clear screen), a C1 CSI, a bidi override.
    let keys = "a\x1b[2Jb\nc\u{9b}2Jd\nx\u{202e}y\n";
    for f in ["table", "csv"] {
        let out = ketama_stdin(
            &["lookup", "-p", "libketama", "-s", &s, "--format", f],
            Some(keys.as_bytes()),
        );
        let text = common::stdout_of(&[f], out);
        assert!(
            !text.contains('\x1b') && !text.contains('\u{9b}') && !text.contains('\u{202e}'),
            "{f}: {text:?}"
        );
        assert!(text.contains("a\\x1b[2Jb"), "{f}: {text}");
        assert!(text.contains("c\\u{009b}2Jd"), "{f}: {text}");
        assert!(text.contains("x\\u{202e}y"), "{f}: {text}");
    }
    // JSON keeps the exact key (escaped by JSON itself).
    let out = ketama_stdin(
        &["lookup", "-p", "libketama", "-s", &s, "--format", "json"],
        Some(keys.as_bytes()),
    );
    let v: serde_json::Value = serde_json::from_str(&common::stdout_of(&["json"], out)).unwrap();
    assert_eq!(v[0]["key"], "a\x1b[2Jb");
}

#[test]
fn file_names_that_are_not_utf8_are_refused_naming_the_option() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"/tmp/servers-\xff");
    for (sub, opt) in [
        (&["lookup", "-p", "libketama", "-s"][..], "--servers"),
        (&["simulate", "--plot"][..], "--plot"),
        (&["simulate", "--keys"][..], "--keys"),
        (&["audit", "--detect", "-s"][..], "--servers"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ketama"))
            .args(sub)
            .arg(bad)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{sub:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(opt) && err.contains("is not UTF-8"),
            "{sub:?}: {err}"
        );
    }
}

#[test]
fn help_that_cannot_be_written_fails_and_help_help_succeeds() {
    let full = std::fs::File::create("/dev/full").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ketama"))
        .arg("--help")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write output"));
    let out = ketama(&["help", "--help"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: ketama"));
}

#[test]
fn audit_help_lists_only_the_formats_audit_accepts() {
    let audit = String::from_utf8(ketama(&["audit", "--help"]).stdout).unwrap();
    let line = audit
        .lines()
        .find(|l| l.contains("--format"))
        .unwrap()
        .to_string();
    assert!(
        line.contains("table") || audit.contains("table or json"),
        "{audit}"
    );
    assert!(!audit.contains("csv"), "{audit}");
    let lookup = String::from_utf8(ketama(&["lookup", "--help"]).stdout).unwrap();
    assert!(lookup.contains("csv"), "{lookup}");
}
