//! Build and change costs by fleet size (criterion): a fresh build, one server added, one
//! removed (each producing the next snapshot from the current one, as the shared handle does),
//! and a lookup through `SharedRing`, at 10 / 100 / 1,000 / 10,000 servers.
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use ketama_core::{Profile, Ring, Server, SharedRing};

fn servers(n: usize) -> Vec<Server> {
    (0..n)
        .map(|i| {
            let label = format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255);
            Server::parse(&label, 1).unwrap()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let p = Profile::by_name("libmemcached-weighted").unwrap();
    let mut g = c.benchmark_group("ring");
    g.sample_size(10);
    for n in [10usize, 100, 1_000, 10_000] {
        let list = servers(n);
        g.bench_with_input(BenchmarkId::new("build", n), &list, |b, list| {
            b.iter(|| Ring::with_servers(p, None, list.iter().cloned()).unwrap())
        });
        let ring = Ring::with_servers(p, None, list.iter().cloned()).unwrap();
        let extra = Server::parse("10.250.250.250:11211", 1).unwrap();
        g.bench_with_input(BenchmarkId::new("add-one", n), &ring, |b, ring| {
            b.iter(|| ring.with_added(extra.clone()).unwrap())
        });
        let victim = list[n / 2].label.clone();
        g.bench_with_input(BenchmarkId::new("remove-one", n), &ring, |b, ring| {
            b.iter(|| ring.with_removed(&victim).unwrap())
        });
        // A ring in service: one server added then removed again through the shared handle
        // (each change writes into the arrays the previous one retired).
        let cycling = SharedRing::new(ring.clone(), ());
        g.bench_with_input(
            BenchmarkId::new("shared-add-then-remove", n),
            &cycling,
            |b, shared| {
                b.iter(|| {
                    shared.add(extra.clone()).unwrap();
                    shared.remove(&extra.label).unwrap();
                })
            },
        );
        drop(cycling);
        let shared = SharedRing::new(ring.clone(), ());
        let keys: Vec<String> = (0..1024).map(|i| format!("user:{i}:profile")).collect();
        g.bench_with_input(
            BenchmarkId::new("shared-lookup", n),
            &shared,
            |b, shared| {
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) & 1023;
                    black_box(shared.load().ring.locate_index(keys[i].as_bytes()).ok())
                })
            },
        );
        if n == 10_000 {
            let points = ring.point_count();
            // values (u32) + owners (u32) per point, and the prefix index: one u32 per bucket,
            // 2^min(bit length of the point count, 20) buckets (core/src/index.rs).
            let bits = (usize::BITS - points.leading_zeros()).clamp(1, 20);
            let index = ((1usize << bits) + 1) * 4;
            println!(
                "ring/memory/{n}: {points} points, 8 bytes per point in the continuum + {:.2} in the index",
                index as f64 / points as f64
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
