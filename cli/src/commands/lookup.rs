//! `ketama lookup`, streamed: keys are read one line at a time (stdin, `--keys FILE` or the
//! arguments) and each answer is written before the next key is read, so memory does not grow
//! with the number of keys. Only `--format table` collects the rows, to align them.

use std::ffi::OsString;
use std::io::{BufRead, Write};

use clap::Args;
use ketama_core::{Error, Ring};
use ketama_files::Lines;
use serde_json::Value;

use crate::args::{path_arg, ring_from, RingArgs};
use crate::keys;
use crate::output::{csv_field, key_fields, key_text, render, Format, Table};
use crate::shared::{key_error, Fail};

/// `ketama lookup` options.
#[derive(Debug, Args)]
pub(crate) struct LookupArgs {
    #[command(flatten)]
    pub(crate) ring: RingArgs,
    /// Keys file, one key per line (`-` for stdin); read as a stream, like stdin: memory does
    /// not grow with the number of keys (except with `--format table`, which aligns columns).
    #[arg(long = "keys",
        short = 'k',
        value_name = "FILE",
        conflicts_with = "keys", value_parser = path_arg())]
    pub(crate) keys_file: Option<String>,
    /// Servers marked dead (labels, comma-separated or repeated): each key goes where the
    /// profile's client sends it while they are down (its own failover: a ring walk, a rehash
    /// with its retry limit, a smaller rendezvous set), or `-` where the client gives up.
    #[arg(long = "dead", value_name = "LABEL[,LABEL...]", value_delimiter = ',')]
    pub(crate) dead: Vec<String>,
    /// Keys (default: read from stdin, one per line).
    pub(crate) keys: Vec<OsString>,
}

/// Where the keys come from.
enum Source {
    Args(Vec<Vec<u8>>),
    /// A stream of keys, each line bounded (the stream is not: keys are looked up as they
    /// come).
    Reader(Lines<Box<dyn BufRead>>),
}

impl Source {
    fn open(a: &LookupArgs) -> Result<Source, Fail> {
        let stream = |r: Box<dyn BufRead>, name: &str| {
            Source::Reader(crate::files::key_lines(r, name, u64::MAX))
        };
        Ok(match a.keys_file.as_deref() {
            Some("-") => stream(Box::new(std::io::stdin().lock()), "-"),
            Some(path) => {
                let f = crate::files::open(std::path::Path::new(path), "keys file")?;
                stream(
                    Box::new(std::io::BufReader::with_capacity(1 << 16, f)),
                    path,
                )
            }
            None if !a.keys.is_empty() => Source::Args(keys::arg_keys(&a.keys)),
            None => stream(Box::new(std::io::stdin().lock()), "-"),
        })
    }

    /// The next key into `buf` (`\n` separated, one trailing `\r` dropped; no empty key after
    /// a final newline, each line bounded as every key line is); `false` at the end.
    fn next(&mut self, buf: &mut Vec<u8>, at: usize) -> Result<bool, Fail> {
        buf.clear();
        match self {
            Source::Args(list) => match list.get(at) {
                Some(k) => {
                    buf.extend_from_slice(k);
                    Ok(true)
                }
                None => Ok(false),
            },
            Source::Reader(lines) => crate::files::next_line(lines, buf),
        }
    }
}

/// The ring indexes of the `--dead` labels; an unknown label is a usage error.
fn dead_indexes(ring: &Ring, labels: &[String]) -> Result<Vec<usize>, Fail> {
    labels
        .iter()
        .map(|l| {
            ring.servers().position(|s| s.label == *l).ok_or_else(|| {
                Fail::new(format!(
                    "--dead {l}: no server with this label in the servers file"
                ))
            })
        })
        .collect()
}

/// Writes `s`; a closed pipe ends the output quietly (`Ok(false)`).
fn put(out: &mut dyn Write, s: &[u8]) -> Result<bool, Fail> {
    match out.write_all(s) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Fail::new(format!("cannot write output: {e}"))),
    }
}

/// One JSON answer, as the pretty array element `output::json` would print it.
fn json_item(key: &[u8], r: &Result<&str, Error>) -> String {
    let mut o = serde_json::Map::new();
    key_fields(&mut o, key);
    match r {
        Ok(l) => {
            o.insert("label".into(), Value::from(*l));
        }
        Err(e) => {
            o.insert("label".into(), Value::Null);
            o.insert("error".into(), Value::from(key_error(*e)));
        }
    }
    let text = serde_json::to_string_pretty(&Value::Object(o)).unwrap_or_else(|_| "null".into());
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Looks every key up and writes the answers to `out` (see the module doc).
pub(crate) fn stream(a: &LookupArgs, f: Option<Format>, out: &mut dyn Write) -> Result<(), Fail> {
    let ring = ring_from(&a.ring)?;
    let dead = dead_indexes(&ring, &a.dead)?;
    let mut src = Source::open(a)?;
    let mut key = Vec::new();
    let mut table = Table::new(&["key", "label"]);
    let mut i = 0usize;
    let mut open = true;
    if f == Some(Format::Csv) {
        open = put(out, b"key,label\n")?;
    }
    while open && src.next(&mut key, i)? {
        let r = ring
            .locate_alive(&key, &dead)
            .and_then(|i| ring.server(i).ok_or(Error::NoServer))
            .map(|s| s.label.as_str());
        if let Err(e) = r {
            let why = if e == Error::NoServer && !dead.is_empty() {
                "the client gives up: every server it would try is dead"
            } else {
                key_error(e)
            };
            eprintln!(
                "ketama: key {} ('{}'): {why} (printed as '-')",
                i + 1,
                key_text(&key),
            );
        }
        let text = r.unwrap_or("-");
        open = match f {
            None => put(out, format!("{text}\n").as_bytes())?,
            Some(Format::Json) => {
                let sep = if i == 0 { "[\n" } else { ",\n" };
                put(out, format!("{sep}{}", json_item(&key, &r)).as_bytes())?
            }
            Some(Format::Csv) => put(
                out,
                format!("{},{}\n", csv_field(&key_text(&key)), csv_field(text)).as_bytes(),
            )?,
            Some(Format::Table) => {
                table.row(vec![key_text(&key), text.to_string()]);
                true
            }
        };
        i += 1;
    }
    if open {
        match f {
            Some(Format::Json) => {
                put(out, if i == 0 { b"[]\n" } else { b"\n]\n" })?;
            }
            Some(Format::Table) => {
                put(out, render(&table, Format::Table).as_bytes())?;
            }
            _ => {}
        }
    }
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Fail::new(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
