//! Readers never wait for writers: one thread looks keys up through the C API on a
//! 10,000-server ring while another adds and removes servers. Prints the longest gap between
//! two lookups (how long a reader ever waited) and checks, without timing,
//! that lookups completed *while* each change was being built.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ketama::ketama_ring;
use ketama::ring::*;
use ketama::status::ketama_status;

struct Ptr(*mut ketama_ring);
// SAFETY: the C API promises every ring function may be called from any thread.
unsafe impl Send for Ptr {}
// SAFETY: as above.
unsafe impl Sync for Ptr {}

fn label(i: u32) -> String {
    format!("10.{}.{}.{}:11211", i >> 16 & 255, i >> 8 & 255, i & 255)
}

#[test]
fn lookups_continue_while_the_ring_changes() {
    let mut raw = std::ptr::null_mut();
    // SAFETY: valid NUL-terminated name and a writable out-pointer.
    let st = unsafe {
        ketama_ring_create(
            c"libmemcached-weighted".as_ptr(),
            std::ptr::null(),
            &mut raw,
        )
    };
    assert_eq!(st, ketama_status::Ok);
    let labels: Vec<String> = (0..10_000).map(label).collect();
    let ptrs: Vec<*const core::ffi::c_char> = labels.iter().map(|l| l.as_ptr().cast()).collect();
    let lens: Vec<usize> = labels.iter().map(String::len).collect();
    // SAFETY: arrays of `labels.len()` elements, each string its length in bytes.
    let st = unsafe {
        ketama_ring_add_many(
            raw,
            ptrs.as_ptr(),
            lens.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
            labels.len(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(st, ketama_status::Ok);
    let ring = Arc::new(Ptr(raw));
    let stop = Arc::new(AtomicBool::new(false));
    let writing = Arc::new(AtomicBool::new(false));
    let during_writes = Arc::new(AtomicU64::new(0));

    let reader = {
        let (ring, stop, writing, during) = (
            Arc::clone(&ring),
            Arc::clone(&stop),
            Arc::clone(&writing),
            Arc::clone(&during_writes),
        );
        std::thread::spawn(move || {
            let mut worst = Duration::ZERO;
            let mut last = Instant::now();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let key = format!("user:{n}:profile");
                let (mut out, mut len) = (std::ptr::null(), 0usize);
                // SAFETY: live ring, key of `key.len()` bytes, writable outputs.
                let st = unsafe {
                    ketama_ring_lookup(ring.0, key.as_ptr().cast(), key.len(), &mut out, &mut len)
                };
                assert_eq!(st, ketama_status::Ok);
                if writing.load(Ordering::Relaxed) {
                    during.fetch_add(1, Ordering::Relaxed);
                }
                let now = Instant::now();
                worst = worst.max(now - last);
                last = now;
                n += 1;
            }
            (worst, n)
        })
    };
    let changes = 10;
    for i in 0..changes {
        let extra = label(20_000 + i);
        // The flag brackets exactly one change call: a lock-based ring would let at most a
        // lookup or two finish inside it; a lock-free one lets the reader run on throughout.
        writing.store(true, Ordering::Relaxed);
        // SAFETY: live ring, label of its length.
        let st = unsafe { ketama_ring_add(ring.0, extra.as_ptr().cast(), extra.len(), 1) };
        writing.store(false, Ordering::Relaxed);
        assert_eq!(st, ketama_status::Ok);
        writing.store(true, Ordering::Relaxed);
        // SAFETY: as above.
        let st = unsafe {
            ketama_ring_remove(
                ring.0,
                labels[i as usize].as_ptr().cast(),
                labels[i as usize].len(),
            )
        };
        writing.store(false, Ordering::Relaxed);
        assert_eq!(st, ketama_status::Ok);
        std::thread::sleep(Duration::from_millis(2));
    }
    stop.store(true, Ordering::Relaxed);
    let (worst, lookups) = reader.join().unwrap();
    println!(
        "reader latency: longest gap between two lookups {:.3} ms over {lookups} lookups, \
         {} of them while {changes} add+remove pairs were being built on 10,000 servers",
        worst.as_secs_f64() * 1e3,
        during_writes.load(Ordering::Relaxed)
    );
    let during = during_writes.load(Ordering::Relaxed);
    assert!(
        during > 10 * u64::from(changes) * 2,
        "only {during} lookups completed during {} changes: readers waited",
        changes * 2
    );
    // SAFETY: no other thread uses the ring any more.
    unsafe { ketama_ring_free(ring.0) };
}
