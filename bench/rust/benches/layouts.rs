//! Lookups per shape of continuum (criterion): for each family (md5, one_at_a_time, 128-bit
//! positions, tie runs) on 100 and 10,000 servers, the floor (the bare key hash, then the
//! reference Eytzinger search over the same points), `Ring::locate_index`, and
//! `Ring::locate_batch` per key. `cargo bench -p ketama-bench --bench layouts`; compare
//! commits with `-- --save-baseline before` and `-- --baseline before`. The ratio check is
//! `cargo run --release -p ketama-bench --example floor`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ketama_bench::{keys, ring, Eytzinger, FAMILIES};

fn bench(c: &mut Criterion) {
    let keys = keys(65_536);
    let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    for (tag, profile) in FAMILIES {
        let wide = tag == "wide";
        for n in [100usize, 10_000] {
            let ring = ring(profile, n);
            let reference = Eytzinger::new(&ring, wide);
            let hash = ring.hash();
            let mut g = c.benchmark_group(format!("layout/{tag}/{n}"));
            g.bench_function("floor", |b| {
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) & 65_535;
                    let h = hash.hash(refs[i]);
                    black_box(reference.search(if wide { h.swap_bytes() } else { h }))
                })
            });
            g.bench_function("locate_index", |b| {
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) & 65_535;
                    black_box(ring.locate_index(refs[i]).ok())
                })
            });
            g.throughput(Throughput::Elements(1024));
            g.bench_function("locate_batch-1024", |b| {
                let mut at = 0;
                b.iter(|| {
                    at = (at + 1024) & 65_535;
                    let mut acc = 0usize;
                    ring.locate_batch(refs[at..at + 1024].iter().copied(), |_, r| {
                        acc ^= r.unwrap_or(0)
                    });
                    acc
                })
            });
            g.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
