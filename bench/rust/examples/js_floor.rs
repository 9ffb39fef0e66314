//! The Rust core's single and batch lookups on the ring the JavaScript port is compared on
//! (`bench/js/core.sh`; `port_floor.rs` is the Java side's): `libmemcached-weighted` (md5,
//! 160 points per server of weight 1) over servers `10.a.b.c:11211`, keys `user:N:profile` (N < 20,000). A measurement, not a
//! test; run it in release:
//!
//!     cargo run --release -p ketama-bench --example port_floor -- [--budget S] SERVERS...
//!
//! Prints `path servers - ns_per_key` lines: `core_locate_index_md5` (`Ring::locate_index`,
//! one key at a time) and `core_locate_batch_md5` (`Ring::locate_batch`, 1,000 keys a call),
//! each the best of runs of 1,000 keys (the next chunk each run) for about `budget` seconds
//! (default 0.5).
use std::hint::black_box;
use std::time::Instant;

use ketama_core::{Profile, Ring, Server};

const CHUNK: usize = 1000;

/// Best ns/key of `f` over chunks of CHUNK keys (the next chunk each run) for about `budget` s.
fn best(keys: &[Vec<u8>], budget: f64, mut f: impl FnMut(&[Vec<u8>]) -> usize) -> f64 {
    let chunks: Vec<&[Vec<u8>]> = keys.chunks(CHUNK).collect();
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut r = 0;
    while r < 2 * chunks.len() || start.elapsed().as_secs_f64() < budget {
        let chunk = chunks[r % chunks.len()];
        let t = Instant::now();
        black_box(f(chunk));
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / chunk.len() as f64);
        r += 1;
    }
    best
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut budget = 0.5;
    if let Some(i) = args.iter().position(|a| a == "--budget") {
        budget = args.get(i + 1).ok_or("--budget needs seconds")?.parse()?;
        args.drain(i..i + 2);
    }
    let keys: Vec<Vec<u8>> = (0..20000)
        .map(|i| format!("user:{i}:profile").into_bytes())
        .collect();
    for arg in args {
        let n: usize = arg.parse()?;
        let servers = (0..n).map(|i| {
            let label = format!("10.{}.{}.{}:11211", i / 62500, i / 250 % 250, i % 250 + 1);
            Server::parse(&label, 1)
        });
        let servers = servers.collect::<Result<Vec<_>, _>>()?;
        let ring = Ring::with_servers(Profile::by_name("libmemcached-weighted")?, None, servers)?;
        let single = best(&keys, budget, |chunk| {
            chunk
                .iter()
                .map(|k| ring.locate_index(k).unwrap_or(usize::MAX))
                .sum()
        });
        println!("core_locate_index_md5\t{n}\t-\t{single:.1}");
        let batch = best(&keys, budget, |chunk| {
            let mut sum = 0;
            ring.locate_batch(chunk.iter().map(|k| k.as_slice()), |_, r| {
                sum += r.unwrap_or(usize::MAX)
            });
            sum
        });
        println!("core_locate_batch_md5\t{n}\t-\t{batch:.1}");
    }
    Ok(())
}
