//! Build / add one / remove one at 1,000 and 10,000 servers, reporting the fastest of several
//! runs (the figure closest to an idle machine when the machine is shared; criterion's means
//! in `benches/change.rs` are the reference otherwise). Profile as the first argument
//! (default libmemcached-weighted):
//! `cargo run --release -p ketama-bench --example changetime -- libketama`.
use ketama_core::{Profile, Ring, Server};
use std::time::{Duration, Instant};
fn min_of(n: usize, mut f: impl FnMut()) -> Duration {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}
fn main() {
    let p = Profile::by_name(
        &std::env::args()
            .nth(1)
            .unwrap_or("libmemcached-weighted".into()),
    )
    .unwrap();
    for n in [1000usize, 10000] {
        let list: Vec<Server> = (0..n)
            .map(|i| {
                Server::parse(
                    &format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255),
                    1,
                )
                .unwrap()
            })
            .collect();
        let reps = if n > 5000 { 5 } else { 20 };
        let b = min_of(reps, || {
            std::hint::black_box(Ring::with_servers(p, None, list.iter().cloned()).unwrap());
        });
        let ring = Ring::with_servers(p, None, list.iter().cloned()).unwrap();
        let extra = Server::parse("10.250.250.250:11211", 1).unwrap();
        let a = min_of(reps, || {
            std::hint::black_box(ring.with_added(extra.clone()).unwrap());
        });
        let r = min_of(reps, || {
            std::hint::black_box(ring.with_removed(&list[n / 2].label).unwrap());
        });
        eprintln!("{n}: build {b:?} add {a:?} remove {r:?} (min of {reps})");
    }
}
