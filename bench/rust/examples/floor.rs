//! The check that catches a slower single lookup: per family, on rings of 100 and 10,000
//! servers, `Ring::locate_index` against the floor it must beat, the ring's bare key hash
//! (`Hash::hash`, no key checks) followed by the reference search
//! ([`ketama_bench::Eytzinger`], with prefetch) over the same points. Everything
//! `locate_index` adds to a hash and a search (key checks, the layout's dispatch, moving the
//! key between calls) shows in the ratio; a ratio under 1.0 means our whole lookup is
//! slower than a bare hash and a textbook search, and the line says so (under 0.95: a few
//! per cent are noise on a loaded machine). The one_at_a_time rows are the sensitive ones:
//! where MD5 takes most of a lookup, the ratio stays near 1.0. A measurement, not a test
//! (CI does not run it); ratios come from alternating runs in one process:
//!
//!     cargo run --release -p ketama-bench --example floor
//!
//! Exits 1 when a ratio is under 0.95 (a regression to look at: rerun on a quiet machine).
use std::hint::black_box;
use std::time::Instant;

use ketama_bench::{keys, ring, Eytzinger, FAMILIES};

const CHUNK: usize = 1000;
/// The lowest ratio taken for noise (a loaded machine moves a run by a few per cent).
const LIMIT: f64 = 0.95;

fn main() {
    let keys = keys(200_000);
    let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    let mut slow = 0;
    println!("family  servers  floor ns  ours ns  ratio");
    for (tag, profile) in FAMILIES {
        let wide = tag == "wide";
        for n in [100, 10_000] {
            let ring = ring(profile, n);
            let reference = Eytzinger::new(&ring, wide);
            let hash = ring.hash();
            let floor = |k: &[u8]| {
                let h = hash.hash(k);
                reference.search(if wide { h.swap_bytes() } else { h })
            };
            let chunks = refs.len() / CHUNK;
            let (mut best_floor, mut best_ours) = (f64::MAX, f64::MAX);
            let start = Instant::now();
            let mut r = 0;
            while r < 2 * chunks || start.elapsed().as_secs_f64() < 0.5 {
                // each on its own chunk, half the key set apart
                let a = &refs[r % chunks * CHUNK..][..CHUNK];
                let b = &refs[(r + chunks / 2) % chunks * CHUNK..][..CHUNK];
                let t0 = Instant::now();
                let mut s = 0usize;
                for k in a {
                    s += floor(k);
                }
                let t1 = Instant::now();
                for k in b {
                    s += ring.locate_index(k).unwrap_or(0);
                }
                let t2 = Instant::now();
                black_box(s);
                best_floor = best_floor.min((t1 - t0).as_secs_f64());
                best_ours = best_ours.min((t2 - t1).as_secs_f64());
                r += 1;
            }
            let ratio = best_floor / best_ours;
            let ns = |s: f64| s * 1e9 / CHUNK as f64;
            let verdict = if ratio < LIMIT {
                "  SLOWER THAN THE FLOOR"
            } else {
                ""
            };
            slow += usize::from(ratio < LIMIT);
            println!(
                "{tag:<6}  {n:>7}  {:>8.1}  {:>7.1}  {ratio:>4.2}x{verdict}",
                ns(best_floor),
                ns(best_ours)
            );
        }
    }
    std::process::exit(i32::from(slow > 0));
}
