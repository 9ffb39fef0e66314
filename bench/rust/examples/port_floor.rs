//! The Rust core's own lookups on the ring the ports' benchmarks time (`bench/java/run.sh`),
//! so that a port's ratio to the core comes from one run on one machine: `locate_index` per
//! key (single) and `locate_batch` over every key (batch, MD5 in SIMD lanes).
//!
//!     cargo run --release -p ketama-bench --example port_floor -- [PROFILE [SERVERS [KEYS]]]
//!
//! Servers `10.0.x.y:11211` of weight 1 (`x = i / 250`, `y = 1 + i % 250`), keys
//! `user:N:profile`; defaults `spymemcached`, 100, 65,536. Batches are calls of 1,000 keys
//! (a multi-get). Each round times 4 passes over every key, single and batch in turn; prints
//! `core_single` and `core_batch`, the median ns per key of 15 rounds after 3 of warm-up, one
//! tab-separated line each. Times are the thread's CPU time (Linux `/proc/thread-self/schedstat`,
//! what the JVM's `getCurrentThreadCpuTime` reads too), so that the figures of a shared machine
//! count only the time the thread ran. A benchmark, not a test.
use std::hint::black_box;

use ketama_core::{Profile, Ring, Server};

const PASSES: usize = 4;
const WARMUP: usize = 3;
const ROUNDS: usize = 15;
/// Keys per batch call.
const CHUNK: usize = 1000;

/// The calling thread's CPU time in nanoseconds (the first field of its schedstat).
fn cpu_ns() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("Linux schedstat");
    stat.split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .expect("a number of ns")
}

/// CPU nanoseconds per key of `PASSES` passes of `pass` over `keys`.
fn timed(keys: &[Vec<u8>], mut pass: impl FnMut(&[Vec<u8>]) -> usize) -> f64 {
    let t = cpu_ns();
    let mut sink = 0usize;
    for _ in 0..PASSES {
        sink = sink.wrapping_add(pass(keys));
    }
    black_box(sink);
    (cpu_ns() - t) as f64 / (PASSES * keys.len()) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let profile = args.first().map_or("spymemcached", String::as_str);
    let servers: usize = args.get(1).map_or(Ok(100), |s| s.parse())?;
    let count: usize = args.get(2).map_or(Ok(1 << 16), |s| s.parse())?;
    let list = (0..servers)
        .map(|i| Server::parse(&format!("10.0.{}.{}:11211", i / 250, 1 + i % 250), 1))
        .collect::<Result<Vec<_>, _>>()?;
    let ring = Ring::with_servers(Profile::by_name(profile)?, None, list)?;
    let keys: Vec<Vec<u8>> = (0..count)
        .map(|i| format!("user:{i}:profile").into_bytes())
        .collect();
    let single = |keys: &[Vec<u8>]| {
        keys.iter()
            .map(|k| ring.locate_index(k).unwrap_or(usize::MAX))
            .fold(0usize, usize::wrapping_add)
    };
    let batch = |keys: &[Vec<u8>]| {
        let mut sum = 0usize;
        for chunk in keys.chunks(CHUNK) {
            ring.locate_batch(chunk.iter().map(Vec::as_slice), |_, r| {
                sum = sum.wrapping_add(r.unwrap_or(usize::MAX));
            });
        }
        sum
    };
    // the same answers both ways before anything is timed
    let mut want = Vec::with_capacity(count);
    ring.locate_batch(keys.iter().map(Vec::as_slice), |_, r| want.push(r));
    for (k, w) in keys.iter().zip(&want) {
        assert_eq!(&ring.locate_index(k), w, "batch and single disagree");
    }
    let (mut s, mut b) = (Vec::new(), Vec::new());
    for round in 0..WARMUP + ROUNDS {
        let (ts, tb) = (timed(&keys, single), timed(&keys, batch));
        if round >= WARMUP {
            s.push(ts);
            b.push(tb);
        }
    }
    println!("core_single\t{:.1}", median(s));
    println!("core_batch\t{:.1}", median(b));
    Ok(())
}
