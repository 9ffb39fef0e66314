//! The profile and hash tables: tests of the tables themselves, and the documentation tables
//! generated from the rows (the README's profile table, the crate docs' table in
//! `core/src/profile/mod.rs`, `docs/compat.md`'s profile list, and the hash-tag table in
//! `docs/compat.md` and `tests/vectors/README.md`).
//!
//! `generated_tables_are_fresh` fails when a committed table differs from what the rows
//! give; to rewrite them:
//!
//! ```text
//! KETAMA_WRITE_TABLES=1 cargo test -p ketama-core --test tables
//! ```
//! (or `bash tests/gen-tables.sh`; `--check` only compares).

use std::collections::BTreeMap;
use std::path::PathBuf;

use ketama_core::profile::{KeyTag, Placement, PROFILES};
use ketama_core::{Hash, Profile};

/// The line before and after each generated table.
const BEGIN: &str = "<!-- generated from the profile rows by core/tests/tables.rs: do not edit (KETAMA_WRITE_TABLES=1 cargo test -p ketama-core --test tables) -->";
const END: &str = "<!-- end of generated table -->";

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

/// A markdown table cell: `|` escaped, so a description may hold one.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// `name` and its aliases, as code.
fn names(p: &Profile) -> String {
    let mut out = format!("`{}`", p.name);
    if !p.aliases.is_empty() {
        let a: Vec<String> = p.aliases.iter().map(|a| format!("`{a}`")).collect();
        out.push_str(&format!(" (= {})", a.join(", ")));
    }
    out
}

/// The hashes a client offers: the default, then how many more.
fn hashes(p: &Profile) -> String {
    match p.hashes.len() {
        0 | 1 => format!("`{}`", p.default_hash.name()),
        n => format!("`{}` (+{} more)", p.default_hash.name(), n - 1),
    }
}

fn table(head: &[&str], rows: impl Iterator<Item = Vec<String>>) -> Vec<String> {
    let mut out = vec![
        format!("| {} |", head.join(" | ")),
        format!("|{}", "---|".repeat(head.len())),
    ];
    out.extend(rows.map(|r| format!("| {} |", r.join(" | "))));
    out
}

/// The README's table: what each profile reproduces and its key hashes.
fn readme_table() -> Vec<String> {
    table(
        &["profile", "reproduces", "key hash"],
        PROFILES
            .iter()
            .map(|p| vec![names(p), cell(p.description), hashes(p)]),
    )
}

/// The crate docs' table: every knob that shapes the placement.
fn crate_doc_table() -> Vec<String> {
    table(
        &[
            "profile",
            "node string",
            "points per server",
            "key hash",
            "placement",
        ],
        PROFILES.iter().map(|p| {
            let ring = p.is_ring();
            let dash = || "-".to_string();
            vec![
                names(p),
                if ring {
                    format!("`{:?}`, `{}`", p.node, p.strings)
                } else {
                    dash()
                },
                if ring {
                    cell(&format!("{}; {}", p.count, p.points))
                } else {
                    dash()
                },
                hashes(p),
                cell(&match p.placement {
                    Placement::Ring(_) | Placement::PeclBuckets => {
                        format!("{}; {}", p.placement, p.ties)
                    }
                    _ => p.placement.to_string(),
                }),
            ]
        }),
    )
}

/// `docs/compat.md`'s list: the client each profile matches and how that is checked.
fn compat_table() -> Vec<String> {
    table(
        &[
            "profile",
            "client, version and settings it matches",
            "checked with",
        ],
        PROFILES
            .iter()
            .map(|p| vec![names(p), cell(p.description), cell(p.verified_by)]),
    )
}

/// The profiles whose client finds a hash tag in a key: whether the tag needs the
/// `hash_tag` option (its delimiters) or is always `{...}`, and the rule (the spec's
/// `key_tag.rule`, `spec/README.md`).
fn hash_tag_table() -> Vec<String> {
    table(
        &[
            "profile",
            "hash tag",
            "rule (`key_tag` in `spec/README.md`)",
        ],
        PROFILES.iter().filter_map(|p| {
            let (tag, rule) = match p.key_tag {
                KeyTag::None => return None,
                KeyTag::Configured(r) => ("with the `hash_tag` option (2 delimiter bytes)", r),
                KeyTag::Braces(r) => ("always, between `{` and `}` (no option)", r),
            };
            Some(vec![
                names(p),
                tag.to_string(),
                format!("`{}`", snake(&format!("{rule:?}"))),
            ])
        }),
    )
}

/// A Rust variant name (`FirstNonEmpty`) as the spec spells it (`first_non_empty`).
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `text` with the lines between the `nth` pair of markers (from 0) replaced by `lines`
/// (each line prefixed by `prefix`, for doc comments); `None` when the markers are missing.
fn splice(text: &str, prefix: &str, nth: usize, lines: &[String]) -> Option<String> {
    let begin = format!("{prefix}{BEGIN}\n");
    let end = format!("{prefix}{END}\n");
    let mut a = 0;
    for _ in 0..=nth {
        a += text[a..].find(&begin)? + begin.len();
    }
    let b = a + text[a..].find(&end)?;
    let mut body = String::new();
    for l in lines {
        let line = format!("{prefix}{l}");
        body.push_str(line.trim_end());
        body.push('\n');
    }
    Some(format!("{}{}{}", &text[..a], body, &text[b..]))
}

#[test]
fn generated_tables_are_fresh() {
    let write = std::env::var_os("KETAMA_WRITE_TABLES").is_some();
    // (file, doc-comment prefix, which marker pair of the file, table)
    let targets = [
        ("README.md", "", 0, readme_table()),
        ("core/src/profile/mod.rs", "//! ", 0, crate_doc_table()),
        ("docs/compat.md", "", 0, compat_table()),
        ("docs/compat.md", "", 1, hash_tag_table()),
        ("tests/vectors/README.md", "", 0, hash_tag_table()),
    ];
    let mut stale = Vec::new();
    for (path, prefix, nth, lines) in targets {
        let file = repo(path);
        let text = std::fs::read_to_string(&file).unwrap();
        let fresh = splice(&text, prefix, nth, &lines).unwrap_or_else(|| {
            panic!("{path}: the generated-table markers (pair {nth}) are missing")
        });
        if fresh != text {
            if write {
                std::fs::write(&file, fresh).unwrap();
            } else {
                stale.push(path);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated tables in {stale:?}: run `KETAMA_WRITE_TABLES=1 cargo test -p ketama-core --test tables` (or `bash tests/gen-tables.sh`)"
    );
}

#[test]
fn names_and_aliases_are_unique_and_resolve_to_their_own_row() {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for p in PROFILES {
        for n in std::iter::once(&p.name).chain(p.aliases) {
            if let Some(other) = seen.insert(n, p.name) {
                panic!("`{n}` names both `{other}` and `{}`", p.name);
            }
            assert_eq!(Profile::by_name(n).map(|q| q.name), Ok(p.name), "{n}");
        }
    }
}

/// The source of every file of the profile table (`core/src/profile/`), by file name.
fn table_sources() -> Vec<(String, String)> {
    let dir = repo("core/src/profile");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The names of the items declared as `pub static NAME: Profile` in the profile table's files,
/// each with the source of the file that declares it.
fn declared_rows() -> Vec<(String, String)> {
    table_sources()
        .into_iter()
        .flat_map(|(_, source)| {
            source
                .lines()
                .filter_map(|l| l.strip_prefix("pub static "))
                .filter_map(|l| l.strip_suffix(": Profile = Profile {"))
                .map(|item| (item.to_string(), source.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_row_is_listed_once_and_documented() {
    let declared = declared_rows();
    assert_eq!(
        declared.len(),
        PROFILES.len(),
        "rows declared vs listed in PROFILES"
    );
    for (i, p) in PROFILES.iter().enumerate() {
        assert!(
            !PROFILES[i + 1..].iter().any(|q| std::ptr::eq(*q, *p)),
            "{} listed twice",
            p.name
        );
        assert!(
            !p.description.trim().is_empty(),
            "{}: no description",
            p.name
        );
        assert!(
            !p.verified_by.trim().is_empty(),
            "{}: no verified_by",
            p.name
        );
        assert_eq!(p.hashes.first(), Some(&p.default_hash), "{}", p.name);
    }
    // Each declared row is the one PROFILES lists under its name (a row left out of the
    // list would be unreachable by name, and missing from every generated table).
    let list = std::fs::read_to_string(repo("core/src/profile/mod.rs")).unwrap();
    for (item, source) in &declared {
        let at = source
            .find(&format!("pub static {item}: Profile = Profile {{"))
            .unwrap();
        let name = source[at..]
            .split("name: \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap();
        assert!(
            list.contains(&format!("    &{item},\n")),
            "{item} is not listed in PROFILES"
        );
        assert!(Profile::by_name(name).is_ok(), "{item} ({name})");
    }
}

/// The variants of `pub enum Hash`, read from its source.
fn hash_variants() -> Vec<String> {
    let source = include_str!("../src/hash/mod.rs");
    let start = source.find("pub enum Hash {").unwrap();
    let body = &source[start..];
    let body = &body[..body.find("\n}").unwrap()];
    body.lines()
        .filter_map(|l| l.strip_prefix("    "))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        .filter_map(|l| l.strip_suffix(','))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_hash_variant_has_its_own_row() {
    let variants = hash_variants();
    let listed: Vec<String> = Hash::all().map(|h| format!("{h:?}")).collect();
    for v in &variants {
        assert_eq!(
            listed.iter().filter(|l| *l == v).count(),
            1,
            "Hash::{v} needs exactly one row in the hash table (hash/names.rs TABLE)"
        );
    }
    assert_eq!(listed.len(), variants.len(), "rows vs variants");
    let mut names: Vec<&str> = Hash::all().map(|h| h.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), variants.len(), "hash names are not unique");
}
