//! A loop of changes for `perf record`: `changeloop SERVERS build|add|remove|shared REPS`
//! (`shared`: one server added and removed again through `SharedRing`, per rep).
use ketama_core::{Profile, Ring, Server, SharedRing};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let reps: usize = a[3].parse().unwrap();
    let p = Profile::by_name("libmemcached-weighted").unwrap();
    let list: Vec<Server> = (0..n)
        .map(|i| {
            let label = format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255);
            Server::parse(&label, 1).unwrap()
        })
        .collect();
    let ring = Ring::with_servers(p, None, list.iter().cloned()).unwrap();
    let extra = Server::parse("10.250.250.250:11211", 1).unwrap();
    let shared = SharedRing::new(ring.clone(), ());
    let mut best = std::time::Duration::MAX;
    for _ in 0..reps {
        let t = std::time::Instant::now();
        match a[2].as_str() {
            "build" => drop(std::hint::black_box(
                Ring::with_servers(p, None, list.iter().cloned()).unwrap(),
            )),
            "add" => drop(std::hint::black_box(
                ring.with_added(extra.clone()).unwrap(),
            )),
            "remove" => drop(std::hint::black_box(
                ring.with_removed(&list[n / 2].label).unwrap(),
            )),
            _ => {
                shared.add(extra.clone()).unwrap();
                shared.remove(&extra.label).unwrap();
            }
        }
        best = best.min(t.elapsed());
    }
    eprintln!("{n} {}: best {best:?} of {reps}", a[2]);
}
