//! `ketama hash`: each key's hash as a decimal u32, under a hash function alone or as a
//! profile's client computes it (its key rules, its meaning of `crc32`).

use std::ffi::OsString;

use clap::Args;
use ketama_core::{Error, Ring};
use serde_json::Value;

use crate::args::{hash, profile};
use crate::keys;
use crate::output::{self, key_text, render, Format, Table};
use crate::shared::{key_error, Fail};

/// `ketama hash` options.
#[derive(Debug, Args)]
pub(crate) struct HashArgs {
    /// Hash function (see `ketama hashes`); bare `crc32` needs --profile.
    #[arg(long = "hash", short = 'H')]
    pub(crate) hash: Option<String>,
    /// Profile: resolves `crc32` as that client means it, applies its key rules, and gives
    /// its default hash when --hash is absent.
    #[arg(long, short = 'p')]
    pub(crate) profile: Option<String>,
    /// Keys (default: read from stdin, one per line).
    pub(crate) keys: Vec<OsString>,
}

/// Runs `ketama hash`; `None` prints plain lines.
pub(crate) fn run(a: &HashArgs, f: Option<Format>) -> Result<String, Fail> {
    let p = a.profile.as_deref().map(profile).transpose()?;
    let h = match (&a.hash, p) {
        (Some(n), p) => hash(n, p)?,
        (None, Some(p)) => p.default_hash,
        (None, None) => {
            return Err(Fail::new(
                "--hash is required (or --profile, to use its default hash)",
            ))
        }
    };
    let keys = if a.keys.is_empty() {
        keys::stdin_keys()?
    } else {
        keys::arg_keys(&a.keys)
    };
    // With a profile, the client's key rules apply (e.g. xmemcached refuses the empty key).
    let ring = p.map(|p| Ring::new(p, Some(h)));
    let values: Vec<Result<u32, Error>> = keys
        .iter()
        .map(|k| match &ring {
            Some(r) => r.key_hash(k),
            None => Ok(h.hash(k)),
        })
        .collect();
    Ok(per_key(&keys, &values, ("hash", h.name()), f))
}

/// One answer per key: plain lines, or JSON objects `{"key", field}`, or a table (column
/// `header`). A key without an answer prints `-` (JSON `null` with an `error`) and gets a
/// note on stderr; it is not a failure of the command.
fn per_key<T>(
    keys: &[Vec<u8>],
    results: &[Result<T, Error>],
    (field, header): (&str, &str),
    f: Option<Format>,
) -> String
where
    T: ToString + Clone + Into<Value>,
{
    for (i, (k, r)) in keys.iter().zip(results).enumerate() {
        if let Err(e) = r {
            eprintln!(
                "ketama: key {} ('{}'): {} (printed as '-')",
                i + 1,
                key_text(k),
                key_error(*e)
            );
        }
    }
    let text = |r: &Result<T, Error>| r.as_ref().map_or("-".to_string(), ToString::to_string);
    match f {
        None => results.iter().map(|r| text(r) + "\n").collect(),
        Some(Format::Json) => output::json(&Value::Array(
            keys.iter()
                .zip(results)
                .map(|(k, r)| {
                    let mut o = serde_json::Map::new();
                    output::key_fields(&mut o, k);
                    match r {
                        Ok(v) => {
                            o.insert(field.into(), v.clone().into());
                        }
                        Err(e) => {
                            o.insert(field.into(), Value::Null);
                            o.insert("error".into(), Value::from(key_error(*e)));
                        }
                    }
                    Value::Object(o)
                })
                .collect(),
        )),
        Some(fmt) => {
            let mut t = Table::new(&["key", header]);
            for (k, r) in keys.iter().zip(results) {
                t.row(vec![key_text(k), text(r)]);
            }
            render(&t, fmt)
        }
    }
}
