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
        let shared = SharedRing::new(ring.clone(), ());
        let keys: Vec<String> = (0..1024).map(|i| format!("user:{i}:profile")).collect();
        g.bench_with_input(BenchmarkId::new("shared-lookup", n), &shared, |b, shared| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) & 1023;
                black_box(shared.load().ring.locate_index(keys[i].as_bytes()).ok())
            })
        });
        if n == 10_000 {
            let points = ring.point_count();
            // values (u32) + owners (u32) per point; the prefix index adds about 4 bytes per
            // point (one u32 per bucket, about one bucket per point).
            println!("ring/memory/{n}: {points} points, 8 bytes per point in the continuum + ~4 in the index");
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
