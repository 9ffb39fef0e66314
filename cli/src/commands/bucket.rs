//! `ketama bucket`: the bucket functions (`jump`, `guava`, `jumpback`, `fliphash`, `maglev-go`,
//! `mpchash-go`) over unsigned 64-bit inputs, from the arguments or stdin.

use std::io::Read;

use clap::Args;
use ketama_core::alt::bucket::{Bucket, Bucketer};
use ketama_core::Error;
use serde_json::json;

use crate::output::Format;
use crate::output::{self, Table};
use crate::shared::Fail;

/// `ketama bucket`.
#[derive(Debug, Args)]
pub(crate) struct BucketArgs {
    /// Bucket function: jump, guava, jumpback, fliphash, maglev-go or mpchash-go.
    #[arg(long, short = 'a')]
    pub(crate) algorithm: String,
    /// Number of buckets (1 ..= 2147483647; maglev-go: 65537, mpchash-go: 65536).
    #[arg(long, short = 'n')]
    pub(crate) buckets: String,
    /// Inputs: unsigned 64-bit integers in decimal (default: stdin, one per line).
    pub(crate) inputs: Vec<String>,
}

/// The algorithm names and descriptions, for messages.
fn algorithms() -> String {
    Bucket::ALL.map(|b| b.name()).join(", ")
}

/// One input: an unsigned 64-bit decimal, surrounding blanks allowed.
fn parse_input(text: &str, place: &str) -> Result<u64, Fail> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|c| c.is_ascii_digit()) {
        return Err(Fail::new(format!(
            "bad input '{}' {place}: expected an unsigned 64-bit integer in decimal",
            t.escape_debug()
        )));
    }
    t.parse().map_err(|_| {
        Fail::new(format!(
            "input {t} {place} is above 18446744073709551615 (2^64 - 1)"
        ))
    })
}

fn inputs(a: &BucketArgs) -> Result<Vec<u64>, Fail> {
    if !a.inputs.is_empty() {
        return a
            .inputs
            .iter()
            .enumerate()
            .map(|(i, s)| parse_input(s, &format!("(argument {})", i + 1)))
            .collect();
    }
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Fail::new(format!("cannot read inputs from stdin (UTF-8 text): {e}")))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_input(l, &format!("(stdin line {})", i + 1)))
        .collect()
}

/// Runs `ketama bucket`.
pub(crate) fn run(a: &BucketArgs, f: Option<Format>) -> Result<String, Fail> {
    let algorithm = Bucket::from_name(&a.algorithm).map_err(|_| {
        Fail::new(format!(
            "unknown bucket algorithm '{}' (expected one of: {})",
            a.algorithm,
            algorithms()
        ))
    })?;
    let n: u32 = a.buckets.trim().parse().map_err(|_| {
        Fail::new(format!(
            "bad --buckets '{}': expected an integer from 1 to {}",
            a.buckets,
            algorithm.max_buckets()
        ))
    })?;
    let table = Bucketer::new(algorithm, n).map_err(|e| match e {
        Error::ZeroBuckets | Error::TooManyBuckets => Fail::new(format!(
            "bad --buckets {n}: {algorithm} takes 1 to {} buckets",
            algorithm.max_buckets()
        )),
        other => Fail::new(other.as_str()),
    })?;
    let inputs = inputs(a)?;
    let mut results = Vec::with_capacity(inputs.len());
    for &input in &inputs {
        let b = table
            .get(input)
            .map_err(|e| Fail::new(format!("input {input}: {e}")))?;
        results.push((input, b));
    }
    Ok(match f {
        None => results.iter().map(|(_, b)| format!("{b}\n")).collect(),
        Some(Format::Json) => output::json(&json!({
            "algorithm": algorithm.name(),
            "buckets": n,
            "results": results
                .iter()
                .map(|&(input, b)| json!({"input": input.to_string(), "bucket": b}))
                .collect::<Vec<_>>(),
        })),
        Some(fmt) => {
            let mut t = Table::new(&["input", "bucket"]);
            for &(input, b) in &results {
                t.row(vec![input.to_string(), b.to_string()]);
            }
            if fmt == Format::Csv {
                t.csv()
            } else {
                t.text()
            }
        }
    })
}
