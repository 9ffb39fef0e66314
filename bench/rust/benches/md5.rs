//! MD5 speed: our single-block digest against the `md-5` crate on short messages, and the
//! batch engines (scalar, SSE2 4 lanes, AVX2 8 lanes) on 1,024 keys `user:N:profile`.
//! `cargo bench -p ketama-bench --bench md5`; figures in docs/performance.md.
use ::md5::{Digest, Md5};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ketama_core::hash::md5 as kmd5;
use kmd5::lanes::Lanes;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("md5-one");
    for len in [14usize, 32, 55] {
        let msg = vec![b'k'; len];
        g.bench_function(format!("ours/{len}"), |b| {
            b.iter(|| kmd5::digest(black_box(&msg)))
        });
        g.bench_function(format!("md-5-crate/{len}"), |b| {
            b.iter(|| -> [u8; 16] { Md5::digest(black_box(&msg)).into() })
        });
    }
    g.finish();

    let keys: Vec<String> = (0..1024).map(|i| format!("user:{i}:profile")).collect();
    let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    let mut out = vec![[0u8; 16]; refs.len()];
    let mut g = c.benchmark_group("md5-batch-1024");
    g.throughput(Throughput::Elements(refs.len() as u64));
    for lanes in Lanes::ALL.into_iter().filter(|l| l.is_supported()) {
        g.bench_function(lanes.name(), |b| {
            b.iter(|| {
                kmd5::lanes::digest_many(lanes, black_box(&refs), &mut out);
                out[0]
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
