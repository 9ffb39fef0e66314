//! The bytes the process holds on its heap, from the C library allocator's own statistics
//! (glibc's `mallinfo2`: chunks in use in every arena plus mmapped blocks), so `simulate`
//! can report the memory a placement structure holds (bytes held after its build minus
//! before) without a counting allocator in the binary. Elsewhere (other C libraries,
//! other systems) there is no figure.

/// Bytes in use on the heap now; `None` where the C library does not say.
pub(crate) fn live_bytes() -> Option<usize> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallinfo2 takes no argument, only reads the allocator's counters (under
        // its own locks) and returns a plain struct by value; glibc has it since 2.33.
        let m = unsafe { libc::mallinfo2() };
        Some(m.uordblks.saturating_add(m.hblkhd))
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        None
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use ketama_testkit::alloc::{live_bytes as counted, Counting};

    #[global_allocator]
    static COUNT: Counting = Counting;

    #[test]
    fn the_heap_figure_matches_an_exact_count() {
        // Blocks from the arenas, and blocks of their own pages (mmapped).
        for (size, n) in [(40_000usize, 64), (4 << 20, 8)] {
            let (heap0, count0) = (super::live_bytes().unwrap(), counted());
            let held: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; size]).collect();
            let (heap1, count1) = (super::live_bytes().unwrap(), counted());
            let by_heap = heap1.saturating_sub(heap0);
            let by_count = count1.saturating_sub(count0);
            // Both figures are the process's: other tests' threads allocate and free while
            // the blocks are made, so the count need only show most of them.
            assert!(by_count >= n * size / 2, "{by_count}");
            // Chunk headers and page rounding, and what other tests' threads allocate
            // between the two readings: within 2% and 256 KB. A figure of one arena only,
            // or without mmapped blocks, is far off.
            let slack = by_count / 50 + (256 << 10);
            assert!(
                by_heap.abs_diff(by_count) <= slack,
                "{size}: heap {by_heap}, counted {by_count}"
            );
            drop(held);
        }
    }
}
