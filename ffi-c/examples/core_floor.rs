//! The floor under the C lookups of `bench/compare.sh`: the Rust core's own
//! `Ring::locate_index` on the same rings and keys as `bench/c/compare.c` (no C boundary, no
//! snapshot load), and through a `SharedRing` snapshot load as the handles do, so the cost the
//! C boundary adds is the difference with `c_lookup_*`.
//!
//! `cargo run --release -p ketama-ffi --example core_floor -- SERVERS [SERVERS ...]`
//!
//! Prints `path servers - ns_per_key` lines (best of many runs of 1,000 keys).

use std::hint::black_box;
use std::time::Instant;

use ketama_core::{Profile, Ring, Server, SharedRing};

const CHUNK: usize = 1000;

/// Best ns/key of `f` over runs of CHUNK keys (the next chunk each run) for about `budget` s.
fn best(keys: &[String], budget: f64, mut f: impl FnMut(&[u8]) -> usize) -> f64 {
    let chunks: Vec<&[String]> = keys.chunks(CHUNK).collect();
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut r = 0;
    while r < 2 * chunks.len() || start.elapsed().as_secs_f64() < budget {
        let chunk = chunks[r % chunks.len()];
        let t = Instant::now();
        let mut sink = 0;
        for k in chunk {
            sink += f(k.as_bytes());
        }
        black_box(sink);
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / chunk.len() as f64);
        r += 1;
    }
    best
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let keys: Vec<String> = (0..20000).map(|i| format!("user:{i}:profile")).collect();
    for arg in std::env::args().skip(1) {
        let n: usize = arg.parse()?;
        for (tag, profile) in [("oaat", "libmemcached"), ("md5", "libmemcached-weighted")] {
            let servers = (0..n).map(|i| {
                let label = format!("10.{}.{}.{}:11211", i / 62500, i / 250 % 250, i % 250 + 1);
                Server::parse(&label, 1)
            });
            let servers = servers.collect::<Result<Vec<_>, _>>()?;
            let ring = Ring::with_servers(Profile::by_name(profile)?, None, servers)?;
            let ns = best(&keys, 0.2, |k| ring.locate_index(k).unwrap_or(usize::MAX));
            println!("rust_locate_index_{tag}\t{n}\t-\t{ns:.1}");
            let shared = SharedRing::new(ring, ());
            let ns = best(&keys, 0.2, |k| {
                shared.load().ring.locate_index(k).unwrap_or(usize::MAX)
            });
            println!("rust_shared_locate_index_{tag}\t{n}\t-\t{ns:.1}");
        }
    }
    Ok(())
}
