//! Lookup and build speed per profile and hash (criterion).
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ketama_core::hash::md5::lanes::Lanes;
use ketama_core::{Hash, Profile, Ring, Server};

fn servers(n: usize) -> Vec<Server> {
    (0..n)
        .map(|i| Server::parse(&format!("10.0.{}.{}:11211", i / 250, i % 250 + 1), 1).unwrap())
        .collect()
}

/// `n` servers with distinct addresses for any `n` up to 2^24.
fn wide_servers(n: usize) -> Vec<Server> {
    (0..n)
        .map(|i| {
            let label = format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255);
            Server::parse(&label, 1).unwrap()
        })
        .collect()
}

fn keys() -> Vec<String> {
    (0..1024).map(|i| format!("user:{i}:profile")).collect()
}

fn bench(c: &mut Criterion) {
    let keys = keys();
    for name in [
        "libketama",
        "libmemcached-weighted",
        "libmemcached",
        "spymemcached",
        "xmemcached",
        "uhashring",
        "pecl-memcache",
        "modula",
        "jump",
        "maglev",
    ] {
        let ring = Ring::with_servers(Profile::by_name(name).unwrap(), None, servers(100)).unwrap();
        c.bench_function(&format!("locate/{name}/100"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) & 1023;
                black_box(ring.locate_index(keys[i].as_bytes()).ok())
            })
        });
    }
    // The search at 16,000 and 1,600,000 points (libketama, 100 and 10,000 servers), keyed
    // with a cheap hash (fnv1a_32, a few ns) so the prefix-table search dominates; 64k keys
    // so the big ring's lookups miss the cache as real traffic does.
    let many: Vec<String> = (0..65_536).map(|i| format!("user:{i}:profile")).collect();
    for n in [100usize, 10_000] {
        let p = Profile::by_name("libketama").unwrap();
        let ring = Ring::with_servers(p, Some(Hash::Fnv1a32), wide_servers(n)).unwrap();
        let points = ring.point_count();
        c.bench_function(&format!("search/fnv1a_32/{points}-points"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) & 65_535;
                black_box(ring.locate_index(many[i].as_bytes()).ok())
            })
        });
    }
    // Batches of 1,024 keys: key by key, and through `locate_batch` on each MD5 engine.
    for name in ["libketama", "libmemcached-weighted", "uhashring"] {
        let ring = Ring::with_servers(Profile::by_name(name).unwrap(), None, servers(100)).unwrap();
        let refs: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
        let mut g = c.benchmark_group(format!("batch-1024/{name}/100"));
        g.throughput(Throughput::Elements(refs.len() as u64));
        g.bench_function("per-key", |b| {
            b.iter(|| {
                let mut acc = 0usize;
                for k in &refs {
                    acc ^= ring.locate_index(black_box(k)).unwrap_or(0);
                }
                acc
            })
        });
        for lanes in Lanes::ALL.into_iter().filter(|l| l.is_supported()) {
            g.bench_function(lanes.name(), |b| {
                b.iter(|| {
                    let mut acc = 0usize;
                    ring.locate_batch_with(lanes, black_box(&refs).iter().copied(), |_, r| {
                        acc ^= r.unwrap_or(0)
                    });
                    acc
                })
            });
        }
        g.finish();
    }
    for h in Hash::all() {
        c.bench_function(&format!("hash/{}", h.name()), |b| {
            b.iter(|| black_box(h.hash(black_box(b"user:1234:profile"))))
        });
    }
    let p = Profile::by_name("libketama").unwrap();
    c.bench_function("build/libketama/100", |b| {
        b.iter(|| Ring::with_servers(p, None, servers(100)).unwrap())
    });
    let base = Ring::with_servers(p, None, servers(100)).unwrap();
    c.bench_function("add-one/libketama/100", |b| {
        b.iter(|| {
            let mut r = base.clone();
            r.add(Server::parse("10.9.9.9:11211", 1).unwrap()).unwrap();
            r
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
