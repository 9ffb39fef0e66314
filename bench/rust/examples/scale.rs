//! Scale limits: times a fresh build, one add and one remove at the largest sizes
//! the library takes, and the refusal of a ring past the point cap. A measurement, not a
//! test; run it in release:
//!
//!     cargo run --release -p ketama-bench --example scale
//!
//! Sizes: 100,000 servers on `modula` (no points) and on `jump`; 52,428 equal servers on
//! `libketama` (8,388,480 points, the largest ketama ring under the 2^23 cap); 52,429 servers
//! (over the cap) to time the refusal.
use std::time::Instant;

use ketama_core::{Error, Profile, Ring, Server, MAX_POINTS};

fn servers(n: usize) -> Vec<Server> {
    (0..n)
        .map(|i| {
            let label = format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255);
            Server::parse(&label, 1).unwrap()
        })
        .collect()
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    println!("profile            servers     points   build ms  add ms  remove ms");
    for (name, n) in [
        ("modula", 100_000),
        ("jump", 100_000),
        ("libketama", 52_428),
    ] {
        let p = Profile::by_name(name).unwrap();
        let list = servers(n);
        let t = Instant::now();
        let ring = Ring::with_servers(p, None, list.iter().cloned()).unwrap();
        let build = ms(t);
        let extra = Server::parse("10.250.250.250:11211", 1).unwrap();
        let t = Instant::now();
        // With one more server a ketama ring passes the cap: add after a removal instead.
        let (smaller, _) = ring.with_removed(&list[n / 2].label).unwrap();
        let remove = ms(t);
        let t = Instant::now();
        let _bigger = smaller.with_added(extra).unwrap();
        let add = ms(t);
        println!(
            "{name:<18} {n:>7} {:>10} {build:>10.1} {add:>7.1} {remove:>10.1}",
            ring.point_count()
        );
    }
    let p = Profile::by_name("libketama").unwrap();
    let list = servers(52_429);
    let t = Instant::now();
    let e = Ring::with_servers(p, None, list).unwrap_err();
    assert_eq!(e, Error::TooManyPoints);
    println!(
        "libketama 52,429 servers (> {MAX_POINTS} points): refused in {:.1} ms: {e}",
        ms(t)
    );
}
