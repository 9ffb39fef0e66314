//! `ketama conformance`: feeds recorded vector files to any program over a line protocol and
//! reports, per file, on how many keys it agrees with the real client (`docs/conformance.md`).
//!
//! The program is started once, in its own process group; a writer thread streams every case
//! to its stdin while this thread reads the answers, so neither side can block the other on
//! a full pipe. A program that stays silent for [`IDLE`] (or `KETAMA_CONFORMANCE_IDLE`
//! seconds), takes longer than `--file-timeout` over one file, prints a line longer than
//! `--max-line` or more than `--max-output` bytes for one file is stopped with its whole
//! group, and the files it did not answer are reported as disagreeing (`driver`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use ketama_core::{Hash, Profile};
use serde_json::{json, Value};

use crate::output::Format;
use crate::output::{self, Table};
use crate::shared::Fail;

mod case;
mod driver;
pub(crate) use case::{unhex, Case, CaseServer, Kind, OPTIONS};
use driver::{Driver, Limits};

/// How long the program may stay silent while answers are due.
const IDLE: Duration = Duration::from_secs(60);

/// `ketama conformance`.
#[derive(Debug, Args)]
pub(crate) struct ConformanceArgs {
    /// Only the vector files of this profile (name or alias).
    #[arg(
        long,
        short = 'p',
        conflicts_with = "all",
        required_unless_present = "all"
    )]
    pub(crate) profile: Option<String>,
    /// With --profile: only the files whose key hash is this one (as the profile resolves the
    /// name; a file without a hash uses the profile's default).
    #[arg(long = "hash", short = 'H', requires = "profile")]
    pub(crate) hash: Option<String>,
    /// Every vector file (kinds locate, hash and sequence).
    #[arg(long)]
    pub(crate) all: bool,
    /// The folder of vector files (its top-level `*.json`).
    #[arg(long, default_value = "tests/vectors", value_name = "DIR")]
    pub(crate) vectors: PathBuf,
    /// The longest time the program may take to answer one vector file, in seconds (then it
    /// is stopped, with every process of its group).
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = crate::args::seconds)]
    pub(crate) file_timeout: Duration,
    /// The longest answer line, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 10)]
    pub(crate) max_line: usize,
    /// The most bytes of answers to one vector file.
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    pub(crate) max_output: u64,
    /// The program to test and its arguments (after `--`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub(crate) command: Vec<OsString>,
}

/// A vector file selected for the run: its case and the expected answer per key.
struct Vector {
    case: Case,
    expect: Vec<Value>,
}

/// Reads and selects the vector files.
fn select(a: &ConformanceArgs) -> Result<Vec<Vector>, Fail> {
    if a.hash.is_some() && a.profile.is_none() {
        return Err(Fail::new(
            "--hash selects files within --profile: give both",
        ));
    }
    let wanted = a.profile.as_deref().map(crate::args::profile).transpose()?;
    let wanted_hash = match (wanted, a.hash.as_deref()) {
        (Some(p), Some(h)) => Some(crate::args::hash(h, Some(p))?),
        _ => None,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&a.vectors)
        .map_err(|e| Fail::new(format!("cannot read {}: {e}", a.vectors.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let bytes = crate::files::read(&path, "vector file", crate::files::VECTOR_FILE)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Fail::new(format!("{}: not UTF-8", path.display())))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| Fail::new(format!("{}: not JSON: {e}", path.display())))?;
        let Some(kind) = Kind::of_file(v["kind"].as_str()) else {
            continue;
        };
        let file_profile = v["profile"].as_str();
        if let Some(p) = wanted {
            let Some(fp) = file_profile.and_then(|n| Profile::by_name(n).ok()) else {
                continue;
            };
            if fp.name != p.name {
                continue;
            }
            if let Some(h) = wanted_hash {
                let file_hash: Option<Hash> = match v["hash"].as_str() {
                    Some(n) => fp.hash_from_name(n).ok(),
                    None => Some(fp.default_hash),
                };
                if file_hash != Some(h) {
                    continue;
                }
            }
        }
        out.push(vector(&path, kind, &v)?);
    }
    if out.is_empty() {
        return Err(Fail::new(format!(
            "no vector file in {} matches{}",
            a.vectors.display(),
            match (&a.profile, &a.hash) {
                (Some(p), Some(h)) => format!(" profile {p} with hash {h}"),
                (Some(p), None) => format!(" profile {p}"),
                _ => String::new(),
            }
        )));
    }
    Ok(out)
}

/// One vector file as a case.
fn vector(path: &Path, kind: Kind, v: &Value) -> Result<Vector, Fail> {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bad = |what: &str| Fail::new(format!("{file}: {what}"));
    let keys: Vec<Vec<u8>> = v["keys"]
        .as_array()
        .ok_or_else(|| bad("no keys"))?
        .iter()
        .map(|k| k.as_str().map(|s| s.as_bytes().to_vec()))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("a key that is not a string"))?;
    let expect = v["expect"]
        .as_array()
        .ok_or_else(|| bad("no expect"))?
        .clone();
    if expect.len() != keys.len() {
        return Err(bad("keys and expect differ in length"));
    }
    let mut servers = Vec::new();
    for s in v["servers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let label = s["label"]
            .as_str()
            .ok_or_else(|| bad("a server without a label"))?;
        if label.is_empty() || label.chars().any(char::is_whitespace) {
            return Err(bad("a label with blanks cannot be sent"));
        }
        servers.push(CaseServer {
            label: label.to_string(),
            weight: s["weight"].as_u64().unwrap_or(1),
            name: s["name"].as_str().map(|n| n.as_bytes().to_vec()),
        });
    }
    let word = |x: &Value| -> Result<Option<String>, Fail> {
        match x.as_str() {
            Some(t) if t.is_empty() || t.chars().any(char::is_whitespace) => {
                Err(bad("a profile or hash name with blanks"))
            }
            t => Ok(t.map(str::to_string)),
        }
    };
    let mut options = Vec::new();
    if let Some(o) = v.get("options") {
        let o = o
            .as_object()
            .ok_or_else(|| bad("options is not an object"))?;
        for k in o.keys() {
            if !OPTIONS.contains(&k.as_str()) {
                return Err(bad(&format!("an option the protocol lacks: {k}")));
            }
        }
        for name in OPTIONS {
            let value = match (name, &o.get(name)) {
                (_, None) => continue,
                ("hash_with_prefix", Some(Value::Bool(b))) => {
                    if *b {
                        b"1".to_vec()
                    } else {
                        b"0".to_vec()
                    }
                }
                (_, Some(Value::String(t))) if name != "hash_with_prefix" => t.as_bytes().to_vec(),
                _ => return Err(bad(&format!("a bad {name} option"))),
            };
            options.push((name, value));
        }
    }
    Ok(Vector {
        case: Case {
            file: file.clone(),
            kind,
            profile: word(&v["profile"])?,
            hash: word(&v["hash"])?,
            n: v["n"].as_u64().unwrap_or(1) as usize,
            options,
            servers,
            keys,
        },
        expect,
    })
}

/// One file's result.
struct Outcome {
    file: String,
    kind: Kind,
    profile: Option<String>,
    agree: usize,
    total: usize,
    /// Why the file disagrees: the program's error, a protocol fault or the first key.
    note: Option<String>,
}

/// What the program answered for one case.
enum Answer {
    Lines(Vec<String>),
    Error(String),
    /// No complete answer: the program ended, went silent or broke the protocol.
    Missing(String),
}

/// The expected value as it compares with an answer line.
fn matches(kind: Kind, want: &Value, got: &str) -> bool {
    if got == "null" {
        return want.is_null();
    }
    match kind {
        Kind::Locate => want.as_str() == Some(got),
        Kind::Hash => got
            .parse::<u64>()
            .ok()
            .is_some_and(|g| want.as_u64() == Some(g)),
        Kind::Failover => want.as_array().is_some_and(|w| {
            let got: Vec<&str> = got.split(' ').collect();
            w.len() == got.len() && w.iter().zip(&got).all(|(a, b)| a.as_str() == Some(b))
        }),
    }
}

/// The expected value as the protocol would print it.
fn shown(want: &Value) -> String {
    match want {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().unwrap_or("?").to_string())
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

fn judge(v: &Vector, answer: Answer) -> Outcome {
    let c = &v.case;
    let mut o = Outcome {
        file: c.file.clone(),
        kind: c.kind,
        profile: c.profile.clone(),
        agree: 0,
        total: c.keys.len(),
        note: None,
    };
    match answer {
        Answer::Error(e) => o.note = Some(format!("error {e}")),
        Answer::Missing(why) => o.note = Some(why),
        Answer::Lines(lines) if lines.len() != c.keys.len() => {
            o.note = Some(format!(
                "{} answer lines for {} keys",
                lines.len(),
                c.keys.len()
            ));
        }
        Answer::Lines(lines) => {
            for ((k, want), got) in c.keys.iter().zip(&v.expect).zip(&lines) {
                if matches(c.kind, want, got) {
                    o.agree += 1;
                } else if o.note.is_none() {
                    o.note = Some(format!(
                        "key '{}': got '{got}', want '{}'",
                        output::key_text(k),
                        shown(want)
                    ));
                }
            }
        }
    }
    o
}

/// The bounds of the program's answers, from the options.
fn limits(a: &ConformanceArgs) -> Limits {
    Limits {
        idle: idle(),
        file: a.file_timeout,
        line: a.max_line,
        output: a.max_output,
    }
}

/// How long the program may stay silent: `KETAMA_CONFORMANCE_IDLE` seconds, else [`IDLE`].
fn idle() -> Duration {
    std::env::var("KETAMA_CONFORMANCE_IDLE")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|&s| s > 0)
        .map_or(IDLE, Duration::from_secs)
}

/// Runs the program over the selected files.
fn run_cases(
    a: &ConformanceArgs,
    vectors: &[Vector],
) -> Result<(Vec<Outcome>, Option<String>), Fail> {
    let limits = limits(a);
    let texts: Vec<String> = vectors.iter().map(|v| v.case.text()).collect();
    let mut driver = Driver::start(&a.command, texts, limits)?;
    let outcomes: Vec<Outcome> = vectors
        .iter()
        .map(|v| judge(v, driver.answer(limits)))
        .collect();
    Ok((outcomes, driver.finish()))
}

/// Runs `ketama conformance`; returns the exit status (0 all agree, 1 some disagree, 2 bad
/// usage).
pub(crate) fn main(a: &ConformanceArgs, f: Option<Format>) -> i32 {
    let f = f.unwrap_or(Format::Table);
    if f == Format::Csv {
        eprintln!("ketama: conformance prints --format table or json");
        return 2;
    }
    let vectors = match select(a) {
        Ok(v) => v,
        Err(Fail(msg)) => {
            eprintln!("ketama: {msg}");
            return 2;
        }
    };
    let (outcomes, exit_note) = match run_cases(a, &vectors) {
        Ok(r) => r,
        Err(Fail(msg)) => {
            eprintln!("ketama: {msg}");
            return 2;
        }
    };
    let files_agree = outcomes
        .iter()
        .filter(|o| o.agree == o.total && o.note.is_none())
        .count();
    let keys_agree: usize = outcomes.iter().map(|o| o.agree).sum();
    let keys: usize = outcomes.iter().map(|o| o.total).sum();
    let ok = files_agree == outcomes.len() && exit_note.is_none();
    let text = match f {
        Format::Json => output::json(&json!({
            "files": outcomes.iter().map(|o| json!({
                "file": o.file, "kind": o.kind.name(), "profile": o.profile,
                "agree": o.agree, "total": o.total, "note": o.note,
            })).collect::<Vec<_>>(),
            "files_agree": files_agree,
            "files_total": outcomes.len(),
            "keys_agree": keys_agree,
            "keys_total": keys,
            "program": exit_note,
            "ok": ok,
        })),
        _ => {
            let mut t = Table::new(&["file", "kind", "profile", "agree", "note"]);
            for o in &outcomes {
                t.row(vec![
                    o.file.clone(),
                    o.kind.name().into(),
                    o.profile.clone().unwrap_or_else(|| "-".into()),
                    format!("{}/{}", o.agree, o.total),
                    o.note.clone().unwrap_or_default(),
                ]);
            }
            let mut s = t.text();
            if let Some(n) = &exit_note {
                s += &format!("program: {n}\n");
            }
            s += &format!(
                "{files_agree} of {} files agree ({keys_agree} of {keys} keys): {}\n",
                outcomes.len(),
                if ok { "conformant" } else { "NOT conformant" }
            );
            s
        }
    };
    match crate::shared::emit(&text) {
        0 if ok => 0,
        0 => 1,
        e => e,
    }
}
