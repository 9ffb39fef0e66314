//! The anchor a port's lookup speed is measured against: the Rust core's single lookup
//! (`Ring::locate_index`) and batch lookup (`Ring::locate_batch`, MD5 in SIMD lanes) on the
//! ring and keys the ports' benchmarks use: the `libketama` profile (md5) over 100 servers
//! `10.0.{i / 250}.{i % 250 + 1}:11211` of weight 1, keys `user:{i * 7919}:session` for
//! i < 10,000 (`bench/go/anchor_test.go` measures the Go port the same way). A measurement,
//! not a test; run it in release:
//!
//!     cargo run --release -p ketama-bench --example port_anchor [-- SECONDS]
//!
//! Prints `single NS` and `batch NS`: ns per key of the best pass over the 10,000 keys, each
//! measured for SECONDS (default 0.3).
use std::hint::black_box;
use std::time::Instant;

use ketama_core::{Profile, Ring, Server};

/// The best ns per key of `pass` (one pass over `keys` keys) repeated for `budget` seconds.
fn best(keys: usize, budget: f64, mut pass: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut passes = 0;
    while passes < 3 || start.elapsed().as_secs_f64() < budget {
        let t = Instant::now();
        pass();
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / keys as f64);
        passes += 1;
    }
    best
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let budget: f64 = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 0.3,
    };
    let servers =
        (0..100).map(|i| Server::parse(&format!("10.0.{}.{}:11211", i / 250, i % 250 + 1), 1));
    let servers = servers.collect::<Result<Vec<_>, _>>()?;
    let ring = Ring::with_servers(Profile::by_name("libketama")?, None, servers)?;
    let keys: Vec<String> = (0..10_000)
        .map(|i| format!("user:{}:session", i * 7919))
        .collect();
    let single = best(keys.len(), budget, || {
        let mut sink = 0usize;
        for k in &keys {
            sink ^= ring
                .locate_index(black_box(k.as_bytes()))
                .unwrap_or(usize::MAX);
        }
        black_box(sink);
    });
    let mut out = vec![0usize; keys.len()];
    let batch = best(keys.len(), budget, || {
        ring.locate_batch(keys.iter().map(|k| black_box(k.as_bytes())), |i, r| {
            out[i] = r.unwrap_or(usize::MAX)
        });
        black_box(&out);
    });
    println!("single {single:.1}");
    println!("batch {batch:.1}");
    Ok(())
}
