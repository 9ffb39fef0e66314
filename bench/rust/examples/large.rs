//! Large rings: per family and size, the reference search (the ring's own key hash, then
//! an Eytzinger search with prefetch over the same points, [`ketama_bench::Eytzinger`])
//! beside `Ring::locate_index` (one key per call) and `Ring::locate_batch` (1,000 keys per
//! call). A measurement, not a test; run it in release:
//!
//!     cargo run --release -p ketama-bench --example large -- [SERVERS ...]
//!
//! Prints `path servers reference_ns ours_ns` lines (`large_FAMILY`, `large_batch_FAMILY`),
//! each the best of alternating runs over 1,000-key chunks of 300,000 keys; default sizes
//! 100 1000 10000 50000. `KETAMA_FAMILIES=md5,oaat` picks families.
use std::hint::black_box;
use std::time::Instant;

use ketama_bench::{keys, ring, Eytzinger, FAMILIES};

const CHUNK: usize = 1000;
/// Keys in the set: their lines of a large ring outgrow the caches between two visits.
const KEYS: usize = 300_000;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100, 1000, 10_000, 50_000]
    } else {
        sizes
    };
    let pick = std::env::var("KETAMA_FAMILIES").unwrap_or_default();
    let keys = keys(KEYS);
    let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    for (tag, profile) in FAMILIES {
        if !pick.is_empty() && !pick.split(',').any(|p| p == tag) {
            continue;
        }
        let wide = tag == "wide";
        for &n in &sizes {
            let ring = ring(profile, n);
            let reference = Eytzinger::new(&ring, wide);
            let key_point = |k: &[u8]| {
                let h = ring.key_hash(k).unwrap_or(0);
                if wide {
                    h.swap_bytes()
                } else {
                    h
                }
            };
            let differ = refs
                .iter()
                .filter(|k| ring.locate_index(k).ok() != Some(reference.search(key_point(k))))
                .count();
            assert!(
                differ <= refs.len() / 1000,
                "{tag} {n}: {differ} answers differ"
            );
            let (mut best_ref, mut best_one, mut best_batch) = (f64::MAX, f64::MAX, f64::MAX);
            let start = Instant::now();
            let chunks = refs.len() / CHUNK;
            let mut r = 0;
            while r < 2 * chunks || start.elapsed().as_secs_f64() < 0.6 {
                // Each path its own chunk, a third of the key set apart: none reads lines
                // another path just brought into the cache.
                let chunk = |p: usize| &refs[(r + p * chunks / 3) % chunks * CHUNK..][..CHUNK];
                let t0 = Instant::now();
                let mut s = 0usize;
                for k in chunk(0) {
                    s += reference.search(key_point(k));
                }
                let t1 = Instant::now();
                for k in chunk(1) {
                    s += ring.locate_index(k).unwrap_or(0);
                }
                let t2 = Instant::now();
                ring.locate_batch(chunk(2).iter().copied(), |_, i| s += i.unwrap_or(0));
                let t3 = Instant::now();
                black_box(s);
                best_ref = best_ref.min((t1 - t0).as_secs_f64());
                best_one = best_one.min((t2 - t1).as_secs_f64());
                best_batch = best_batch.min((t3 - t2).as_secs_f64());
                r += 1;
            }
            let ns = |s: f64| s * 1e9 / CHUNK as f64;
            println!("large_{tag}\t{n}\t{:.1}\t{:.1}", ns(best_ref), ns(best_one));
            println!(
                "large_batch_{tag}\t{n}\t{:.1}\t{:.1}",
                ns(best_ref),
                ns(best_batch)
            );
        }
    }
}
