//! The key -> server path allocates nothing with placement options either (a hash tag is a
//! sub-slice of the key, a hashed prefix is written into the lookup's stack buffer), nor with the
//! Redis clients' rules (their tags, latin-1 keys, 64-bit points, mixed rendezvous).

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

/// The Redis clients' tags, the 64-bit and rendezvous searches and latin-1 keys allocate
/// nothing either (a refused key included).
#[test]
fn redis_client_lookups_allocate_nothing() {
    let servers: Vec<Server> = (1..=10)
        .map(|i| {
            Server::parse(&format!("10.0.0.{i}:6379"), i)
                .unwrap()
                .with_name(Some(&format!("shard-{i}")))
        })
        .collect();
    let keys: [&[u8]; 6] = [
        b"{user:1}:cart",
        b"plain",
        "\u{e9}t\u{e9}:{x}".as_bytes(),
        b"x\n{t}y",
        b"{}{42}",
        "\u{43a}\u{43b}\u{44e}\u{447}".as_bytes(),
    ];
    for name in [
        "predis",
        "predis-ketama",
        "phpredis-array",
        "phpredis-array-consistent",
        "redis-rb",
        "redis-rb-5",
        "jedis",
        "jedis-named",
        "jedis-2-named",
        "jedis-4",
        "go-redis",
        "go-redis-v7",
        "redis-shard",
        "finagle",
        "enyim",
        "enyim-ketama",
        "cache-memcached-fast",
        "cache-memcached-fast-compat",
        "cache-memcached",
    ] {
        let profile = Profile::by_name(name).unwrap();
        let mut ring = Ring::with_servers(profile, None, servers.clone()).unwrap();
        if profile.options.hash_tag {
            ring = ring
                .with_options(Options::new().with_hash_tag(b"{}").unwrap())
                .unwrap();
        }
        let n = allocations(|| {
            for k in keys {
                let _ = std::hint::black_box(ring.locate_index(k));
            }
            ring.locate_batch(keys, |_, r| {
                let _ = std::hint::black_box(r);
            });
        });
        assert_eq!(n, 0, "{name}");
    }
}
