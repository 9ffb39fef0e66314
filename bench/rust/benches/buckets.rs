//! Lookup speed of every bucket function (ns per input) at 10, 1000 and 1,000,000 buckets
//! (the Go ones at their limits instead of 10^6), and the table build of the two Go ones.
//! `cargo bench -p ketama-bench --bench buckets`; figures in docs/algorithms.md.
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ketama_core::alt::bucket::{Bucket, Bucketer};

/// 1024 well-spread inputs.
fn inputs() -> Vec<u64> {
    (0..1024u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5bd1_e995)
        .collect()
}

fn bench(c: &mut Criterion) {
    let inputs = inputs();
    for algorithm in Bucket::ALL {
        for n in [10, 1000, 1_000_000] {
            let n = n.min(algorithm.max_buckets());
            let table = Bucketer::new(algorithm, n).unwrap();
            c.bench_function(&format!("bucket/{algorithm}/{n}"), |b| {
                b.iter(|| {
                    let mut acc = 0u32;
                    for &i in &inputs {
                        acc ^= table.get(black_box(i)).unwrap_or(0);
                    }
                    acc
                })
            });
        }
    }
    for algorithm in [Bucket::MaglevGo, Bucket::MpcHashGo] {
        for n in [100, 10_000] {
            c.bench_function(&format!("build/{algorithm}/{n}"), |b| {
                b.iter(|| Bucketer::new(algorithm, black_box(n)).unwrap())
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
