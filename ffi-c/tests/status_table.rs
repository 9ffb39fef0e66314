//! `spec/errors.json`: every failure status of the C library, core's errors among them, as
//! data for the bindings that generate their error classes from it (Python, Go, Java,
//! JavaScript, PHP, Ruby). Schema in `spec/README.md`, "errors.json".
//!
//! `errors_json_is_fresh` fails when the committed file differs from what
//! `ffi-c/src/status.rs` and `core/src/error.rs` say, or when `include/ketama.h` gives a status
//! another value; to rewrite the file:
//!
//! ```text
//! KETAMA_WRITE_TABLES=1 cargo test -p ketama-ffi --test status_table
//! ```
//! (or `bash tests/gen-tables.sh`; `--check` only compares).

use std::path::PathBuf;

use ketama::ketama_status;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

/// How a binding should classify a failure: `input` (the caller passed something refused:
/// Python `ValueError`), `not_found` (a server or index that is not there: `KeyError`),
/// `no_answer` (valid input, but nothing to return: `LookupError`), `internal` (a bug in
/// ketama). One exhaustive match, so a new status cannot go unclassified.
fn kind(s: ketama_status) -> Option<&'static str> {
    Some(match s {
        ketama_status::Ok => return None,
        ketama_status::EmptyRing | ketama_status::NoServer | ketama_status::NoBucket => "no_answer",
        ketama_status::MissingServer | ketama_status::IndexOutOfRange => "not_found",
        ketama_status::Panic | ketama_status::Internal => "internal",
        ketama_status::NullArgument
        | ketama_status::UnknownProfile
        | ketama_status::UnknownHash
        | ketama_status::AmbiguousHash
        | ketama_status::BadWeight
        | ketama_status::DuplicateServer
        | ketama_status::BadLabel
        | ketama_status::InvalidUtf8
        | ketama_status::KeyRejected
        | ketama_status::Unsupported
        | ketama_status::TooManyPoints
        | ketama_status::BadFactor
        | ketama_status::FixedPoints
        | ketama_status::NotAContinuum
        | ketama_status::NeedsKey
        | ketama_status::BadLoads
        | ketama_status::TooManyServers
        | ketama_status::UnknownAlgorithm
        | ketama_status::ZeroBuckets
        | ketama_status::TooManyBuckets
        | ketama_status::BadOption => "input",
    })
}

/// `EmptyRing` -> `EMPTY_RING` (cbindgen's `ScreamingSnakeCase` of the variant).
fn screaming(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// A JSON string (the texts are ASCII; quotes, backslashes and controls escaped anyway).
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The file's text: one object per failure status, in status order.
fn text() -> String {
    let mut rows = Vec::new();
    for s in ketama_status::ALL {
        let Some(kind) = kind(s) else { continue };
        let name = format!("{s:?}");
        let message = s.message().to_str().expect("status texts are ASCII");
        rows.push(format!(
            "    {{\"name\": {}, \"status\": {}, \"c_name\": {}, \"core\": {}, \"kind\": {}, \"message\": {}}}",
            quoted(&name),
            s as i32,
            quoted(&format!("KETAMA_STATUS_{}", screaming(&name))),
            s.core_error().is_some(),
            quoted(kind),
            quoted(message),
        ));
    }
    format!(
        "{{\n  \"generator\": \"bash tests/gen-tables.sh (ffi-c/tests/status_table.rs)\",\n  \"errors\": [\n{}\n  ]\n}}\n",
        rows.join(",\n")
    )
}

#[test]
fn errors_json_is_fresh() {
    let path = repo("spec/errors.json");
    let want = text();
    if std::env::var_os("KETAMA_WRITE_TABLES").is_some() {
        std::fs::write(&path, &want).expect("write spec/errors.json");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "spec/errors.json is stale: run `bash tests/gen-tables.sh`"
    );
}

#[test]
fn the_header_gives_each_status_its_value() {
    let header = std::fs::read_to_string(repo("include/ketama.h")).expect("include/ketama.h");
    for s in ketama_status::ALL {
        let line = format!(
            "KETAMA_STATUS_{} = {},",
            screaming(&format!("{s:?}")),
            s as i32
        );
        assert!(header.contains(&line), "include/ketama.h lacks `{line}`");
    }
}

#[test]
fn core_errors_keep_core_names() {
    for s in ketama_status::ALL {
        if let Some(e) = s.core_error() {
            assert_eq!(format!("{s:?}"), e.name());
        }
    }
}
