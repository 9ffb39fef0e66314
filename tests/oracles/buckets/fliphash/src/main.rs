//! Reads "input buckets" lines on stdin and prints `fliphash::fliphash_64(input, ..=buckets-1)`.
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let mut f = line.split_whitespace();
        let (Some(input), Some(buckets)) = (f.next(), f.next()) else { continue };
        let input: u64 = input.parse().expect("input");
        let buckets: u64 = buckets.parse().expect("buckets");
        writeln!(out, "{}", fliphash::fliphash_64(input, ..=buckets - 1)).expect("stdout");
    }
}
