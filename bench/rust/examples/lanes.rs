//! The MD5 engines side by side, robust to a loaded machine: each engine's best time over
//! many short alternating runs of 1,000 keys `user:N:profile`, per key, and the batch
//! lookup (`Ring::locate_batch_with`) on a weighted md5 ring of 100 servers
//! (libmemcached-weighted) with each engine. A measurement, not a test:
//!
//!     cargo run --release -p ketama-bench --example lanes
use std::hint::black_box;
use std::time::Instant;

use ketama_bench::{keys, ring};
use ketama_core::hash::md5::lanes::{self, Lanes};

fn main() {
    let keys = keys(1000);
    let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    let engines: Vec<Lanes> = Lanes::ALL
        .into_iter()
        .filter(|l| l.is_supported())
        .collect();
    let ring = ring("libmemcached-weighted", 100);
    let mut out = vec![[0u8; 16]; refs.len()];
    let mut digest = vec![f64::MAX; engines.len()];
    let mut lookup = vec![f64::MAX; engines.len()];
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < 3.0 {
        for (i, &l) in engines.iter().enumerate() {
            let t = Instant::now();
            lanes::digest_many(l, black_box(&refs), &mut out);
            digest[i] = digest[i].min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let mut acc = 0;
            ring.locate_batch_with(l, refs.iter().copied(), |_, r| acc ^= r.unwrap_or(0));
            black_box(acc);
            lookup[i] = lookup[i].min(t.elapsed().as_secs_f64());
        }
    }
    println!("engine   lanes  md5 ns/key  locate_batch ns/key (weighted md5, 100 servers)");
    for (i, l) in engines.iter().enumerate() {
        let ns = |s: f64| s * 1e9 / refs.len() as f64;
        println!(
            "{:<7} {:>6}  {:>10.1}  {:>10.1}",
            l.name(),
            l.width(),
            ns(digest[i]),
            ns(lookup[i])
        );
    }
}
