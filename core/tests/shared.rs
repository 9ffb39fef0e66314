//! `SharedRing::read` under concurrent changes: every read sees one whole published snapshot
//! (never a freed one), and every retired snapshot is freed once no reader holds it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use ketama_core::{Profile, Ring, Server, SharedRing};

/// A snapshot's derived data that counts how many of its kind are alive, and says which
/// generation it belongs to (the server count of its ring).
struct Tag {
    servers: usize,
    alive: Arc<AtomicUsize>,
}

impl Tag {
    fn new(servers: usize, alive: &Arc<AtomicUsize>) -> Tag {
        alive.fetch_add(1, Ordering::SeqCst);
        Tag {
            servers,
            alive: Arc::clone(alive),
        }
    }
}

impl Drop for Tag {
    fn drop(&mut self) {
        // A snapshot dropped twice, or read after its drop, shows up as a wrong count or a
        // wrong tag below.
        self.servers = usize::MAX;
        self.alive.fetch_sub(1, Ordering::SeqCst);
    }
}

fn ring(n: usize) -> Ring {
    let servers = (0..n)
        .map(|i| Server::parse(&format!("10.0.{}.{}:11211", i / 250, i % 250 + 1), 1).unwrap());
    Ring::with_servers(
        Profile::by_name("libmemcached-weighted").unwrap(),
        None,
        servers,
    )
    .unwrap()
}

#[test]
fn reads_see_whole_snapshots_while_changes_retire_them() {
    let alive = Arc::new(AtomicUsize::new(0));
    let shared = Arc::new(SharedRing::new(ring(2), Tag::new(2, &alive)));
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let readers: Vec<_> = (0..4)
        .map(|t| {
            let (shared, stop, reads) =
                (Arc::clone(&shared), Arc::clone(&stop), Arc::clone(&reads));
            thread::spawn(move || {
                let mut i = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let key = format!("key:{t}:{i}");
                    shared.read(|s| {
                        // The tag and the ring were published together, and neither is freed.
                        assert_eq!(s.extra.servers, s.ring.len());
                        let at = s.ring.locate_index(key.as_bytes()).unwrap();
                        assert!(at < s.ring.len());
                    });
                    i += 1;
                }
                reads.fetch_add(i as usize, Ordering::Relaxed);
            })
        })
        .collect();
    for n in (3..40).chain((2..40).rev()) {
        shared
            .update(|_, _| Ok::<_, ketama_core::Error>((ring(n), Tag::new(n, &alive))))
            .unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().unwrap();
    }
    assert!(reads.load(Ordering::Relaxed) > 0);
    // Retired snapshots a reader held at the last change are freed by the next one.
    shared
        .update(|_, _| Ok::<_, ketama_core::Error>((ring(5), Tag::new(5, &alive))))
        .unwrap();
    assert_eq!(
        alive.load(Ordering::SeqCst),
        1,
        "only the current snapshot is alive"
    );
    drop(shared);
    assert_eq!(alive.load(Ordering::SeqCst), 0);
}

#[test]
fn a_snapshot_held_by_a_read_outlives_the_change_that_retires_it() {
    let alive = Arc::new(AtomicUsize::new(0));
    let shared = SharedRing::new(ring(3), Tag::new(3, &alive));
    shared.read(|s| {
        // A change while this read holds the snapshot: it stays readable.
        shared
            .update(|_, _| Ok::<_, ketama_core::Error>((ring(4), Tag::new(4, &alive))))
            .unwrap();
        assert_eq!(s.extra.servers, 3);
        assert_eq!(s.ring.len(), 3);
        assert_eq!(alive.load(Ordering::SeqCst), 2);
    });
    shared.read(|s| assert_eq!(s.extra.servers, 4));
    // The read is over: the next change frees the snapshot it held.
    shared
        .update(|_, _| Ok::<_, ketama_core::Error>((ring(5), Tag::new(5, &alive))))
        .unwrap();
    assert_eq!(alive.load(Ordering::SeqCst), 1);
}

#[test]
fn a_panicking_read_lets_its_slot_go() {
    let alive = Arc::new(AtomicUsize::new(0));
    let shared = SharedRing::new(ring(3), Tag::new(3, &alive));
    for _ in 0..64 {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shared.read(|_| panic!("inside a read"));
        }));
        assert!(r.is_err());
    }
    shared
        .update(|_, _| Ok::<_, ketama_core::Error>((ring(4), Tag::new(4, &alive))))
        .unwrap();
    assert_eq!(
        alive.load(Ordering::SeqCst),
        1,
        "no slot still holds the first snapshot"
    );
}
