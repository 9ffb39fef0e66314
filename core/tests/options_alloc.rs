//! The key -> server path allocates nothing with placement options either: a hash tag is a
//! sub-slice of the key, a hashed prefix is written into the lookup's stack buffer.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ketama_core::{Options, Profile, Ring, Server};

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

/// Counts this thread's allocations.
struct Counting;

// SAFETY: forwards every call to the system allocator unchanged; the counter is a
// thread-local `Cell` with a const initializer, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCS.with(Cell::get);
    f();
    ALLOCS.with(Cell::get) - before
}

#[test]
fn lookups_with_options_allocate_nothing() {
    // the counter sees allocations
    assert_eq!(allocations(|| drop(std::hint::black_box(vec![1u8; 3]))), 1);
    let servers: Vec<Server> = (1..=10)
        .map(|i| Server::parse(&format!("10.0.0.{i}:11211"), i).unwrap())
        .collect();
    let long = vec![b'k'; 249];
    let keys: [&[u8]; 5] = [b"{user:1}:cart", b"plain", b"a\0b", &long, b"p"];
    for (profile, options) in [
        ("twemproxy", Options::new().with_hash_tag(b"{}").unwrap()),
        (
            "php-memcached",
            Options::new()
                .with_prefix_key(&[b'q'; 127])
                .unwrap()
                .with_hash_with_prefix(true),
        ),
        (
            "modula",
            Options::new()
                .with_prefix_key(b"p:")
                .unwrap()
                .with_hash_with_prefix(true),
        ),
    ] {
        let ring = Ring::with_servers(Profile::by_name(profile).unwrap(), None, servers.clone())
            .unwrap()
            .with_options(options)
            .unwrap();
        let n = allocations(|| {
            for k in keys {
                std::hint::black_box(ring.locate_index(k).unwrap());
                std::hint::black_box(ring.key_hash(k).unwrap());
            }
            ring.locate_batch(keys, |_, r| {
                std::hint::black_box(r.unwrap());
            });
        });
        assert_eq!(n, 0, "{profile}");
    }
}
